// POST auth/2fa/enable: a first code from the app turns it on; the answer holds the ten recovery codes, shown only now.
import { client, read } from '@/lib/api';

export const enableTwoFactor = (code: string) => read(client.auth['2fa'].enable.$post({ json: { code } }));
