// POST auth/login: the session's tokens and the user; the code only once the server has asked for it (two-factor sign-in).
import type { LoginInput } from '@schemas/auth';
import { publicClient, read } from '@/lib/api';

export const login = (input: LoginInput) => read(publicClient.auth.login.$post({ json: input }));
