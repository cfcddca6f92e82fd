// The email adapter. Every message is recorded in email_outbox; with EMAIL_API_URL set it is also
// sent through a Resend-compatible HTTP API (the local stack and the tests point it at a sandbox
// mailbox). A one-time link is only ever in the email itself: the outbox keeps a hash of its token.
// Every email names the shop: it comes from EMAIL_FROM, or else from a sender named after the site
// name the caller passes (Site Settings'), and ends with that name, so a customer knows who wrote without opening links.
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../../drizzle/schema';
import type { DbOrTx } from '../db';
import { type Env, isLocalEnvironment } from '../env';
import { sha256Hex } from '../lib/crypto';
import { log } from '../lib/log';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
  /** A one-time token the text carries (a password reset or invitation link). */
  token?: string;
}

/** The text as the outbox keeps it: the token replaced by its SHA-256, as password_resets stores it. */
async function outboxText({ text, token }: EmailMessage): Promise<string> {
  if (!token) return text;
  const hashed = `[token sha256:${await sha256Hex(token)}]`;
  return text.replaceAll(encodeURIComponent(token), hashed).replaceAll(token, hashed);
}

/** The site name as a sender's display name: one line (a header), quoted so any character is safe in it. */
function displayName(siteName: string): string {
  return `"${siteName.replace(/[\r\n]+/g, ' ').replace(/["\\]/g, '\\$&')}"`;
}

/** EMAIL_FROM when configured; otherwise no-reply at the shop's own host, named after the site. */
export function emailSender(env: Pick<Env, 'EMAIL_FROM' | 'APP_URL'>, siteName: string): string {
  if (env.EMAIL_FROM?.trim()) return env.EMAIL_FROM.trim();
  let host = 'localhost';
  try {
    host = new URL(env.APP_URL).hostname || host;
  } catch {
    // An APP_URL that is not a URL must not stop the email.
  }
  return `${displayName(siteName)} <no-reply@${host}>`;
}

/** The text with the shop's name as its signature. */
export const signedText = (text: string, siteName: string): string => `${text.trimEnd()}\n\n— ${siteName}`;

export async function sendEmail(db: DbOrTx, env: Env, unsigned: EmailMessage, siteName: string): Promise<void> {
  const message = { ...unsigned, text: signedText(unsigned.text, siteName) };
  const [row] = await db
    .insert(emailOutbox)
    .values({ toAddress: message.to, subject: message.subject, body: await outboxText(message) })
    .returning({ id: emailOutbox.id });
  if (!env.EMAIL_API_URL) {
    // A hand-run `wrangler dev` without a mailbox: the log is the inbox. Deployed, nothing is sent, and the log says so.
    if (isLocalEnvironment(env)) console.log(`[email] to ${message.to}: ${message.subject}\n${message.text}`);
    else log.warn('email not sent: EMAIL_API_URL is not set', { to: message.to, subject: message.subject });
    return;
  }
  const response = await fetch(env.EMAIL_API_URL, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${env.EMAIL_API_KEY ?? ''}` },
    body: JSON.stringify({ from: emailSender(env, siteName), to: [message.to], subject: message.subject, text: message.text }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`email API answered ${response.status}`);
  await db.update(emailOutbox).set({ sentAt: new Date() }).where(eq(emailOutbox.id, row.id));
}
