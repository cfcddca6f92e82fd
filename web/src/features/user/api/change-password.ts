// PUT user/changePassword.
import type { ChangePasswordInput } from '@schemas/auth';
import { client, read } from '@/lib/api';

export const changePassword = (input: ChangePasswordInput) => read(client.user.changePassword.$put({ json: input }));
