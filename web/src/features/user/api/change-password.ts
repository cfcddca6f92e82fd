// PUT user/changePassword: every session ends, and the API keys too unless `revokeApiKeys` is false.
import type { ChangePasswordInput } from '@schemas/auth';
import { client, read } from '@/lib/api';

export const changePassword = (input: ChangePasswordInput) => read(client.user.changePassword.$put({ json: input }));
/** The API keys a change revoked, by name and prefix: said before the logout that follows. */
export type RevokedKeys = Awaited<ReturnType<typeof changePassword>>['revokedKeys'];
