// POST auth/2fa/enable or auth/2fa/disable: either way a fresh code from the app proves it is the owner.
import { client, read } from '@/lib/api';

export type TwoFactorSwitch = 'enable' | 'disable';

export const switchTwoFactor = (action: TwoFactorSwitch, code: string) => {
  const twoFactor = client.auth['2fa'];
  return read(action === 'enable' ? twoFactor.enable.$post({ json: { code } }) : twoFactor.disable.$post({ json: { code } }));
};
