// POST auth/reset-password: the spec's temporary-token call, the emailed token as the bearer and the new password form-encoded.
import { publicClient, read, withTemporaryToken } from '@/lib/api';

// `form` types the call; the options replace the client's multipart body with the form-encoded one the spec names.
export const resetPassword = (token: string, password: string) =>
  read(publicClient.auth['reset-password'].$post({ form: { password } }, withTemporaryToken(token, { password })));
