// The daily summary of orders placed through the API. A reseller's tools place orders by the
// hundred and read their outcomes from the API, so those orders are not told one by one
// (notifyOrderClosed); a user who turned the summary on gets one notification a day instead, in
// the bell and, through the email job like any other, by email. The cron runs every few minutes:
// the settings row keeps how far the summaries have told (a Lagos midnight), and the statement
// that writes a summary advances it, so a day is told once; (kind, event key) is unique and the
// key names the day, so even runs at once cannot write a second.
import { sql } from 'drizzle-orm';
import { notificationSettings, notifications, orders } from '../../../drizzle/schema';
import { API_ORDER_DIGEST } from '../../../vocabulary';
import type { Db } from '../../db';
import { formatNairaSql } from '../../lib/decimal';

/** The shop's customers count days in Lagos time; a constant, written into the SQL rather than passed as text. */
const SHOP_TIME_ZONE = sql.raw(`'Africa/Lagos'`);

/** The start of today in Lagos: a summary covers up to it, and one turned on today starts from it. */
export const startOfShopDay = sql`(date_trunc('day', now() at time zone ${SHOP_TIME_ZONE}) at time zone ${SHOP_TIME_ZONE})`;

const naira = (kobo: string) => sql.raw(formatNairaSql(kobo));

/**
 * Cron: for each user with the summary on whose last one is older than today, one statement takes the days since then
 * up to today's midnight, counts the API orders that closed in them and writes the summary, moving the settings row on
 * to today's midnight. A user whose API orders closed nowhere in those days is moved on with nothing written: no summary
 * when there is nothing to tell. Rows another run holds are skipped; that run tells them.
 */
export async function writeApiOrderDigests(db: Db): Promise<{ written: number }> {
  const written = await db.execute(sql`
    with due as (
      select user_id, api_digest_through as since from ${notificationSettings}
      where api_order_digest and api_digest_through < ${startOfShopDay}
      for update skip locked
    ), advanced as (
      update ${notificationSettings} s set api_digest_through = ${startOfShopDay}
      from due
      where s.user_id = due.user_id
      returning s.user_id, due.since, s.api_digest_through as through
    ), closed as (
      select a.user_id, a.since, a.through,
        count(*) filter (where o.status = 'Completed') as completed,
        count(*) filter (where o.status = 'Partial') as partial,
        sum(o.refunded_kobo) filter (where o.status = 'Partial') as partial_refunded,
        count(*) filter (where o.status = 'Canceled') as canceled,
        sum(o.refunded_kobo) filter (where o.status = 'Canceled') as canceled_refunded
      from advanced a
      join ${orders} o on o.user_id = a.user_id and o.api_key_id is not null and o.status in ('Completed', 'Partial', 'Canceled')
        and o.completed_at >= a.since and o.completed_at < a.through
      group by a.user_id, a.since, a.through
    )
    insert into ${notifications} (user_id, kind, event_key, title, body, link)
    select user_id, ${API_ORDER_DIGEST}, user_id || ':' || ((through at time zone ${SHOP_TIME_ZONE})::date - 1),
      'Your orders through the API',
      -- Days the cron could not run are told together, and said so.
      case when since >= through - interval '1 day' then 'Yesterday'
        else 'From ' || to_char(since at time zone ${SHOP_TIME_ZONE}, 'FMDD Mon') || ' to yesterday' end
      || ' through the API: '
      || concat_ws(', ',
        case when completed > 0 then completed || ' completed' end,
        case when partial > 0 then partial || ' partly delivered'
          || case when partial_refunded > 0 then ' (' || ${naira('partial_refunded')} || ' refunded)' else '' end end,
        case when canceled > 0 then canceled || ' canceled'
          || case when canceled_refunded > 0 then ' (' || ${naira('canceled_refunded')} || ' refunded)' else '' end end)
      || '.',
      '/user/orders'
    from closed
    on conflict do nothing`);
  return { written: written.rowCount ?? 0 };
}
