// The notification jobs of the cron trigger: the low-balance check, and emailing what was told.
// Emails are claimed before they are sent (FOR UPDATE SKIP LOCKED, then marked), so two runs at
// once never send one twice; a send that fails goes back to wait for the next run. A run that
// dies between the claim and the send loses that one email: at most once, never twice.
import { sql } from 'drizzle-orm';
import { notificationSettings, notifications, users, wallets } from '../../../drizzle/schema';
import { API_ORDER_DIGEST, NOTIFICATION_KINDS, type NotificationKind } from '../../../vocabulary';
import type { Db } from '../../db';
import type { Env } from '../../env';
import { hmacHex, verifyHmacHex } from '../../lib/crypto';
import { formatNairaSql } from '../../lib/decimal';
import { invalid } from '../../lib/errors';
import { log } from '../../lib/log';
import { sendEmail } from '../../providers/email';
import { labelInSentence } from '../../schemas/notifications';
import { siteNameOf } from '../settings';

const EMAIL_BATCH = 25;
/** An email not sent within this long is no longer news: it is skipped. */
const EMAIL_MAX_AGE = sql`interval '2 days'`;
export const UNSUBSCRIBE_INVALID = 'This unsubscribe link is not valid.';

const unsubscribeKey = (env: Pick<Env, 'JWT_SECRET'>) => `unsubscribe:${env.JWT_SECRET}`;

/** The token of a one-click unsubscribe link: the user and the kind, signed. */
export async function unsubscribeToken(env: Pick<Env, 'JWT_SECRET'>, userId: number, kind: NotificationKind): Promise<string> {
  return `${userId}.${kind}.${await hmacHex(unsubscribeKey(env), `${userId}:${kind}`)}`;
}

export async function readUnsubscribeToken(env: Pick<Env, 'JWT_SECRET'>, token: string): Promise<{ userId: number; kind: NotificationKind }> {
  const [id, kind, mac] = token.split('.');
  const userId = Number(id);
  const known = (NOTIFICATION_KINDS as readonly string[]).includes(kind);
  if (!Number.isSafeInteger(userId) || userId <= 0 || !known || !mac || !(await verifyHmacHex(unsubscribeKey(env), `${userId}:${kind}`, mac))) {
    throw invalid(UNSUBSCRIBE_INVALID);
  }
  return { userId, kind: kind as NotificationKind };
}

/**
 * Cron: alerts each user whose balance fell below the amount they set, once until it is back at
 * or above it. The alert is recorded with the mark that it was sent, in one statement.
 */
export async function checkLowBalances(db: Db): Promise<{ alerted: number; rearmed: number }> {
  const alerted = await db.execute(sql`
    with low as (
      update ${notificationSettings} s set low_balance_alerted_at = now()
      from ${wallets} w
      where w.user_id = s.user_id and s.low_balance_kobo is not null and s.low_balance_alerted_at is null and w.balance_kobo < s.low_balance_kobo
      returning s.user_id, s.low_balance_kobo, s.low_balance_alerted_at, w.balance_kobo
    )
    insert into ${notifications} (user_id, kind, event_key, title, body, link)
    select user_id, 'low_balance', user_id || ':' || (extract(epoch from low_balance_alerted_at) * 1000)::bigint, 'Your balance is low',
      'Your wallet has ' || ${sql.raw(formatNairaSql('balance_kobo'))} || ', below the ' || ${sql.raw(formatNairaSql('low_balance_kobo'))} || ' you set. Add funds to keep ordering.',
      '/user/add-fund'
    from low
    on conflict do nothing`);
  const rearmed = await db.execute(sql`
    update ${notificationSettings} s set low_balance_alerted_at = null
    from ${wallets} w
    where w.user_id = s.user_id and s.low_balance_alerted_at is not null and (s.low_balance_kobo is null or w.balance_kobo >= s.low_balance_kobo)`);
  return { alerted: alerted.rowCount ?? 0, rearmed: rearmed.rowCount ?? 0 };
}

type ClaimedEmail = {
  id: string;
  user_id: number;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  email: string;
  email_state: 'sent' | 'skipped';
};

/**
 * Cron: emails the notifications waiting, a batch at a time; kinds the user turned off are skipped, and so is an API
 * order summary whose setting was turned off after it was written (that setting is its email switch).
 */
export async function sendNotificationEmails(db: Db, env: Env): Promise<{ sent: number; skipped: number; failed: number }> {
  const { rows } = await db.execute<ClaimedEmail>(sql`
    with due as (
      select id from ${notifications} where email_state = 'pending' order by id limit ${EMAIL_BATCH} for update skip locked
    )
    update ${notifications} n
    set email_state = case
        when n.created_at < now() - ${EMAIL_MAX_AGE} or u.status <> 'active'
          or exists (select 1 from ${notificationSettings} s where s.user_id = n.user_id and s.email_off @> to_jsonb(n.kind))
          or (n.kind = ${API_ORDER_DIGEST} and not exists (select 1 from ${notificationSettings} s where s.user_id = n.user_id and s.api_order_digest))
          then 'skipped'
        else 'sent' end,
      emailed_at = now()
    from due, ${users} u
    where n.id = due.id and u.id = n.user_id
    returning n.id, n.user_id, n.kind, n.title, n.body, n.link, u.email, n.email_state`);
  const result = { sent: 0, skipped: 0, failed: 0 };
  const appUrl = env.APP_URL.replace(/\/$/, '');
  const siteName = rows.some((row) => row.email_state !== 'skipped') ? await siteNameOf(db) : '';
  for (const row of rows) {
    if (row.email_state === 'skipped') {
      result.skipped += 1;
      continue;
    }
    const unsubscribe = `${appUrl}/unsubscribe?token=${encodeURIComponent(await unsubscribeToken(env, row.user_id, row.kind))}`;
    try {
      await sendEmail(
        db,
        env,
        {
          to: row.email,
          subject: row.title,
          text:
            `${row.body}\n\n${row.link ? `See it in your account: ${appUrl}${row.link}\n\n` : ''}` +
            `You get this email about ${labelInSentence(row.kind)}. Stop these emails with one click: ${unsubscribe}\n` +
            `Choose which emails you get: ${appUrl}/user/settings`,
        },
        siteName,
      );
      result.sent += 1;
    } catch (error) {
      result.failed += 1;
      log.warn('notification email failed', { notificationId: row.id, error: String(error) });
      await db.execute(sql`update ${notifications} set email_state = 'pending', emailed_at = null where id = ${row.id}`);
    }
  }
  return result;
}
