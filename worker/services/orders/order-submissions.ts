// How a placed order reaches its provider without anyone waiting for the provider. Placing writes
// the order paid and 'queued' and puts its id on the submissions queue (a Cloudflare Queue); this
// Worker's `queue` handler consumes it with submitOrder, which claims the order first (queued ->
// sending), so a message delivered twice sends `add` once. A lost message (the send failed, the
// consumer died before claiming) leaves the order queued, and the cron's sweep queues it again.
import { z } from 'zod';
import { log } from '../../lib/log';
import { queueConsumer } from '../../queue-consumer';
import { submitOrder } from './order-sending';
import type { OrderEnv } from './orders';

const submissionMessage = z.object({ orderId: z.number().int().positive() });

/** Cloudflare Queues' limit on messages per sendBatch. */
const SEND_BATCH_LIMIT = 100;

/** How long a message whose submission hit our own trouble (the database, say) waits before its retry. */
const RETRY_DELAY_SECONDS = 15;

/** Puts orders on the submissions queue. Never throws: an order left off it stays queued for the sweep. */
export async function queueSubmissions(env: Pick<OrderEnv, 'ORDER_SUBMISSIONS'>, orderIds: readonly number[]): Promise<void> {
  try {
    for (let start = 0; start < orderIds.length; start += SEND_BATCH_LIMIT) {
      await env.ORDER_SUBMISSIONS.sendBatch(orderIds.slice(start, start + SEND_BATCH_LIMIT).map((orderId) => ({ body: { orderId } })));
    }
  } catch (error) {
    log.error('order submissions not queued; the sweep will queue them', { orderIds, error: error instanceof Error ? error.message : String(error) });
  }
}

/** The queue's consumer: each message submits its order, the batch's orders at once (each is claimed before it is sent). */
export const consumeSubmissions = queueConsumer({
  what: 'order submission',
  message: submissionMessage,
  inParallel: true,
  run: async (db, env, { orderId }) => {
    // submitOrder records every provider outcome itself; only our own trouble throws.
    await submitOrder(db, env, orderId);
    return 'done';
  },
  retryAfterError: () => RETRY_DELAY_SECONDS,
});
