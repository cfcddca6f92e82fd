// The referral code a visitor arrived with (?ref=CODE on any public page), kept until they sign up,
// so someone who browses the services first is still tied to the friend who sent the link.
import { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from '@schemas/referral-code';

const KEY = 'referralCode';
const CODE = new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`);

export function rememberReferral(search: string): void {
  const code = new URLSearchParams(search).get('ref')?.trim().toUpperCase();
  if (code && CODE.test(code)) window.localStorage.setItem(KEY, code);
}

export const rememberedReferral = (): string | undefined => window.localStorage.getItem(KEY) ?? undefined;

export const forgetReferral = (): void => window.localStorage.removeItem(KEY);
