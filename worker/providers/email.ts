// The email adapter. Every message is recorded in email_outbox (the local stack's inbox);
// with EMAIL_API_URL set it is also sent through a Resend-compatible HTTP API.
import { eq } from 'drizzle-orm';
import { emailOutbox } from '../../drizzle/schema';
import type { DbOrTx } from '../db';
import type { Env } from '../env';

export interface EmailMessage {
  to: string;
  subject: string;
  text: string;
}

export async function sendEmail(db: DbOrTx, env: Env, message: EmailMessage): Promise<void> {
  const [row] = await db.insert(emailOutbox).values({ toAddress: message.to, subject: message.subject, body: message.text }).returning({ id: emailOutbox.id });
  if (!env.EMAIL_API_URL) {
    if (env.ENVIRONMENT !== 'production') console.log(`[email] to ${message.to}: ${message.subject}\n${message.text}`);
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
