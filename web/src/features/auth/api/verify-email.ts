// POST auth/verify-email: the emailed link's token proves the mailbox, and the address counts as confirmed.
import { publicClient, read } from '@/lib/api';

export const verifyEmail = (token: string) => read(publicClient.auth['verify-email'].$post({ json: { token } }));
