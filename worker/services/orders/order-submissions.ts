// How a placed order reaches its provider without anyone waiting for the provider. Placing writes
// the order paid and 'queued' and puts its id on the submissions queue (a Cloudflare Queue); this
// Worker's `queue` handler consumes it with submitOrder, which claims the order first (queued ->
// sending), so a message delivered twice sends `add` once. A lost message (the send failed, the
// consumer died before claiming) leaves the order queued, and the cron's sweep queues it again.
import { z } from 'zod';
import { openDatabase } from '../../db';
import type { Env } from '../../env';
import { log } from '../../lib/log';
import { submitOrder } from './order-sending';
import type { OrderEnv } from './orders';

const submissionMessage = z.object({ orderId: z.number().int().positive() });

/** Cloudflare Queues' limit on messages per sendBatch. */
const SEND_BATCH_LIMIT = 100;

/** How long a message whose submission hit our own trouble (the database, say) waits before its retry. */
const RETRY_DELAY_SECONDS = 15;

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Puts orders on the submissions queue. Never throws: an order left off it stays queued for the sweep. */
export async function queueSubmissions(env: Pick<OrderEnv, 'ORDER_SUBMISSIONS'>, orderIds: readonly number[]): Promise<void> {
  try {
    for (let start = 0; start < orderIds.length; start += SEND_BATCH_LIMIT) {
      await env.ORDER_SUBMISSIONS.sendBatch(orderIds.slice(start, start + SEND_BATCH_LIMIT).map((orderId) => ({ body: { orderId } })));
    }
  } catch (error) {
    log.error('order submissions not queued; the sweep will queue them', { orderIds, error: errorText(error) });
  }
}

/** The queue's consumer: each message submits its order; a message we cannot read is dropped, not retried forever. */
export async function consumeSubmissions(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // As a request's: the claims and records are one-shot statements over HTTP; a Pool opens only for a transaction.
  const { db, close } = openDatabase(env);
  try {
    await Promise.all(
      batch.messages.map(async (message) => {
        const parsed = submissionMessage.safeParse(message.body);
        if (!parsed.success) {
          log.error('unreadable order submission message dropped', { body: message.body });
          message.ack();
          return;
        }
        try {
          await submitOrder(db, env, parsed.data.orderId);
          message.ack();
        } catch (error) {
          // submitOrder records every provider outcome itself; what reaches here is our own trouble.
          log.error('order submission failed; retrying', { orderId: parsed.data.orderId, error: errorText(error) });
          message.retry({ delaySeconds: RETRY_DELAY_SECONDS });
        }
      }),
    );
  } finally {
    await close();
  }
}
