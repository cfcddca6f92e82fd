// POST auth/forgot-password: the same answer whether or not the email has an account.
import { publicClient, read } from '@/lib/api';

export const sendPasswordReset = (email: string) => read(publicClient.auth['forgot-password'].$post({ json: { email } }));
