// Orders as their owners and the other areas read them: the view the SPA and the reseller API
// show (with what the order allows now: refill, cancel), the user's list, and the figures other
// areas read (committed money, the admin user-detail orders).
import { and, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { orderRefills, orders, services } from '../../../drizzle/schema';
import { OPEN_ORDER_STATUSES, type OrderStatus, type PendingRequest } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import { notFound } from '../../lib/errors';
import { type CappedTotal, cappedCountQuery, cappedTotal, pageIdsQuery } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import type { ListOrdersQuery } from '../../schemas/orders';
import { refillDeadline } from '../catalogue';
import type { ProviderFields } from './order-plan';

export type OrderRow = typeof orders.$inferSelect;

const FINISHED_WITH_DELIVERY = ['Completed', 'Partial'] as const satisfies readonly OrderStatus[];
const OPEN_REFILL_STATUSES = ['Requesting', 'Pending', 'In progress'] as const;
/** How a refill can end: what the order's card keeps of its latest one once the provider has answered it. */
const FINISHED_REFILL_STATUSES = ['Completed', 'Rejected', 'Canceled'] as const;
type FinishedRefillStatus = (typeof FINISHED_REFILL_STATUSES)[number];

/** The order's latest refill as the view row reads it (json_build_object: `at` is the refill's updated_at as text). */
export interface LastRefill {
  status: string;
  error: string | null;
  at: string;
}
/** Refills an order has used against its service's cap: all but those the provider refused. */
export const refillsUsedBy = (orderId: SQL | number) =>
  sql`(select count(*) from ${orderRefills} where ${orderRefills.orderId} = ${orderId} and ${orderRefills.status} <> 'Rejected')`;
const refillsUsed = refillsUsedBy(sql`${orders.id}`);

export const orderViewColumns = {
  order: orders,
  serviceRefill: services.refill,
  serviceCancel: services.cancel,
  serviceRefillDays: services.refillDays,
  refillsLeft: sql<number>`greatest(0, ${services.maxRefills} - ${refillsUsed})::int`,
  openRefill: sql<boolean>`exists (select 1 from ${orderRefills} where ${orderRefills.orderId} = ${orders.id} and ${orderRefills.status} in ${OPEN_REFILL_STATUSES})`,
  // The order's latest refill, read in the same statement as the order (order_refills_order_idx): no query of its own.
  lastRefill: sql<LastRefill | null>`(
    select json_build_object('status', ${orderRefills.status}, 'error', ${orderRefills.error}, 'at', ${orderRefills.updatedAt})
    from ${orderRefills} where ${orderRefills.orderId} = ${orders.id}
    order by ${orderRefills.createdAt} desc, ${orderRefills.id} desc limit 1)`,
};

export interface OrderViewRow {
  order: OrderRow;
  serviceRefill: boolean;
  serviceCancel: boolean;
  serviceRefillDays: number | null;
  /** How many more refills the service's cap allows this order. */
  refillsLeft: number;
  openRefill: boolean;
  /** The order's latest refill, if it has had one; a row built without reading refills (a just-placed order) has none. */
  lastRefill?: LastRefill | null;
}

export const isOpen = (status: OrderStatus) => (OPEN_ORDER_STATUSES as readonly string[]).includes(status);

/** Whether the order can be refilled now, and until when (null: no limit, or not refillable at all). */
export function refillability({ order, serviceRefill, serviceRefillDays }: OrderViewRow): { refillable: boolean; refillUntil: Date | null } {
  if (!serviceRefill || order.submission !== 'accepted' || !(FINISHED_WITH_DELIVERY as readonly string[]).includes(order.status))
    return { refillable: false, refillUntil: null };
  const refillUntil = refillDeadline(order.completedAt, serviceRefillDays);
  return { refillable: refillUntil === null || Date.now() < refillUntil.getTime(), refillUntil };
}

/**
 * A refill or cancel forwarded to the provider and not yet answered. The provider answers a cancel by closing the order
 * (Canceled or Partial as asked, Completed if it went on regardless) and a refill by ending or refusing it, so both read
 * off facts the view row already has: no query of their own.
 */
export function pendingRequestOf({ order, openRefill }: Pick<OrderViewRow, 'order' | 'openRefill'>): PendingRequest | null {
  if (order.cancelRequestedAt !== null && isOpen(order.status)) return 'Cancel requested';
  return openRefill ? 'Refill requested' : null;
}

/**
 * How long an administrator takes to settle an order whose submission is unknown (find it in the provider's panel, then link,
 * resend or refund it): the time its customer is told to expect an answer by.
 */
const UNKNOWN_SUBMISSION_SETTLED_WITHIN_MS = 24 * 60 * 60_000;

/** When the customer can expect to hear whether the provider has the order; null unless that is what the order waits for. */
function confirmationExpectedBy(order: OrderRow): string | null {
  if (order.submission !== 'unknown' || order.status !== 'Pending Submission') return null;
  // updatedAt is when the submission became unknown: nothing else writes an unknown order until a person settles it.
  return new Date(order.updatedAt.getTime() + UNKNOWN_SUBMISSION_SETTLED_WITHIN_MS).toISOString();
}

/** How the order's latest refill ended, once it has: an open one shows as `pendingRequest` instead. */
function refillOutcomeOf({ lastRefill }: Pick<OrderViewRow, 'lastRefill'>): { status: FinishedRefillStatus; reason: string | null; at: string } | null {
  if (!lastRefill || !(FINISHED_REFILL_STATUSES as readonly string[]).includes(lastRefill.status)) return null;
  return { status: lastRefill.status as FinishedRefillStatus, reason: lastRefill.error, at: new Date(lastRefill.at).toISOString() };
}

export function toOrderView(row: OrderViewRow) {
  const { order, serviceCancel, openRefill } = row;
  const extras = order.extras as ProviderFields;
  const { refillable, refillUntil } = refillability(row);
  const pendingRequest = pendingRequestOf(row);
  const refillOutcome = refillOutcomeOf(row);
  return {
    id: order.id,
    serviceId: order.serviceId,
    serviceName: order.serviceName,
    link: order.link,
    /** Per run for a drip-feed, per post for a subscription: `total` is what the charge pays for. */
    quantity: order.quantity,
    runs: extras.runs ?? null,
    interval: extras.interval ?? null,
    /** The posts a subscription covers (future and old), each of `quantity`. */
    posts: extras.posts === undefined ? null : Math.floor(order.deliverable / order.quantity),
    total: order.deliverable,
    /** Of `total`, as the provider last said; null until it says. */
    delivered: order.remains === null ? null : Math.max(order.deliverable - Math.max(order.remains, 0), 0),
    confirmationExpectedBy: confirmationExpectedBy(order),
    charge: koboToNaira(order.chargeKobo),
    startCount: order.startCount,
    remains: order.remains,
    status: order.status,
    statusReason: order.statusReason,
    refunded: koboToNaira(order.refundedKobo),
    canRefill: refillable && !openRefill && row.refillsLeft > 0,
    /** The end of the service's refill window for this order (ISO), when it has one. */
    refillUntil: refillUntil?.toISOString() ?? null,
    canCancel:
      isOpen(order.status) && (order.submission === 'queued' || (order.submission === 'accepted' && serviceCancel && order.cancelRequestedAt === null)),
    // Only while one waits, as the reseller API's `request`: clients that pinned the view's fields see nothing new otherwise.
    ...(pendingRequest ? { pendingRequest } : {}),
    // Likewise only once a refill has ended (the reseller API's status answers are built from protocol fields, not this view).
    ...(refillOutcome ? { refillOutcome } : {}),
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
  };
}
export type OrderView = ReturnType<typeof toOrderView>;

export function ordersWithService(db: DbOrTx) {
  return db.select(orderViewColumns).from(orders).innerJoin(services, eq(services.id, orders.serviceId));
}

/** An order as its owner sees it; another user's order is simply not found. */
export async function getOrderView(db: DbOrTx, userId: number | null, orderId: number): Promise<OrderView> {
  const [row] = await ordersWithService(db).where(and(eq(orders.id, orderId), userId === null ? undefined : eq(orders.userId, userId)));
  if (!row) throw notFound('Order not found');
  return toOrderView(row);
}

/** Several of one user's orders in one query (the reseller API's status of up to 100); ids that are not theirs are left out. */
export async function getOrderRows(db: DbOrTx, userId: number, orderIds: readonly number[]): Promise<OrderViewRow[]> {
  if (orderIds.length === 0) return [];
  return ordersWithService(db).where(and(eq(orders.userId, userId), inArray(orders.id, [...orderIds])));
}

/**
 * Search by link (trigram-indexed ILIKE) or, for a number, by order id; "#102" is order 102 and no other (what a
 * ticket's "View order" opens), as a bare number also finds the links that contain it.
 */
export function orderSearch(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const exactId = /^#(\d{1,9})$/.exec(search);
  if (exactId) return eq(orders.id, Number(exactId[1]));
  const byLink = ilike(orders.link, containsPattern(search));
  return /^\d{1,9}$/.test(search) ? or(byLink, eq(orders.id, Number(search))) : byLink;
}

/**
 * The ids of one page of the orders `where` matches, newest first, read from the orders alone: the list's statement joins
 * only these to their service (and user, provider, refills), never every match before the sort.
 */
export const orderPageIds = (db: DbOrTx, where: SQL | undefined, page: { page: number; limit: number }) =>
  pageIdsQuery(db, orders.id, where, [desc(orders.createdAt), desc(orders.id)], page);

/** One page of the user's orders, newest first, and its capped total, in one round trip. */
export async function listUserOrders(db: Db, userId: number, query: ListOrdersQuery): Promise<{ data: OrderView[] } & CappedTotal> {
  const where = and(eq(orders.userId, userId), query.status ? eq(orders.status, query.status) : undefined, orderSearch(query.search));
  const [rows, counted] = await db.batch([
    db
      .select(orderViewColumns)
      .from(orders)
      .innerJoin(services, eq(services.id, orders.serviceId))
      .where(inArray(orders.id, orderPageIds(db, where, query)))
      .orderBy(desc(orders.createdAt), desc(orders.id)),
    cappedCountQuery(db, orders, where),
  ]);
  return { data: rows.map(toOrderView), ...cappedTotal(counted) };
}

/** The money held by the user's open orders (charges not yet finished): the spec's smmBalance. */
export async function committedKobo(db: DbOrTx, userId: number): Promise<bigint> {
  const [row] = await db
    .select({ total: sql<string>`coalesce(sum(${orders.chargeKobo} - ${orders.refundedKobo}), 0)` })
    .from(orders)
    .where(and(eq(orders.userId, userId), inArray(orders.status, OPEN_ORDER_STATUSES)));
  return BigInt(row.total);
}

/** The orders of the admin user-detail screen (spec section 3), newest first. */
export async function ordersForUserDetail(db: DbOrTx, userId: number, limit = 100) {
  const rows = await db
    .select({
      id: orders.id,
      serviceName: orders.serviceName,
      link: orders.link,
      quantity: orders.quantity,
      chargeKobo: orders.chargeKobo,
      status: orders.status,
      createdAt: orders.createdAt,
    })
    .from(orders)
    .where(eq(orders.userId, userId))
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(limit);
  return rows.map((row) => ({
    id: row.id,
    productTitle: row.serviceName,
    productLink: row.link,
    quantity: row.quantity,
    price: koboToNaira(row.chargeKobo),
    smmStatus: { status: row.status },
    created_at: row.createdAt.toISOString(),
    orderDate: row.createdAt.toISOString(),
  }));
}
