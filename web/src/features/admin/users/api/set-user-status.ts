// POST admin/users/{userId}/suspend and /reactivate: suspension ends the person's sessions at once;
// reactivation lets them sign in again.
import { client, read } from '@/lib/api';

const param = (userId: number) => ({ param: { userId: String(userId) } });

export const suspendUser = (userId: number) => read(client.admin.users[':userId'].suspend.$post(param(userId)));
export const reactivateUser = (userId: number) => read(client.admin.users[':userId'].reactivate.$post(param(userId)));
