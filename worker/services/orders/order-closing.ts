// Closing an order in a final state with the refund that state owes (order-refunds.ts), once.
import { and, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { orders } from '../../../drizzle/schema';
import type { OrderStatus } from '../../../vocabulary';
import type { DbOrTx } from '../../db';
import { invalid } from '../../lib/errors';

import { applyLedgerEntry } from '../money';
import { notifyOrderClosed } from '../notifications';
import { type Delivery, type FinalStatus, refundOwed } from './order-refunds';

export interface Closing extends Delivery {
  status: FinalStatus;
  startCount?: number | null;
  reason?: string | null;
  /**
   * Whether `reason` replaces the one a cancel was requested with. A provider's answer to a requested cancel only confirms it, so
   * the requester's words (an administrator's reason) stay what the customer reads; a person closing it says why anew.
   */
  reasonReplacesRequest?: boolean;
  /** The statuses the order may close from: the guard that makes its refund happen once. */
  from: readonly OrderStatus[];
  where?: SQL;
  set?: Partial<typeof orders.$inferInsert>;
}

/**
 * A cancellation that says nothing of delivery keeps what the shop last saw delivered (the remains a status
 * sync recorded), rather than refunding in full what the provider may already have delivered. A provider
 * that says it charged nothing still means nothing was delivered.
 */
function withDeliverySeen(closing: Closing, seenRemains: number | null): Delivery {
  const saysNothing = closing.remains == null && closing.runsDone == null && closing.postsDone == null;
  if (closing.status !== 'Canceled' || !saysNothing || seenRemains === null || closing.chargeMicros === 0n) return closing;
  return { ...closing, remains: seenRemains };
}

/**
 * Moves an order to a final state and pays back what refundOwed says that state owes. The
 * conditional update lets one caller win however many run at once, and the ledger's unique
 * (order_refund, order id) makes a second refund impossible even so. A delivery the rule cannot
 * close on throws before anything changes. Runs in the caller's transaction.
 */
export async function closeOrder(tx: DbOrTx, orderId: number, closing: Closing): Promise<{ userId: number; refundedKobo: bigint } | null> {
  const [order] = await tx
    .select({
      chargeKobo: orders.chargeKobo,
      quantity: orders.quantity,
      deliverable: orders.deliverable,
      extras: orders.extras,
      seenRemains: orders.remains,
      requestReason: sql<string | null>`case when ${orders.cancelRequestedAt} is not null then ${orders.statusReason} end`,
    })
    .from(orders)
    .where(eq(orders.id, orderId));
  if (!order) return null;
  const outcome = refundOwed(order, closing.status, withDeliverySeen(closing, order.seenRemains));
  if (outcome.status === null) throw invalid(`Order #${orderId} cannot close as ${closing.status}: ${outcome.problem}`);
  const reason = order.requestReason !== null && !closing.reasonReplacesRequest ? order.requestReason : closing.reason;
  const [closed] = await tx
    .update(orders)
    .set({
      ...closing.set,
      status: outcome.status,
      remains: outcome.remains,
      startCount: closing.startCount ?? undefined,
      statusReason: reason ?? undefined,
      refundedKobo: outcome.refundKobo,
      completedAt: new Date(),
      lastSyncedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(orders.id, orderId), inArray(orders.status, closing.from), closing.where))
    .returning({
      userId: orders.userId,
      refundedKobo: orders.refundedKobo,
      serviceName: orders.serviceName,
      apiKeyId: orders.apiKeyId,
      statusReason: orders.statusReason,
    });
  if (!closed) return null;
  if (closed.refundedKobo > 0n) {
    await applyLedgerEntry(tx, {
      userId: closed.userId,
      direction: 'credit',
      amountKobo: closed.refundedKobo,
      source: 'order_refund',
      sourceRef: String(orderId),
      description: outcome.status === 'Canceled' ? `Refund: order #${orderId} canceled` : `Refund: order #${orderId} partially delivered`,
    });
  }
  await notifyOrderClosed(tx, {
    id: orderId,
    userId: closed.userId,
    serviceName: closed.serviceName,
    status: outcome.status,
    refundedKobo: closed.refundedKobo,
    // The reason the order now shows, whoever gave it and whenever: the customer is told what the order page says.
    reason: closed.statusReason,
    total: order.deliverable,
    undelivered: outcome.remains,
    placedThroughApi: closed.apiKeyId !== null,
  });
  return { userId: closed.userId, refundedKobo: closed.refundedKobo };
}
