// What the shop writes to an account's mailbox about the account itself: the texts only, sent by the callers
// through providers/email so that each goes out in the same transaction or request as what it reports.
import type { RevokedKey } from './api-keys';

/** What a reset or password change took back, for the owner's mailbox: they learn of it even if it was not them. */
export function everyWayInRevoked(fullName: string, what: string, revokedKeys: RevokedKey[]): string {
  const keys = revokedKeys.length
    ? [
        'These reseller API keys were revoked and no longer work:',
        ...revokedKeys.map((key) => `- ${key.name} (${key.prefix}…)`),
        'Make new keys on the API page for the tools you still use.',
      ]
    : ['No reseller API keys were revoked.'];
  return [
    `Hello ${fullName},`,
    '',
    what,
    'Every device that was signed in has been signed out.',
    ...keys,
    '',
    'If this was not you, reset your password now and contact support.',
  ].join('\n');
}
