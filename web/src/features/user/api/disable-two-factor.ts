// POST auth/2fa/disable: a fresh code from the app proves it is the owner turning it off.
import { client, read } from '@/lib/api';

export const disableTwoFactor = (code: string) => read(client.auth['2fa'].disable.$post({ json: { code } }));
