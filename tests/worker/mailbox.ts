// The sandbox mailbox the Worker's email adapter sends to in tests: emailed links are read there,
// as their owner reads them in an inbox (the email outbox keeps only a hash of their tokens).
import { inject } from 'vitest';

const mailboxUrl = inject('mailboxUrl');

export interface Mail {
  to: string[];
  subject: string;
  text: string;
}

export async function mailsTo(address: string): Promise<Mail[]> {
  const response = await fetch(`${mailboxUrl}/__messages?to=${encodeURIComponent(address)}`);
  return ((await response.json()) as { messages: Mail[] }).messages;
}

/** The token of the newest set-password link emailed to this address. */
export async function emailedResetToken(address: string): Promise<string> {
  const mails = await mailsTo(address);
  // The newest mail that carries a link: notices (a new sign-in, a changed password) may have followed it.
  const withLink = mails.findLast((mail) => /reset-password\?token=/.test(mail.text));
  const link = /reset-password\?token=(\S+)/.exec(withLink?.text ?? '');
  if (!link) throw new Error(`no reset link was emailed to ${address}`);
  return decodeURIComponent(link[1]);
}

/** The token of the newest address-confirmation link emailed to this address. */
export async function emailedConfirmationToken(address: string): Promise<string> {
  const link = (await mailsTo(address)).map((mail) => /verify-email\?token=(\S+)/.exec(mail.text)).findLast((found) => found !== null);
  if (!link) throw new Error(`no confirmation link was emailed to ${address}`);
  return decodeURIComponent(link[1]);
}
