// The administrators' order tools: the filtered list, and the actions that settle what the
// automatic rules leave to a person — resending or linking an order whose submission is unknown,
// canceling through the provider, refunding without it, setting a status by hand (its refund
// follows automatically), refills. Each money or status change writes its audit row in the same
// transaction, and applies only to the order as the administrator saw it.
import { and, desc, eq, gte, inArray, lt, or, sql } from 'drizzle-orm';
import { auditLog, orderRefills, orders, providers, services, users } from '../../../drizzle/schema';
import type { OrderStatus } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { isUniqueViolation } from '../../lib/db-errors';
import { koboToNaira } from '../../lib/decimal';
import { conflict, invalid, notFound } from '../../lib/errors';
import { cappedCountQuery, cappedTotal } from '../../lib/paging';
import type { AdminCancelInput, AdminOrderStatusInput, AdminOrdersQuery, AdminRefundWithoutProviderInput, CanceledBy } from '../../schemas/orders';
import { recordAudit } from '../oversight';
import { closeOrder } from './order-closing';
import { acceptedAs, submitOrder } from './order-sending';
import { isOpen, type OrderRow, type OrderViewRow, orderPageIds, orderSearch, orderViewColumns, toOrderView } from './order-views';
import { type OrderEnv, requestProviderCancel, requestRefill, WITHDRAWN_BY_CUSTOMER } from './orders';

const adminOrderColumns = {
  ...orderViewColumns,
  userEmail: users.email,
  userFullName: users.fullName,
  providerName: providers.name,
};

interface AdminOrderRow extends OrderViewRow {
  userEmail: string;
  userFullName: string;
  providerName: string;
}

function toAdminOrderView(row: AdminOrderRow) {
  const { order } = row;
  return {
    ...toOrderView(row),
    userId: order.userId,
    userEmail: row.userEmail,
    userFullName: row.userFullName,
    providerId: order.providerId,
    providerName: row.providerName,
    providerServiceId: order.providerServiceId,
    providerOrderId: order.providerOrderId,
    submission: order.submission,
    submissionError: order.submissionError,
    submitAttempts: order.submitAttempts,
    deliverable: order.deliverable,
    extras: order.extras,
    cost: koboToNaira(order.costKobo),
    rate: koboToNaira(order.rateKobo),
    cancelRequestedAt: order.cancelRequestedAt?.toISOString() ?? null,
    providerNote: order.providerNote,
    unreadableSyncs: order.unreadableSyncs,
    submittedAt: order.submittedAt?.toISOString() ?? null,
    completedAt: order.completedAt?.toISOString() ?? null,
  };
}

function adminOrders(db: Db) {
  return db
    .select(adminOrderColumns)
    .from(orders)
    .innerJoin(services, eq(services.id, orders.serviceId))
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(providers, eq(providers.id, orders.providerId));
}

export async function adminListOrders(db: Db, query: AdminOrdersQuery) {
  const where = and(
    query.status ? eq(orders.status, query.status) : undefined,
    query.userId ? eq(orders.userId, query.userId) : undefined,
    query.serviceId ? eq(orders.serviceId, query.serviceId) : undefined,
    query.providerId ? eq(orders.providerId, query.providerId) : undefined,
    query.submission ? eq(orders.submission, query.submission) : undefined,
    query.from ? gte(orders.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
    query.to ? lt(orders.createdAt, new Date(`${query.to}T00:00:00Z`)) : undefined,
    orderSearch(query.search),
  );
  const [rows, counted] = await db.batch([
    adminOrders(db)
      .where(inArray(orders.id, orderPageIds(db, where, query)))
      .orderBy(desc(orders.createdAt), desc(orders.id)),
    cappedCountQuery(db, orders, where),
  ]);
  return { data: rows.map(toAdminOrderView), ...cappedTotal(counted) };
}

/**
 * Who canceled a Canceled order. An administrator's cancel, refund or status change is in the
 * audit log (the latest one counts); without one, a cancel request sent to the provider was the
 * customer's, as was a withdrawal closed with the customer's reason; the shop withdraws an order
 * no provider took within a day; anything else the provider did.
 */
async function canceledBy(db: Db, order: OrderRow): Promise<CanceledBy | null> {
  if (order.status !== 'Canceled') return null;
  const [byAdministrator] = await db
    .select({ name: users.fullName })
    .from(auditLog)
    .leftJoin(users, eq(users.id, auditLog.actorId))
    .where(
      and(
        // Nothing about the order is older than the order: the bound keeps the read on the log's time index.
        gte(auditLog.createdAt, order.createdAt),
        eq(auditLog.targetType, 'order'),
        eq(auditLog.targetId, String(order.id)),
        or(
          inArray(auditLog.action, ['order.cancel', 'order.refund_without_provider']),
          and(eq(auditLog.action, 'order.status'), sql`${auditLog.details}->>'to' = 'Canceled'`),
        ),
      ),
    )
    .orderBy(desc(auditLog.id))
    .limit(1);
  if (byAdministrator) return { by: 'administrator', name: byAdministrator.name };
  if (order.cancelRequestedAt !== null || order.statusReason === WITHDRAWN_BY_CUSTOMER) return { by: 'customer' };
  return { by: order.submission === 'withdrawn' ? 'shop' : 'provider' };
}

export async function adminOrderDetail(db: Db, id: number) {
  const [row] = await adminOrders(db).where(eq(orders.id, id));
  if (!row) throw notFound('Order not found');
  const [refills, canceled] = await Promise.all([
    db.select().from(orderRefills).where(eq(orderRefills.orderId, id)).orderBy(desc(orderRefills.createdAt)),
    canceledBy(db, row.order),
  ]);
  return {
    ...toAdminOrderView(row),
    canceledBy: canceled,
    refills: refills.map((refill) => ({
      id: refill.id,
      providerRefillId: refill.providerRefillId,
      status: refill.status,
      error: refill.error,
      created_at: refill.createdAt.toISOString(),
      updated_at: refill.updatedAt.toISOString(),
    })),
  };
}

export type AdminOrderDetail = Awaited<ReturnType<typeof adminOrderDetail>>;

async function orderRow(db: Db, id: number): Promise<OrderRow> {
  const [order] = await db.select().from(orders).where(eq(orders.id, id));
  if (!order) throw notFound('Order not found');
  return order;
}

/**
 * Sends an order that is not at the provider. A held order is simply sent now; one whose
 * submission is unknown only on the administrator's word that the provider has no such order.
 */
export async function resendOrder(db: Db, env: OrderEnv, actorId: number, id: number, confirmNotAtProvider = false) {
  const order = await orderRow(db, id);
  if (order.status !== 'Pending Submission') throw invalid('Only orders not yet at the provider can be resent');
  if (order.submission === 'sending') throw conflict('This order is being sent right now');
  if (order.submission === 'unknown') {
    if (!confirmNotAtProvider) {
      throw invalid(
        'The provider may already have this order. Check its panel: link the order it has, or confirm it has none (confirmNotAtProvider) to resend.',
      );
    }
    // Interactive: the audit row follows only a requeue that matched the order as read.
    await db.transaction(async (tx) => {
      const [requeued] = await tx
        .update(orders)
        .set({ submission: 'queued', updatedAt: new Date() })
        .where(and(eq(orders.id, id), eq(orders.submission, 'unknown'), eq(orders.status, 'Pending Submission')))
        .returning({ id: orders.id });
      if (!requeued) throw conflict('The order changed meanwhile; reload it');
      await recordAudit(tx, {
        actorId,
        action: 'order.resend',
        target: { type: 'order', id },
        details: { confirmNotAtProvider: true, previousError: order.submissionError },
      });
    });
  } else {
    await recordAudit(db, { actorId, action: 'order.resend', target: { type: 'order', id }, details: { submission: order.submission } });
  }
  await submitOrder(db, env, id);
  return adminOrderDetail(db, id);
}

/** Ties an order whose submission is unknown to the order the administrator found at the provider; the sync then follows it. */
export async function linkProviderOrder(db: Db, actorId: number, id: number, providerOrderId: string) {
  try {
    // Interactive: the audit row follows only a link that matched the order as read.
    await db.transaction(async (tx) => {
      const [linked] = await tx
        .update(orders)
        .set(acceptedAs(providerOrderId))
        .where(and(eq(orders.id, id), eq(orders.submission, 'unknown'), eq(orders.status, 'Pending Submission')))
        .returning({ id: orders.id });
      if (!linked) throw invalid('Only an order whose submission is unknown can be linked to a provider order');
      await recordAudit(tx, { actorId, action: 'order.link', target: { type: 'order', id }, details: { providerOrderId } });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'orders_provider_order_key')) throw conflict(await providerOrderTaken(db, id, providerOrderId));
    throw error;
  }
  return adminOrderDetail(db, id);
}

/**
 * Names the order that already has the provider order id: a panel that answered `add` with the id of an
 * earlier order is how this happens, and the administrator needs both orders to sort it out.
 */
async function providerOrderTaken(db: Db, id: number, providerOrderId: string): Promise<string> {
  const [holder] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(
      and(eq(orders.providerOrderId, providerOrderId), sql`${orders.providerId} = (select ${orders.providerId} from ${orders} where ${orders.id} = ${id})`),
    );
  return holder
    ? `Order #${holder.id} already has provider order ${providerOrderId}. If the provider answered the same id for both orders, check both in its panel.`
    : 'Another order already has this provider order id';
}

const CHANGED_MEANWHILE = 'The order changed meanwhile; reload it';

/** The order as the administrator last saw it: acting on an older picture answers 409 instead of overwriting. */
function checkExpectedStatus(order: OrderRow, expectedStatus: OrderStatus | undefined) {
  if (expectedStatus !== undefined && expectedStatus !== order.status) throw conflict(CHANGED_MEANWHILE);
}

/** The guard of every admin change: the status and submission read are still the order's when it is written. */
const unchangedFrom = (order: OrderRow) => ({ from: [order.status], where: eq(orders.submission, order.submission) });

/** Canceling an order that never reached the provider also withdraws it from submission. */
const withdrawnIfNotSent = (order: OrderRow) =>
  order.submission === 'queued' || order.submission === 'unknown' ? { submission: 'withdrawn' as const } : undefined;

export type AdminCancelOutcome = 'refunded' | 'requested from the provider';

/**
 * An administrator's cancel, which matches the provider's: an order still queued with us is
 * canceled and refunded at once; one at the provider is only asked to cancel there, and the
 * refund follows when the sync reads the provider's Canceled or Partial (so a part delivered
 * meanwhile is not refunded). Anything else is left to "refund without the provider".
 */
export async function adminCancelOrder(
  db: Db,
  env: OrderEnv,
  actorId: number,
  id: number,
  input: AdminCancelInput,
): Promise<{ order: AdminOrderDetail; outcome: AdminCancelOutcome }> {
  const order = await orderRow(db, id);
  checkExpectedStatus(order, input.expectedStatus);
  if (!isOpen(order.status)) throw invalid('Only open orders can be canceled');
  const audit = (tx: DbOrTx, details: Record<string, unknown>) =>
    recordAudit(tx, {
      actorId,
      action: 'order.cancel',
      target: { type: 'order', id },
      details: { reason: input.reason ?? null, submission: order.submission, ...details },
    });

  if (order.submission === 'queued') {
    // Interactive: closeOrder refunds through the ledger only for a close it won, and the audit row records that refund.
    await db.transaction(async (tx) => {
      const closed = await closeOrder(tx, id, {
        status: 'Canceled',
        reason: input.reason ? `Canceled by an administrator: ${input.reason}` : 'Canceled by an administrator',
        ...unchangedFrom(order),
        set: withdrawnIfNotSent(order),
      });
      if (!closed) throw conflict(CHANGED_MEANWHILE);
      await audit(tx, { refundedKobo: String(closed.refundedKobo) });
    });
    return { order: await adminOrderDetail(db, id), outcome: 'refunded' };
  }
  if (order.submission !== 'accepted') {
    throw invalid(
      'The provider has not confirmed this order, so it cannot be asked to cancel it. Check its panel, then link or resend the order, or refund it without the provider.',
    );
  }
  if (order.cancelRequestedAt) throw invalid('The provider was already asked to cancel this order; the refund follows when it confirms');
  await requestProviderCancel(db, env, order, input.reason ? `${CANCEL_REQUESTED_BY_ADMINISTRATOR}: ${input.reason}` : CANCEL_REQUESTED_BY_ADMINISTRATOR);
  await audit(db, { providerOrderId: order.providerOrderId });
  return { order: await adminOrderDetail(db, id), outcome: 'requested from the provider' };
}

/** What the customer reads of an administrator's cancel forwarded to the provider, followed by the reason given. */
const CANCEL_REQUESTED_BY_ADMINISTRATOR = 'Cancel requested by an administrator';
/**
 * What the customer reads of a refund without the provider. The administrator's note says what was checked in the provider's
 * panel, words for colleagues: it goes to the audit log only, as the dialog says.
 */
export const REFUNDED_BY_THE_SHOP = 'Canceled and refunded by the shop';

/**
 * Closes an open order as Canceled with the full refund, without asking the provider: for what an
 * administrator has checked by hand (the provider has no such order, or canceled it outside the
 * API). The reason is required and goes to the audit log with the refund, never to the customer.
 */
export async function refundWithoutProvider(db: Db, actorId: number, id: number, input: AdminRefundWithoutProviderInput) {
  const order = await orderRow(db, id);
  checkExpectedStatus(order, input.expectedStatus);
  if (!isOpen(order.status)) throw invalid('This order is closed and its refund settled');
  if (order.submission === 'sending') throw conflict('This order is being sent to the provider right now; try again in a minute');
  // Interactive: closeOrder refunds through the ledger only for a close it won, and the audit row records that refund.
  await db.transaction(async (tx) => {
    const closed = await closeOrder(tx, id, {
      status: 'Canceled',
      reason: REFUNDED_BY_THE_SHOP,
      reasonReplacesRequest: true,
      ...unchangedFrom(order),
      set: withdrawnIfNotSent(order),
    });
    if (!closed) throw conflict(CHANGED_MEANWHILE);
    await recordAudit(tx, {
      actorId,
      action: 'order.refund_without_provider',
      target: { type: 'order', id },
      details: {
        reason: input.reason,
        refundedKobo: String(closed.refundedKobo),
        submission: order.submission,
        providerOrderId: order.providerOrderId,
        from: order.status,
      },
    });
  });
  return adminOrderDetail(db, id);
}

const STILL_MOVING: OrderStatus[] = ['Pending', 'In progress', 'Processing'];

/**
 * A status set by hand. Partial and Canceled refund automatically, and only once: an order that
 * has been refunded is closed for good. Completed may still become Partial or Canceled (nothing
 * was refunded yet); moving statuses apply only to orders the provider has. The change applies
 * only to the order as it was read, so a sync or user action in between makes it fail with 409.
 */
export async function setOrderStatus(db: Db, actorId: number, id: number, input: AdminOrderStatusInput) {
  const order = await orderRow(db, id);
  checkExpectedStatus(order, input.expectedStatus);
  if (order.status === 'Partial' || order.status === 'Canceled') throw invalid('This order is closed and its refund settled; its status cannot change');
  if (order.submission === 'sending') throw conflict('This order is being sent to the provider right now; try again in a minute');
  // Interactive: closes (with its refund) or moves the order as asked, and audits only a change that matched.
  await db.transaction(async (tx) => {
    let refundedKobo = 0n;
    if (input.status === 'Completed' || input.status === 'Partial' || input.status === 'Canceled') {
      if (input.status === 'Completed' && order.status === 'Completed') throw invalid('This order is already Completed');
      const closed = await closeOrder(tx, id, {
        status: input.status,
        remains: input.status === 'Completed' ? 0 : input.status === 'Partial' ? input.remains : order.deliverable,
        reason: input.reason ?? null,
        reasonReplacesRequest: input.reason !== undefined,
        ...unchangedFrom(order),
        set: withdrawnIfNotSent(order),
      });
      if (!closed) throw conflict(CHANGED_MEANWHILE);
      refundedKobo = closed.refundedKobo;
    } else {
      if (order.submission !== 'accepted') throw invalid('This order is not at the provider yet: resend it or link its provider order first');
      if (!STILL_MOVING.includes(order.status)) throw invalid('Only an open order can be set to a moving status');
      const [moved] = await tx
        .update(orders)
        .set({ status: input.status, statusReason: input.reason ?? null, updatedAt: new Date() })
        .where(and(eq(orders.id, id), eq(orders.status, order.status), eq(orders.submission, order.submission)))
        .returning({ id: orders.id });
      if (!moved) throw conflict(CHANGED_MEANWHILE);
    }
    await recordAudit(tx, {
      actorId,
      action: 'order.status',
      target: { type: 'order', id },
      details: { from: order.status, to: input.status, remains: input.remains ?? null, reason: input.reason ?? null, refundedKobo: String(refundedKobo) },
    });
  });
  return adminOrderDetail(db, id);
}

export async function adminRefillOrder(db: Db, env: OrderEnv, actorId: number, id: number) {
  const refill = await requestRefill(db, env, id, { userId: null, actorId });
  await recordAudit(db, { actorId, action: 'order.refill', target: { type: 'order', id }, details: refill });
  return refill;
}
