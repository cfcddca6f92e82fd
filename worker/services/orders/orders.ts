// What a user does with an order once placed: ask for a refill inside the service's window, or
// cancel it (at once while it is queued with us, through the provider once it has it). Placing is
// order-placing.ts, sending order-sending.ts, closing with the refund order-closing.ts, and
// reading order-views.ts.
import { and, eq, sql } from 'drizzle-orm';
import { orderRefills, orders, services } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { isUniqueViolation } from '../../lib/db-errors';
import { AppError, conflict, invalid, notFound } from '../../lib/errors';
import { type SmmItemResult, SmmProviderError } from '../../providers/smm/types';
import { getProvider, providerClient, refillPeriodEnded } from '../catalogue';

import { closeOrder } from './order-closing';
import { isOpen, type OrderRow, type OrderViewRow, ordersWithService, refillability, refillsUsedBy, toOrderView } from './order-views';

export type OrderEnv = Pick<Env, 'ENCRYPTION_KEY' | 'ORDER_SUBMISSIONS'>;

async function orderWithService(db: DbOrTx, orderId: number, userId: number | null): Promise<OrderViewRow> {
  const [row] = await ordersWithService(db).where(and(eq(orders.id, orderId), userId === null ? undefined : eq(orders.userId, userId)));
  if (!row) throw notFound('Order not found');
  return row;
}

export const REFILLS_USED_UP = 'This order has had every refill its service allows.';

/** Forwards a refill request for a delivered order inside its service's refill window and cap; one open refill per order. */
export async function requestRefill(db: Db, env: OrderEnv, orderId: number, by: { userId: number | null; actorId: number }) {
  const row = await orderWithService(db, orderId, by.userId);
  if (!row.serviceRefill) throw invalid('Refill is not available for this service');
  const { refillable, refillUntil } = refillability(row);
  if (refillUntil && !refillable) throw invalid(refillPeriodEnded(refillUntil, row.serviceRefillDays!));
  if (!refillable) throw invalid('Only completed or partial orders can be refilled');
  if (row.refillsLeft === 0) throw invalid(REFILLS_USED_UP);
  let refillId: number;
  try {
    // The cap is counted again as the row goes in: one open refill at a time (the unique index) makes the count exact.
    const [inserted] = await db
      .execute<{ id: number }>(sql`
      insert into ${orderRefills} (order_id, requested_by)
      select ${orderId}, ${by.actorId}
      where ${refillsUsedBy(orderId)}
        < (select ${services.maxRefills} from ${services} where ${services.id} = ${row.order.serviceId})
      returning id`)
      .then((result) => result.rows);
    if (!inserted) throw invalid(REFILLS_USED_UP);
    refillId = Number(inserted.id);
  } catch (error) {
    if (isUniqueViolation(error, 'order_refills_open_key')) throw conflict('A refill is already in progress for this order');
    throw error;
  }
  const client = await providerClient(env, await getProvider(db, row.order.providerId));
  try {
    const { refillId: providerRefillId } = await client.refill(row.order.providerOrderId!);
    await db.update(orderRefills).set({ providerRefillId, status: 'Pending', updatedAt: new Date() }).where(eq(orderRefills.id, refillId));
    return { refillId, status: 'Pending' as const };
  } catch (error) {
    if (error instanceof SmmProviderError && error.kind === 'rejected') {
      await db.update(orderRefills).set({ status: 'Rejected', error: error.message, updatedAt: new Date() }).where(eq(orderRefills.id, refillId));
      throw invalid(`The provider refused the refill: ${error.message}`);
    }
    // Nothing to keep: a refill asked twice is refused by the provider, never charged.
    await db.delete(orderRefills).where(eq(orderRefills.id, refillId));
    throw new AppError('unavailable', 'The provider did not answer. Please try again later.');
  }
}

/** Why an order its customer canceled before it reached the provider is closed; admin-orders.ts reads it as "canceled by the customer". */
export const WITHDRAWN_BY_CUSTOMER = 'Canceled on request before it reached the provider';

export const ALREADY_SENT =
  'This order has already been sent to the provider, so it can no longer be canceled at once. Once the provider has it, you can ask for a cancel if the service allows one.';

/**
 * A user's cancel: an order still queued with us (certainly not at the provider) is canceled,
 * withdrawn from submission and refunded at once, in one conditional update, so the queue's
 * consumer, which claims only queued orders, never sends it, and of a cancel and a claim at the
 * same moment exactly one wins. One the consumer has claimed is being sent: 409. One at the
 * provider gets a cancel request, and the refund follows when the sync sees it canceled.
 */
export async function cancelOrder(db: Db, env: OrderEnv, userId: number, orderId: number): Promise<{ refunded: boolean }> {
  let row = await orderWithService(db, orderId, userId);
  const queued = row.order.submission === 'queued' && row.order.status === 'Pending Submission';
  if (queued) {
    // Interactive: closeOrder refunds through the ledger only if its guarded close matched.
    const closed = await db.transaction((tx) =>
      closeOrder(tx, orderId, {
        status: 'Canceled',
        reason: WITHDRAWN_BY_CUSTOMER,
        from: ['Pending Submission'],
        where: eq(orders.submission, 'queued'),
        set: { submission: 'withdrawn' },
      }),
    );
    if (closed) return { refunded: true };
    // The consumer claimed it meanwhile: read it again.
    row = await orderWithService(db, orderId, userId);
  }
  const { order } = row;
  const beingSent = order.status === 'Pending Submission' && (order.submission === 'sending' || order.submission === 'unknown');
  const atProviderCancelable = toOrderView(row).canCancel && order.submission === 'accepted';
  // Closed meanwhile by someone else (an administrator, the day-old expiry) is no "already sent".
  if (beingSent || (queued && isOpen(order.status) && !atProviderCancelable)) throw conflict(ALREADY_SENT);
  if (!atProviderCancelable) throw invalid('This order cannot be canceled');
  await requestProviderCancel(db, env, order);
  return { refunded: false };
}

/**
 * Asks the provider to cancel an order it has; the refund follows when the sync reads the outcome. `reason` is what the
 * customer reads from now on, and still once the provider confirms (closeOrder keeps it); the customer's own cancel has none.
 */
export async function requestProviderCancel(db: Db, env: OrderEnv, order: OrderRow, reason: string | null = null): Promise<void> {
  const client = await providerClient(env, await getProvider(db, order.providerId));
  let answer: SmmItemResult<object> | undefined;
  try {
    answer = (await client.cancel([order.providerOrderId!])).get(order.providerOrderId!);
  } catch (error) {
    if (error instanceof SmmProviderError && error.kind === 'rejected') throw invalid(`The provider refused to cancel this order: ${error.message}`);
    throw new AppError('unavailable', 'The provider did not answer. Please try again later.');
  }
  if (!answer?.ok) throw invalid(`The provider refused to cancel this order${answer ? `: ${answer.error}` : ''}`);
  await db.update(orders).set({ cancelRequestedAt: new Date(), statusReason: reason, updatedAt: new Date() }).where(eq(orders.id, order.id));
}
