// POST auth/2fa/setup: a new secret and its otpauth link, not in force until a first code confirms it.
import { client, read } from '@/lib/api';

export const startTwoFactorSetup = async () => (await read(client.auth['2fa'].setup.$post())).data;
export type TwoFactorSetup = Awaited<ReturnType<typeof startTwoFactorSetup>>;
