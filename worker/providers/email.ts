// The email adapter. Every message is recorded in email_outbox; with EMAIL_API_URL set it is also
// sent through a Resend-compatible HTTP API (the local stack and the tests point it at a sandbox
// mailbox). A one-time link is only ever in the email itself: the outbox keeps a hash of its token.
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

export async function sendEmail(db: DbOrTx, env: Env, message: EmailMessage): Promise<void> {
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
    body: JSON.stringify({ from: env.EMAIL_FROM ?? 'no-reply@localhost', to: [message.to], subject: message.subject, text: message.text }),
    signal: AbortSignal.timeout(10_000),
  });
  if (!response.ok) throw new Error(`email API answered ${response.status}`);
  await db.update(emailOutbox).set({ sentAt: new Date() }).where(eq(emailOutbox.id, row.id));
}
