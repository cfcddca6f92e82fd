// What the owner's mailbox hears about sign-ins they may not have made: from a device or address the account
// never used, and a right password followed by wrong two-factor codes. Each links to the reset, which signs
// out every device and stops every API key.
import type { DbOrTx } from '../../db';
import type { Env } from '../../env';
import { sendShopEmail } from '../notifications';

export interface SignInPlace {
  ip: string;
  userAgent: string | null;
}

interface Owner {
  email: string;
  fullName: string;
}

const describePlace = (place: SignInPlace, at: Date) => [
  `Time: ${at.toUTCString()}`,
  `Address: ${place.ip}`,
  `Browser: ${place.userAgent?.slice(0, 200) || 'unknown'}`,
];

const resetAdvice = (env: Pick<Env, 'APP_URL'>) => [
  `Reset your password here: ${env.APP_URL}/forgot-password`,
  'A reset signs out every device and stops every reseller API key of the account.',
];

export function sendNewDeviceNotice(db: DbOrTx, env: Env, owner: Owner, place: SignInPlace): Promise<void> {
  return sendShopEmail(db, env, {
    to: owner.email,
    subject: 'New sign-in to your account',
    text: [
      `Hello ${owner.fullName},`,
      '',
      'Your account was just signed in to from a device or address it has not used before.',
      '',
      ...describePlace(place, new Date()),
      '',
      'If this was you, there is nothing to do. If it was not, someone knows your password.',
      ...resetAdvice(env),
    ].join('\n'),
  });
}

export function sendTwoFactorLockAlert(db: DbOrTx, env: Env, owner: Owner, place: SignInPlace, lockMinutes: number): Promise<void> {
  return sendShopEmail(db, env, {
    to: owner.email,
    subject: 'Your password was used with wrong two-factor codes',
    text: [
      `Hello ${owner.fullName},`,
      '',
      'Someone signed in to your account with the right password, then entered several wrong two-factor codes.',
      `Two-factor sign-in is locked for ${lockMinutes} minutes.`,
      '',
      ...describePlace(place, new Date()),
      '',
      'If this was not you, someone knows your password: change it now.',
      ...resetAdvice(env),
    ].join('\n'),
  });
}
