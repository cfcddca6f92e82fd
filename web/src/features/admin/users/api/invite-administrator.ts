// POST admin/administrators/invite {fullName, email}: they choose their password through the emailed link.
import type { InviteAdministratorInput } from '@schemas/admin';
import { client, read } from '@/lib/api';

export const inviteAdministrator = (body: InviteAdministratorInput) => read(client.admin.administrators.invite.$post({ json: body }));
