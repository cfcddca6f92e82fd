// POST auth/resend-verification: a new confirmation link to the signed-in person's address (limited: a 429 says when to try again).
import { client, read } from '@/lib/api';

export const resendVerification = () => read(client.auth['resend-verification'].$post());
