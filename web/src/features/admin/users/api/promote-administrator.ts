// POST admin/administrators/promote {userId}: an existing user becomes an administrator.
import { client, read } from '@/lib/api';

export const promoteAdministrator = (userId: number) => read(client.admin.administrators.promote.$post({ json: { userId } }));
