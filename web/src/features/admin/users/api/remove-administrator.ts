// DELETE admin/administrators/{userId}: the administrator becomes a regular user.
import { client, read } from '@/lib/api';

export const removeAdministrator = (userId: number) => read(client.admin.administrators[':userId'].$delete({ param: { userId: String(userId) } }));
