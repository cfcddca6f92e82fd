// Getting webhook events to resellers. The migration's triggers write each event as a 'new' delivery in the
// statement that made it happen; the cron (dispatchWebhooks) then fixes its body, once, so every try is signed
// over the same bytes, and hands it to the webhook-deliveries queue, whose consumer posts it. A failed post comes
// back with growing delays until a day has passed since the event; then it is given up and the log says why.
import { eq, inArray, sql } from 'drizzle-orm';
import { z } from 'zod';
import { orders, webhookDeliveries, webhookEndpoints } from '../../../drizzle/schema';
import type { Db } from '../../db';
import type { Env } from '../../env';
import { decryptSecret } from '../../lib/crypto';
import { koboToNaira } from '../../lib/decimal';
import { type FetchImpl, globalFetch } from '../../providers/http';
import { postWebhook } from '../../providers/webhook-post';
import { queueConsumer } from '../../queue-consumer';
import { CURRENCY, protocolOrderFields } from './protocol-order';

/** Deliveries are tried for this long from their event, then given up. */
export const WEBHOOK_RETRY_WINDOW_MS = 24 * 60 * 60 * 1000;
/** Thirty seconds, doubling, at most two hours between tries: about twenty tries in the day. */
export const webhookRetryDelaySeconds = (attempt: number) => Math.min(30 * 2 ** Math.max(attempt - 1, 0), 7200);
/** Longer than the longest delay: a delivery still sending with neither a try nor a queueing for this long lost its message. */
const ORPHANED_AFTER = sql`interval '3 hours'`;
const DISPATCH_BATCH = 500;
/** How long the log keeps finished deliveries; the API page shows the latest 30 anyway. */
const KEPT_FOR = sql`interval '30 days'`;
/** The oldest rows looked at per run for forgetting: bounded work, and the oldest are always first in line. */
const FORGET_BATCH = 1000;
/** Cloudflare's limit on one sendBatch. */
const QUEUE_BATCH = 100;

export function deliveryBody(event: string, createdAt: Date, data: unknown): string {
  return JSON.stringify({ event, createdAt: createdAt.toISOString(), data });
}

export async function queueDeliveries(env: Env, ids: number[]): Promise<void> {
  for (let at = 0; at < ids.length; at += QUEUE_BATCH) {
    await env.WEBHOOK_DELIVERIES.sendBatch(ids.slice(at, at + QUEUE_BATCH).map((deliveryId) => ({ body: { deliveryId } })));
  }
}

const orderSubject = z.object({ order: z.number(), status: z.string() });
const refillSubject = z.object({ refill: z.number(), order: z.number(), status: z.string() });
const balanceSubject = z.object({ balance_kobo: z.string(), threshold_kobo: z.string() });
type Order = typeof orders.$inferSelect;

/** The event's data as the docs describe it; an order is sent with its protocol fields as they stand, under the status that changed. */
function eventData(event: string, subject: unknown, ordersById: Map<number, Order>): unknown {
  if (event === 'order.status') {
    const { order: id, status } = orderSubject.parse(subject);
    const order = ordersById.get(id);
    return { order: id, ...(order ? protocolOrderFields(order) : { currency: CURRENCY }), status };
  }
  if (event === 'refill.status') return refillSubject.parse(subject);
  if (event === 'balance.low') {
    const { balance_kobo, threshold_kobo } = balanceSubject.parse(subject);
    return { balance: koboToNaira(BigInt(balance_kobo)), threshold: koboToNaira(BigInt(threshold_kobo)), currency: CURRENCY };
  }
  return subject;
}

/**
 * Cron: new events get their bodies and go to the queue; deliveries whose queue message was lost go again, or are given up;
 * finished ones older than a month are forgotten.
 */
export async function dispatchWebhooks(db: Db, env: Env): Promise<{ queued: number; requeued: number; givenUp: number; forgotten: number }> {
  const fresh = await db
    .select({ id: webhookDeliveries.id, event: webhookDeliveries.event, subject: webhookDeliveries.subject, createdAt: webhookDeliveries.createdAt })
    .from(webhookDeliveries)
    .where(eq(webhookDeliveries.state, 'new'))
    .orderBy(webhookDeliveries.id)
    .limit(DISPATCH_BATCH);
  let queued: number[] = [];
  if (fresh.length > 0) {
    const orderIds = fresh.flatMap((d) => (d.event === 'order.status' ? [orderSubject.parse(d.subject).order] : []));
    const found = orderIds.length > 0 ? await db.select().from(orders).where(inArray(orders.id, orderIds)) : [];
    const ordersById = new Map(found.map((order) => [order.id, order]));
    const bodies = fresh.map((d) => ({ id: d.id, body: deliveryBody(d.event, d.createdAt, eventData(d.event, d.subject, ordersById)) }));
    // Conditional on 'new', so two crons at once queue each delivery once.
    const { rows } = await db.execute<{ id: string }>(sql`
      update ${webhookDeliveries} d set body = v.body, state = 'sending', queued_at = now()
      from jsonb_to_recordset(${JSON.stringify(bodies)}::jsonb) as v(id bigint, body text)
      where d.id = v.id and d.state = 'new'
      returning d.id`);
    queued = rows.map((row) => Number(row.id));
  }
  const givenUp = await db.execute(sql`
    update ${webhookDeliveries} set state = 'failed', error = coalesce(error || '; ', '') || 'given up: not delivered within a day'
    where state = 'sending' and created_at < now() - interval '24 hours' and greatest(queued_at, last_attempt_at) < now() - ${ORPHANED_AFTER}`);
  const { rows: lost } = await db.execute<{ id: string }>(sql`
    update ${webhookDeliveries} set queued_at = now()
    where state = 'sending' and greatest(queued_at, last_attempt_at) < now() - ${ORPHANED_AFTER}
    returning id`);
  const requeued = lost.map((row) => Number(row.id));
  await queueDeliveries(env, [...queued, ...requeued]);
  const forgotten = await db.execute(sql`
    delete from ${webhookDeliveries} where id in (
      select id from (select id, state, created_at from ${webhookDeliveries} order by id limit ${FORGET_BATCH}) oldest
      where state in ('delivered', 'failed') and created_at < now() - ${KEPT_FOR})`);
  return { queued: queued.length, requeued: requeued.length, givenUp: givenUp.rowCount ?? 0, forgotten: forgotten.rowCount ?? 0 };
}

/** One try of one delivery; says when to try again, if ever. */
export async function attemptDelivery(db: Db, env: Env, deliveryId: number, fetchImpl: FetchImpl = globalFetch): Promise<{ retryInSeconds: number | null }> {
  const [delivery] = await db
    .select({
      event: webhookDeliveries.event,
      body: webhookDeliveries.body,
      state: webhookDeliveries.state,
      attempts: webhookDeliveries.attempts,
      createdAt: webhookDeliveries.createdAt,
      url: webhookEndpoints.url,
      secretCiphertext: webhookEndpoints.secretCiphertext,
    })
    .from(webhookDeliveries)
    .innerJoin(webhookEndpoints, eq(webhookEndpoints.id, webhookDeliveries.endpointId))
    .where(eq(webhookDeliveries.id, deliveryId));
  // Delivered, given up, or its endpoint deleted: nothing more to do.
  if (delivery?.state !== 'sending' || delivery.body === null) return { retryInSeconds: null };
  const age = Date.now() - delivery.createdAt.getTime();
  const attempts = delivery.attempts + 1;
  if (age > WEBHOOK_RETRY_WINDOW_MS) {
    await db
      .update(webhookDeliveries)
      .set({ state: 'failed', error: sql`coalesce(${webhookDeliveries.error} || '; ', '') || 'given up: not delivered within a day'` })
      .where(eq(webhookDeliveries.id, deliveryId));
    return { retryInSeconds: null };
  }
  const secret = await decryptSecret(env.ENCRYPTION_KEY, delivery.secretCiphertext);
  const result = await postWebhook({ url: delivery.url, secret, body: delivery.body, event: delivery.event, deliveryId }, fetchImpl);
  const delay = webhookRetryDelaySeconds(attempts);
  const givingUp = !result.delivered && age + delay * 1000 > WEBHOOK_RETRY_WINDOW_MS;
  await db
    .update(webhookDeliveries)
    .set({
      attempts: sql`${webhookDeliveries.attempts} + 1`,
      lastAttemptAt: sql`now()`,
      responseStatus: result.status,
      error: result.delivered ? null : givingUp ? `${result.error}; given up after ${attempts} tries over a day` : result.error,
      state: result.delivered ? 'delivered' : givingUp ? 'failed' : 'sending',
      deliveredAt: result.delivered ? sql`now()` : null,
    })
    .where(eq(webhookDeliveries.id, deliveryId));
  return { retryInSeconds: result.delivered || givingUp ? null : delay };
}

const deliveryMessage = z.object({ deliveryId: z.number().int().positive() });

/** The queue's consumer for webhook-deliveries. */
export const consumeWebhookDeliveries = queueConsumer({
  what: 'webhook delivery',
  message: deliveryMessage,
  run: async (db, env, { deliveryId }) => {
    const { retryInSeconds } = await attemptDelivery(db, env, deliveryId);
    return retryInSeconds === null ? 'done' : { retryInSeconds };
  },
  // Our database not answering: the same try again later (the endpoint was not told anything we recorded).
  retryAfterError: webhookRetryDelaySeconds,
});
