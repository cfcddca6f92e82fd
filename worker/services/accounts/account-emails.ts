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

/** The link that proves the mailbox, at registration or on request, and what waits on it. */
export function emailConfirmationText(fullName: string, link: string, ttlHours: number): string {
  return [
    `Hello ${fullName},`,
    '',
    `Confirm that this is your email address by opening this link within ${ttlHours} hours:`,
    link,
    '',
    'Until you do, you cannot create reseller API keys or earn referral commission.',
    'If you did not create an account with us, ignore this email.',
  ].join('\n');
}

/** An administrator's invitation to an address that already has an account: nothing changes until the link is used. */
export function promotionInvitationText(invite: {
  fullName: string;
  email: string;
  invitedBy: string;
  siteName: string;
  link: string;
  ttlHours: number;
}): string {
  return [
    `Hello ${invite.fullName},`,
    '',
    `${invite.invitedBy} invited you to become an administrator of ${invite.siteName}.`,
    `Using this link within ${invite.ttlHours} hours sets a new password for your account (${invite.email}) and makes it an administrator:`,
    invite.link,
    '',
    'When you use it, every device signed in to the account is signed out and every reseller API key of the account stops working.',
    'If you do not want this, ignore this email: nothing changes until the link is used.',
  ].join('\n');
}
