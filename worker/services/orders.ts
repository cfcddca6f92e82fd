// Orders: checking an order against its service, charging the wallet and creating the order in
// one transaction, submitting it to the provider outside that transaction, and closing it with
// the refund its final state owes, once. Also the user's lists, refill and cancel, and the
// figures other areas read (committed money, the admin user-detail orders).
//
// Submission rule. `add` is sent only for an order whose submission is 'queued', after an atomic
// claim (queued -> sending), so two processes never send the same order. Then:
//   - the provider answers an order id: accepted;
//   - it refuses for lack of balance: back to queued (held; retried by the sync, refunded after a day);
//   - it refuses for any other reason: canceled and refunded at once;
//   - no readable answer (timeout, network, 5xx, garbage): 'unknown'. The order may exist at the
//     provider and the protocol cannot look orders up by link, so it is never sent again
//     automatically: an administrator checks the provider's panel and either links the provider's
//     order id or confirms it is not there (then it is resent or canceled with a refund).
//   A claim left in 'sending' (the process died mid-call) is treated as unknown after a while.
import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import { orderRefills, orders, providers, serviceCategories, services } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import type { Env } from '../env';
import { ceilDiv, koboToNaira } from '../lib/decimal';
import { isUniqueViolation } from '../lib/db-errors';
import { AppError, conflict, invalid, notFound } from '../lib/errors';
import { SmmProviderError, type SmmAddOrderInput } from '../providers/smm/types';
import {
  LINK_INVALID, LINK_REQUIRED, OPEN_ORDER_STATUSES, parseMassOrderLines, QUANTITY_INVALID, SERVICE_UNAVAILABLE,
  type CreateOrderData, type ListOrdersQuery, type OrderStatus,
} from '../schemas/orders';
import { PLATFORMS } from './catalogue';
import { applyLedgerEntry } from './ledger';
import { recordWarning, recordWarningOnce } from './margin';
import { getProvider, providerClient } from './providers';

export type OrderEnv = Pick<Env, 'ENCRYPTION_KEY'>;
type OrderRow = typeof orders.$inferSelect;
/** What is sent to the provider's `add` besides the service id. */
type ProviderFields = Omit<SmmAddOrderInput, 'service'>;

const FINISHED_WITH_DELIVERY = ['Completed', 'Partial'] as const satisfies readonly OrderStatus[];
const OPEN_REFILL_STATUSES = ['Requesting', 'Pending', 'In progress'] as const;
/** Refusals that mean "not now" rather than "never": the order is held and retried. */
const HOLD_REFUSAL = /funds|balance/i;
const MAX_DELIVERABLE = 2_147_483_647;

// ---------------------------------------------------------------- checking an order against its service

type ExtraField = 'comments' | 'username' | 'usernames' | 'hashtags' | 'hashtag' | 'media' | 'answerNumber';

interface TypeRule {
  /** Where the quantity comes from: the input, the number of comment or username lines, packages, or a subscription's max × posts. */
  quantity: 'input' | 'comments' | 'usernames' | 'package' | 'subscription';
  required: ExtraField[];
}

/** The SMM panel protocol's service types; unknown types are treated as Default. */
const TYPE_RULES: Record<string, TypeRule> = {
  'default': { quantity: 'input', required: [] },
  'package': { quantity: 'package', required: [] },
  'custom comments': { quantity: 'comments', required: ['comments'] },
  'custom comments package': { quantity: 'package', required: ['comments'] },
  'mentions': { quantity: 'input', required: ['usernames'] },
  'mentions with hashtags': { quantity: 'input', required: ['usernames', 'hashtags'] },
  'mentions custom list': { quantity: 'usernames', required: ['usernames'] },
  'mentions hashtag': { quantity: 'input', required: ['hashtag'] },
  'mentions user followers': { quantity: 'input', required: ['username'] },
  'mentions media likers': { quantity: 'input', required: ['media'] },
  'poll': { quantity: 'input', required: ['answerNumber'] },
  'comment likes': { quantity: 'input', required: ['username'] },
  'comment replies': { quantity: 'comments', required: ['username', 'comments'] },
  'subscriptions': { quantity: 'subscription', required: ['username'] },
};

const FIELD_NAMES: Record<ExtraField, string> = {
  comments: 'Comments', username: 'Username', usernames: 'Usernames', hashtags: 'Hashtags', hashtag: 'Hashtag', media: 'Media', answerNumber: 'Answer number',
};

/** Delays (minutes) panels accept for subscriptions. */
const SUBSCRIPTION_DELAYS = [0, 5, 10, 15, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 360, 420, 480, 540, 600];

interface OrderableService {
  id: number;
  name: string;
  type: string;
  platform: string;
  providerId: number;
  providerServiceId: string;
  rateKobo: bigint;
  costKobo: bigint;
  min: number;
  max: number;
  dripfeed: boolean;
}

interface OrderPlan {
  service: OrderableService;
  link: string;
  quantity: number;
  deliverable: number;
  providerFields: ProviderFields;
  chargeKobo: bigint;
  costKobo: bigint;
}

async function orderableService(db: DbOrTx, serviceId: number | string): Promise<OrderableService> {
  const id = typeof serviceId === 'number' ? serviceId : /^\d{1,9}$/.test(serviceId) ? Number(serviceId) : null;
  const [row] = id === null ? [] : await db
    .select({
      id: services.id, name: services.name, type: services.type, platform: serviceCategories.platform, providerId: services.providerId,
      providerServiceId: services.providerServiceId, rateKobo: services.rateKobo, costKobo: services.costKobo, min: services.min, max: services.max,
      dripfeed: services.dripfeed,
    })
    .from(services)
    .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
    .innerJoin(providers, eq(providers.id, services.providerId))
    .where(and(eq(services.id, id), eq(services.enabled, true), eq(providers.enabled, true)));
  if (!row) throw invalid(SERVICE_UNAVAILABLE);
  return row;
}

const lines = (text: string | undefined) => (text ?? '').split(/\r?\n/).map((line) => line.trim()).filter((line) => line !== '');

/** Users paste links without the scheme; a bare host gets https://. */
function normalizeLink(link: string): string {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(link) ? link : `https://${link}`;
}

function checkLink(raw: string | undefined, platform: string): string {
  if (!raw) throw invalid(LINK_REQUIRED);
  const link = normalizeLink(raw);
  const url = URL.parse(link);
  if (!url || !['http:', 'https:'].includes(url.protocol) || !url.hostname.includes('.')) throw invalid(LINK_INVALID);
  const hosts = PLATFORMS.find((candidate) => candidate.name === platform)?.hosts;
  const host = url.hostname.toLowerCase();
  if (hosts && !hosts.some((allowed) => host === allowed || host.endsWith(`.${allowed}`))) {
    throw invalid(`This service needs ${/^[AEIOU]/.test(platform) ? 'an' : 'a'} ${platform} link`);
  }
  return link;
}

function checkRange(quantity: number, service: OrderableService, name = 'quantity'): void {
  if (quantity < service.min) throw invalid(`Minimum ${name} is ${service.min.toLocaleString('en-US')}`);
  if (quantity > service.max) throw invalid(`Maximum ${name} is ${service.max.toLocaleString('en-US')}`);
}

/** Validates an order against its service and prices it: ceil(rate × units / 1000) kobo, rate being per 1000 (per package for packages). */
function planOrder(service: OrderableService, input: CreateOrderData): OrderPlan {
  const rule = TYPE_RULES[service.type.trim().toLowerCase()] ?? TYPE_RULES.default;
  for (const field of rule.required) {
    if (!input[field]) throw invalid(`${FIELD_NAMES[field]} is required`);
  }
  if (input.answerNumber !== undefined && !/^\d{1,9}$/.test(input.answerNumber)) throw invalid('Answer number must be a whole number');
  const fields: ProviderFields = {
    comments: input.comments, username: input.username, usernames: input.usernames, hashtags: input.hashtags, hashtag: input.hashtag,
    media: input.media, answerNumber: input.answerNumber === undefined ? undefined : Number(input.answerNumber),
  };

  let link: string;
  let quantity: number;
  let deliverable: number;
  /** Units the rate (per 1000) applies to. */
  let billedUnits: number;
  if (rule.quantity === 'subscription') {
    if (input.min === undefined) throw invalid('min is required for subscriptions');
    if (input.max === undefined) throw invalid('max is required for subscriptions');
    if (input.min > input.max) throw invalid('min cannot be more than max');
    checkRange(input.min, service, 'min');
    checkRange(input.max, service, 'max');
    // Subscriptions are paid up front for every post they may cover (future and old), so the count must be bounded.
    if (!input.posts) throw invalid('posts is required for subscriptions (how many future posts)');
    const delay = input.delay ?? 0;
    if (!SUBSCRIPTION_DELAYS.includes(delay)) throw invalid(`delay must be one of ${SUBSCRIPTION_DELAYS.join(', ')} minutes`);
    if (input.expiry !== undefined && !/^\d{2}\/\d{2}\/\d{4}$/.test(input.expiry)) throw invalid('expiry must be a date as dd/mm/yyyy');
    Object.assign(fields, { min: input.min, max: input.max, posts: input.posts, oldPosts: input.oldPosts, delay, expiry: input.expiry });
    link = input.link ? checkLink(input.link, service.platform) : `@${input.username}`;
    quantity = input.max;
    deliverable = input.max * (input.posts + (input.oldPosts ?? 0));
    billedUnits = deliverable;
  } else {
    link = checkLink(input.link, service.platform);
    fields.link = link;
    if (rule.quantity === 'comments' || rule.quantity === 'usernames') {
      quantity = lines(input[rule.quantity]).length;
      checkRange(quantity, service);
      billedUnits = quantity;
    } else if (rule.quantity === 'package') {
      quantity = input.quantity ?? 1;
      checkRange(quantity, service);
      billedUnits = quantity * 1000;
    } else {
      if (input.quantity === undefined) throw invalid(QUANTITY_INVALID);
      quantity = input.quantity;
      checkRange(quantity, service);
      fields.quantity = quantity;
      billedUnits = quantity;
    }
    deliverable = quantity;
    if (input.runs !== undefined || input.interval !== undefined) {
      if (!service.dripfeed) throw invalid('Drip-feed is not available for this service');
      if (rule.quantity !== 'input') throw invalid('Drip-feed is only available for services ordered by quantity');
      if (input.runs === undefined) throw invalid('Runs are required for drip-feed');
      if (input.interval === undefined) throw invalid('Interval is required for drip-feed');
      Object.assign(fields, { runs: input.runs, interval: input.interval });
      deliverable = quantity * input.runs;
      billedUnits = deliverable;
    }
  }
  if (deliverable > MAX_DELIVERABLE) throw invalid('This order is too large');
  return {
    service,
    link,
    quantity,
    deliverable,
    providerFields: Object.fromEntries(Object.entries(fields).filter(([, value]) => value !== undefined)) as ProviderFields,
    chargeKobo: ceilDiv(service.rateKobo * BigInt(billedUnits), 1000n),
    costKobo: ceilDiv(service.costKobo * BigInt(billedUnits), 1000n),
  };
}

// ---------------------------------------------------------------- views

export const orderViewColumns = {
  order: orders,
  serviceRefill: services.refill,
  serviceCancel: services.cancel,
  openRefill: sql<boolean>`exists (select 1 from ${orderRefills} where ${orderRefills.orderId} = ${orders.id} and ${orderRefills.status} in ${OPEN_REFILL_STATUSES})`,
};

export interface OrderViewRow {
  order: OrderRow;
  serviceRefill: boolean;
  serviceCancel: boolean;
  openRefill: boolean;
}

const isOpen = (status: OrderStatus) => (OPEN_ORDER_STATUSES as readonly string[]).includes(status);

export function toOrderView({ order, serviceRefill, serviceCancel, openRefill }: OrderViewRow) {
  const extras = order.extras as ProviderFields;
  return {
    id: order.id,
    serviceId: order.serviceId,
    serviceName: order.serviceName,
    link: order.link,
    quantity: order.quantity,
    runs: extras.runs ?? null,
    interval: extras.interval ?? null,
    charge: koboToNaira(order.chargeKobo),
    startCount: order.startCount,
    remains: order.remains,
    status: order.status,
    statusReason: order.statusReason,
    refunded: koboToNaira(order.refundedKobo),
    canRefill: serviceRefill && order.submission === 'accepted' && (FINISHED_WITH_DELIVERY as readonly string[]).includes(order.status) && !openRefill,
    canCancel: isOpen(order.status) && (
      (order.submission === 'queued') || (order.submission === 'accepted' && serviceCancel && order.cancelRequestedAt === null)
    ),
    created_at: order.createdAt.toISOString(),
    updated_at: order.updatedAt.toISOString(),
  };
}
export type OrderView = ReturnType<typeof toOrderView>;

function ordersWithService(db: DbOrTx) {
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

/** Search by link (trigram-indexed ILIKE) or, for a number, by order id. */
export function orderSearch(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const byLink = ilike(orders.link, `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`);
  return /^\d{1,9}$/.test(search) ? or(byLink, eq(orders.id, Number(search))) : byLink;
}

export async function listUserOrders(db: Db, userId: number, query: ListOrdersQuery): Promise<{ data: OrderView[]; total: number }> {
  const where = and(eq(orders.userId, userId), query.status ? eq(orders.status, query.status) : undefined, orderSearch(query.search));
  const rows = await db
    .select({ ...orderViewColumns, total: sql<number>`count(*) over()`.mapWith(Number) })
    .from(orders).innerJoin(services, eq(services.id, orders.serviceId))
    .where(where)
    .orderBy(desc(orders.createdAt), desc(orders.id))
    .limit(query.limit).offset((query.page - 1) * query.limit);
  const total = rows[0]?.total ?? (query.page > 1 ? (await db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(orders).where(where))[0].total : 0);
  return { data: rows.map(toOrderView), total };
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
    .select({ id: orders.id, serviceName: orders.serviceName, link: orders.link, quantity: orders.quantity, chargeKobo: orders.chargeKobo, status: orders.status, createdAt: orders.createdAt })
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

// ---------------------------------------------------------------- placing

async function findByKey(db: DbOrTx, userId: number, idempotencyKey: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
  return row;
}

function checkSameRequest(existing: OrderRow, input: Pick<CreateOrderData, 'serviceId' | 'link'>): void {
  const sameService = String(existing.serviceId) === String(input.serviceId).trim();
  const sameLink = !input.link || existing.link === normalizeLink(input.link);
  if (!sameService || !sameLink) throw conflict('This Idempotency-Key was already used for a different order');
}

/**
 * Debits the wallet and creates the order in one transaction. With an idempotency key, a
 * concurrent or earlier request with the same key wins the unique index and this returns its order.
 */
async function createPaidOrder(db: Db, userId: number, input: CreateOrderData, idempotencyKey?: string): Promise<{ id: number; created: boolean }> {
  if (idempotencyKey) {
    const existing = await findByKey(db, userId, idempotencyKey);
    if (existing) {
      checkSameRequest(existing, input);
      return { id: existing.id, created: false };
    }
  }
  const plan = planOrder(await orderableService(db, input.serviceId), input);
  const createdId = await db.transaction(async (tx) => {
    const [row] = await tx
      .insert(orders)
      .values({
        userId,
        serviceId: plan.service.id,
        providerId: plan.service.providerId,
        providerServiceId: plan.service.providerServiceId,
        serviceName: plan.service.name,
        link: plan.link,
        quantity: plan.quantity,
        deliverable: plan.deliverable,
        extras: plan.providerFields,
        rateKobo: plan.service.rateKobo,
        costKobo: plan.costKobo,
        chargeKobo: plan.chargeKobo,
        idempotencyKey: idempotencyKey ?? null,
      })
      .onConflictDoNothing({ target: [orders.userId, orders.idempotencyKey] })
      .returning({ id: orders.id });
    if (!row) return null;
    await applyLedgerEntry(tx, {
      userId,
      direction: 'debit',
      amountKobo: plan.chargeKobo,
      source: 'order',
      sourceRef: String(row.id),
      description: `Order #${row.id}: ${plan.service.name} × ${plan.deliverable.toLocaleString('en-US')}`,
    });
    return row.id;
  });
  if (createdId !== null) return { id: createdId, created: true };
  const winner = await findByKey(db, userId, idempotencyKey!);
  checkSameRequest(winner!, input);
  return { id: winner!.id, created: false };
}

/** POST user/orders: charge, then submit. `created` is false when the idempotency key named an earlier order. */
export async function placeOrder(db: Db, env: OrderEnv, userId: number, input: CreateOrderData, idempotencyKey?: string): Promise<{ order: OrderView; created: boolean }> {
  const { id, created } = await createPaidOrder(db, userId, input, idempotencyKey);
  if (created) await submitOrder(db, env, id);
  return { order: await getOrderView(db, userId, id), created };
}

export interface MassOrderResult {
  line: number;
  ok: boolean;
  orderId?: number;
  error?: string;
}

/** Runs `work` over items with at most `limit` at a time. */
async function forEachLimited<T>(items: T[], limit: number, work: (item: T) => Promise<unknown>): Promise<void> {
  let next = 0;
  const worker = async () => {
    while (next < items.length) await work(items[next++]);
  };
  await Promise.all(Array.from({ length: Math.min(limit, items.length) }, worker));
}

/**
 * POST user/mass-order: every line is charged in order (earlier lines get the balance first) and
 * answered on its own; the accepted ones are then submitted a few at a time. With an idempotency
 * key, line n uses "<key>:<n>", so a retried batch places nothing twice.
 */
export async function placeMassOrder(db: Db, env: OrderEnv, userId: number, text: string, idempotencyKey?: string): Promise<MassOrderResult[]> {
  const results: MassOrderResult[] = [];
  const toSubmit: number[] = [];
  for (const line of parseMassOrderLines(text)) {
    if (line.error) {
      results.push({ line: line.line, ok: false, error: line.error });
      continue;
    }
    try {
      const lineKey = idempotencyKey ? `${idempotencyKey}:${line.line}` : undefined;
      const { id, created } = await createPaidOrder(db, userId, { serviceId: line.serviceId, link: line.link, quantity: line.quantity }, lineKey);
      if (created) toSubmit.push(id);
      results.push({ line: line.line, ok: true, orderId: id });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ line: line.line, ok: false, error: error.message });
    }
  }
  await forEachLimited(toSubmit, 4, (id) => submitOrder(db, env, id));
  return results;
}

// ---------------------------------------------------------------- submitting

/**
 * Sends a queued order to its provider (see the submission rule at the top). Never throws for
 * a provider failure: the outcome is recorded on the order.
 */
export async function submitOrder(db: Db, env: OrderEnv, orderId: number): Promise<void> {
  const [claimed] = await db
    .update(orders)
    .set({ submission: 'sending', submitAttempts: sql`${orders.submitAttempts} + 1`, submissionStartedAt: new Date(), updatedAt: new Date() })
    .where(and(eq(orders.id, orderId), eq(orders.submission, 'queued'), eq(orders.status, 'Pending Submission')))
    .returning();
  if (!claimed) return;
  // An administrator may close the order while `add` is in flight; nothing then reopens it.
  const stillSending = and(eq(orders.id, orderId), eq(orders.submission, 'sending'), eq(orders.status, 'Pending Submission'));
  const hold = (reason: string) =>
    db.update(orders).set({ submission: 'queued', submissionError: reason, statusReason: 'Waiting for the provider to accept orders again', updatedAt: new Date() }).where(stillSending);

  const provider = await getProvider(db, claimed.providerId);
  if (!provider.enabled) {
    await hold('The provider is disabled');
    return;
  }
  let providerOrderId: string;
  try {
    const client = await providerClient(env, provider);
    ({ orderId: providerOrderId } = await client.add({ service: claimed.providerServiceId, ...(claimed.extras as ProviderFields) }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof SmmProviderError && error.kind === 'rejected' && HOLD_REFUSAL.test(message)) {
      await hold(message);
      await recordWarningOnce(db, { kind: 'provider_low_balance', providerId: provider.id, message: `${provider.name} refused an order for lack of balance: ${message}. Orders are held until it is topped up.` });
    } else if (error instanceof SmmProviderError && error.kind === 'rejected') {
      await db.transaction((tx) => closeOrder(tx, orderId, {
        status: 'Canceled',
        reason: `The provider refused the order: ${message}`,
        from: ['Pending Submission'],
        where: eq(orders.submission, 'sending'),
        set: { submission: 'rejected', submissionError: message },
      }));
    } else {
      await db.update(orders).set({ submission: 'unknown', submissionError: message, updatedAt: new Date() }).where(stillSending);
      await recordWarning(db, {
        kind: 'submission_unknown',
        providerId: provider.id,
        orderId,
        message: `Order #${orderId}: ${provider.name} did not confirm it (${message}). Look for it in the provider's panel, then link its id or resend it.`,
      });
    }
    return;
  }
  try {
    const accepted = await db.update(orders)
      .set({ submission: 'accepted', providerOrderId, status: 'Pending', submittedAt: new Date(), submissionError: null, statusReason: null, updatedAt: new Date() })
      .where(stillSending)
      .returning({ id: orders.id });
    if (accepted.length === 0) {
      await recordWarning(db, {
        kind: 'submission_unknown', providerId: provider.id, orderId,
        message: `Order #${orderId} was closed while being sent, but ${provider.name} accepted it as order ${providerOrderId}: cancel it there.`,
      });
    }
  } catch (error) {
    // The provider order exists; if it cannot be recorded, the sweep turns the claim into 'unknown' for an administrator.
    if (!isUniqueViolation(error, 'orders_provider_order_key')) throw error;
    await db.update(orders).set({ submission: 'unknown', submissionError: `The provider answered order id ${providerOrderId}, which another order already has` }).where(stillSending);
  }
}

// ---------------------------------------------------------------- closing, with the refund

export interface Closing {
  status: 'Completed' | 'Partial' | 'Canceled';
  /** Undelivered units; required for Partial (negative, over-delivered, counts as 0). */
  remains?: number | null;
  startCount?: number | null;
  reason?: string | null;
  /** The statuses the order may close from: the guard that makes its refund happen once. */
  from: readonly OrderStatus[];
  where?: SQL;
  set?: Partial<typeof orders.$inferInsert>;
}

/**
 * Moves an order to a final state and pays back what that state owes: Canceled the whole
 * charge, Partial floor(charge × remains / deliverable), Completed nothing. The conditional
 * update lets one caller win however many run at once, and the ledger's unique
 * (order_refund, order id) makes a second refund impossible even so. Runs in the caller's transaction.
 */
export async function closeOrder(tx: DbOrTx, orderId: number, closing: Closing): Promise<{ userId: number; refundedKobo: bigint } | null> {
  const remains = closing.remains ?? null;
  const refund = closing.status === 'Canceled'
    ? sql`${orders.chargeKobo}`
    : closing.status === 'Partial'
      ? sql`${orders.chargeKobo} * least(greatest(${remains}::int, 0), ${orders.deliverable}) / ${orders.deliverable}`
      : sql`0`;
  const [closed] = await tx
    .update(orders)
    .set({
      ...closing.set,
      status: closing.status,
      remains: remains === null ? undefined : Math.max(remains, 0),
      startCount: closing.startCount ?? undefined,
      statusReason: closing.reason ?? undefined,
      refundedKobo: refund,
      completedAt: new Date(),
      lastSyncedAt: new Date(),
      updatedAt: new Date(),
    })
    .where(and(eq(orders.id, orderId), inArray(orders.status, closing.from), closing.where))
    .returning({ userId: orders.userId, refundedKobo: orders.refundedKobo });
  if (!closed) return null;
  if (closed.refundedKobo > 0n) {
    await applyLedgerEntry(tx, {
      userId: closed.userId,
      direction: 'credit',
      amountKobo: closed.refundedKobo,
      source: 'order_refund',
      sourceRef: String(orderId),
      description: closing.status === 'Canceled' ? `Refund: order #${orderId} canceled` : `Refund: order #${orderId} partially delivered`,
    });
  }
  return closed;
}

// ---------------------------------------------------------------- refill and cancel

async function orderWithService(db: DbOrTx, orderId: number, userId: number | null): Promise<OrderViewRow> {
  const [row] = await ordersWithService(db).where(and(eq(orders.id, orderId), userId === null ? undefined : eq(orders.userId, userId)));
  if (!row) throw notFound('Order not found');
  return row;
}

/** Forwards a refill request for a delivered order; one open refill per order. */
export async function requestRefill(db: Db, env: OrderEnv, orderId: number, by: { userId: number | null; actorId: number }) {
  const row = await orderWithService(db, orderId, by.userId);
  if (!row.serviceRefill) throw invalid('Refill is not available for this service');
  if (row.order.submission !== 'accepted' || !(FINISHED_WITH_DELIVERY as readonly string[]).includes(row.order.status)) {
    throw invalid('Only completed or partial orders can be refilled');
  }
  let refillId: number;
  try {
    [{ id: refillId }] = await db.insert(orderRefills).values({ orderId, requestedBy: by.actorId }).returning({ id: orderRefills.id });
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

/**
 * A user's cancel: an order still queued (certainly not at the provider) is canceled and refunded
 * at once; one at the provider gets a cancel request, and the refund follows when the sync sees it canceled.
 */
export async function cancelOrder(db: Db, env: OrderEnv, userId: number, orderId: number): Promise<{ refunded: boolean }> {
  const row = await orderWithService(db, orderId, userId);
  if (row.order.submission === 'queued' && row.order.status === 'Pending Submission') {
    const closed = await db.transaction((tx) => closeOrder(tx, orderId, {
      status: 'Canceled', reason: 'Canceled by you before it reached the provider', from: ['Pending Submission'],
      where: eq(orders.submission, 'queued'), set: { submission: 'withdrawn' },
    }));
    if (closed) return { refunded: true };
  }
  // Lost a race with the submitter, or the order is at the provider: read it again.
  const current = await orderWithService(db, orderId, userId);
  if (!toOrderView(current).canCancel || current.order.submission !== 'accepted') throw invalid('This order cannot be canceled');
  await requestProviderCancel(db, env, current.order);
  return { refunded: false };
}

export async function requestProviderCancel(db: Db, env: OrderEnv, order: OrderRow): Promise<void> {
  const client = await providerClient(env, await getProvider(db, order.providerId));
  const answer = (await client.cancel([order.providerOrderId!])).get(order.providerOrderId!);
  if (!answer?.ok) throw invalid(`The provider refused to cancel this order${answer ? `: ${answer.error}` : ''}`);
  await db.update(orders).set({ cancelRequestedAt: new Date(), updatedAt: new Date() }).where(eq(orders.id, order.id));
}
