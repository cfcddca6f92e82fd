// One email in the shop's name: the adapter is told the site name rather than reading settings itself,
// so a batch of emails reads it once (notification-emails.ts) and a single email once here.
import type { DbOrTx } from '../../db';
import type { Env } from '../../env';
import { type EmailMessage, sendEmail } from '../../providers/email';
import { siteNameOf } from '../settings';

export async function sendShopEmail(db: DbOrTx, env: Env, message: EmailMessage): Promise<void> {
  await sendEmail(db, env, message, await siteNameOf(db));
}
