// POST auth/2fa/recovery-codes: ten new recovery codes for a current code from the app; the old ones stop working.
import { client, read } from '@/lib/api';

export const regenerateRecoveryCodes = (code: string) => read(client.auth['2fa']['recovery-codes'].$post({ json: { code } }));
/** The ten one-time codes, as enabling or regenerating answers them. */
export type RecoveryCodes = Awaited<ReturnType<typeof regenerateRecoveryCodes>>['data']['recoveryCodes'];
