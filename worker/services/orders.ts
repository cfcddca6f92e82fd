// Orders: checking an order against its service, charging the wallet and creating the order in
// one statement, submitting it to the provider after that statement, and closing it with the
// refund its final state owes, once. Also the user's lists, refill and cancel, and the figures
// other areas read (committed money, the admin user-detail orders).
//
// Submission rule. `add` is sent only by the process that claimed the order (submission
// 'sending'): the placing statement claims the order it creates for the request that sends it at
// once; any other sender claims a queued one atomically (queued -> sending). So two processes never
// send the same order. Then:
//   - the provider answers an order id: accepted;
//   - it refuses for lack of balance: back to queued (held; retried by the sync, refunded after a day);
//   - it refuses for any other reason: canceled and refunded at once;
//   - no readable answer (timeout, network, 5xx, garbage): 'unknown'. The order may exist at the
//     provider and the protocol cannot look orders up by link, so it is never sent again
//     automatically: an administrator checks the provider's panel and either links the provider's
//     order id or confirms it is not there (then it is resent or canceled with a refund).
//   A claim left in 'sending' (the process died mid-call) is treated as unknown after a while.
import { and, desc, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { PgSelect } from 'drizzle-orm/pg-core';
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
import { applyLedgerEntry, INSUFFICIENT_BALANCE, ledgerEntrySteps } from './ledger';
import { recordWarning, recordWarningOnce } from './margin';
import { getProvider, providerClient, type ProviderRow } from './providers';

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

/**
 * What an order is planned with: planOrder reads nothing else of the service, and the placing
 * statement checks every one of these is still the same (unchangedSince).
 */
const orderableColumns = {
  id: services.id, name: services.name, type: services.type, platform: serviceCategories.platform, providerId: services.providerId,
  providerServiceId: services.providerServiceId, rateKobo: services.rateKobo, costKobo: services.costKobo, min: services.min, max: services.max,
  dripfeed: services.dripfeed,
};
type OrderableService = { [Key in keyof typeof orderableColumns]: (typeof orderableColumns)[Key]['_']['data'] };

interface OrderPlan {
  service: OrderableService;
  link: string;
  quantity: number;
  deliverable: number;
  providerFields: ProviderFields;
  chargeKobo: bigint;
  costKobo: bigint;
}

const serviceIdOf = (serviceId: number | string): number | null =>
  typeof serviceId === 'number' ? serviceId : /^\d{1,9}$/.test(serviceId) ? Number(serviceId) : null;

/** Joins a query on services to the category and provider an order checks (platform; both on sale). */
const withCategoryAndProvider = <TQuery extends PgSelect>(query: TQuery) => query
  .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
  .innerJoin(providers, eq(providers.id, services.providerId));
const onSale = (serviceId: number) => and(eq(services.id, serviceId), eq(services.enabled, true), eq(providers.enabled, true));

/** The service still has every value the order was planned with, and is on sale. */
function unchangedSince(service: OrderableService): SQL {
  const sameValues = Object.entries(orderableColumns).map(([key, column]) => eq(column, service[key as keyof OrderableService]));
  return and(onSale(service.id), ...sameValues)!;
}

/**
 * Orderable services this isolate read lately. An order is planned with the copy here and the
 * placing statement re-checks every value it was planned with, so the usual order needs no read
 * of its own: a copy that is out of date costs a read and a retry, never a wrong charge, and an
 * order the copy would refuse is judged again on a fresh read.
 */
const recentlyRead = new Map<number, OrderableService>();
const RECENTLY_READ_LIMIT = 1000;

async function readOrderableService(db: DbOrTx, id: number | null): Promise<OrderableService> {
  const [row] = id === null ? [] : await withCategoryAndProvider(db.select(orderableColumns).from(services).$dynamic()).where(onSale(id));
  if (!row) {
    if (id !== null) recentlyRead.delete(id);
    throw invalid(SERVICE_UNAVAILABLE);
  }
  if (recentlyRead.size >= RECENTLY_READ_LIMIT) recentlyRead.delete(recentlyRead.keys().next().value!);
  recentlyRead.set(row.id, row);
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

/** The provider of an order being sent: what `add` needs, and what the outcome's messages name. */
type SubmissionProvider = Pick<ProviderRow, 'id' | 'name' | 'enabled' | 'apiUrl' | 'apiKeyEncrypted' | 'timeoutMs'>;

/** An order this process has claimed for `add` (submission 'sending'), with what the call needs. */
interface ClaimedOrder {
  id: number;
  providerServiceId: string;
  extras: ProviderFields;
  provider: SubmissionProvider;
}

interface NewOrder {
  id: number;
  /** Set when the order was claimed for submission as it was placed. */
  claimed: ClaimedOrder | null;
  serviceRefill: boolean;
  serviceCancel: boolean;
}

type PaidOrder = { created: false; id: number } | ({ created: true } & NewOrder);

interface PlacingOptions {
  idempotencyKey?: string;
  /** Claim the new order for `add` in the placing statement, for a caller that sends it at once. */
  claimForSubmission: boolean;
}

type Placement =
  | { outcome: 'placed earlier'; order: Pick<OrderRow, 'id' | 'serviceId' | 'link'> }
  | { outcome: 'service changed' }
  | { outcome: 'placed'; order: NewOrder };

/** The placing statement's one row; every column is null when its part did not happen. */
type PlacingRow = {
  earlier_id: number | null;
  earlier_service_id: number | null;
  earlier_link: string | null;
  service_refill: boolean | null;
  service_cancel: boolean | null;
  provider_name: string | null;
  provider_api_url: string | null;
  provider_api_key_encrypted: string | null;
  provider_timeout_ms: number | null;
  order_id: number | null;
};

async function findByKey(db: DbOrTx, userId: number, idempotencyKey: string): Promise<OrderRow | undefined> {
  const [row] = await db.select().from(orders).where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
  return row;
}

/** The order a key placed earlier, if the request is the same one again. */
function earlierOrder(earlier: Pick<OrderRow, 'id' | 'serviceId' | 'link'>, input: Pick<CreateOrderData, 'serviceId' | 'link'>): PaidOrder {
  const sameService = String(earlier.serviceId) === String(input.serviceId).trim();
  const sameLink = !input.link || earlier.link === normalizeLink(input.link);
  if (!sameService || !sameLink) throw conflict('This Idempotency-Key was already used for a different order');
  return { created: false, id: earlier.id };
}

/**
 * The placing statement: one round trip, atomic without a transaction. It looks for the order the
 * Idempotency-Key placed earlier; failing that, if the service is on sale with every value the
 * order was planned with, it debits the wallet through the ledger's conditional update, inserts
 * the order (already claimed for submission, if asked) only when the money moved, and writes the
 * ledger row naming it. Too little balance writes nothing. When a request with the same key
 * commits first, this one's order insert fails on the unique index, which undoes the whole
 * statement, debit included, and that request's order is the answer.
 */
async function chargeAndInsertOrder(db: Db, userId: number, plan: OrderPlan, options: PlacingOptions): Promise<Placement> {
  const { service } = plan;
  const claim = options.claimForSubmission;
  const earlier = db.select({ id: orders.id, serviceId: orders.serviceId, link: orders.link }).from(orders)
    .where(options.idempotencyKey ? and(eq(orders.userId, userId), eq(orders.idempotencyKey, options.idempotencyKey)) : sql`false`);
  const onSaleAsPlanned = withCategoryAndProvider(db.select({
    serviceRefill: sql`${services.refill}`.as('service_refill'),
    serviceCancel: sql`${services.cancel}`.as('service_cancel'),
    providerName: sql`${providers.name}`.as('provider_name'),
    providerApiUrl: sql`${providers.apiUrl}`.as('provider_api_url'),
    providerApiKeyEncrypted: sql`${providers.apiKeyEncrypted}`.as('provider_api_key_encrypted'),
    providerTimeoutMs: sql`${providers.timeoutMs}`.as('provider_timeout_ms'),
  }).from(services).$dynamic()).where(unchangedSince(service));
  const debit = ledgerEntrySteps({
    userId,
    direction: 'debit',
    amountKobo: plan.chargeKobo,
    source: 'order',
    sourceRef: sql`placed.id::text`,
    description: sql`'Order #' || placed.id || ${`: ${service.name} × ${plan.deliverable.toLocaleString('en-US')}`}`,
    alongside: sql`placed`,
    onlyIf: sql`exists (select 1 from on_sale) and not exists (select 1 from earlier)`,
  });
  let row: PlacingRow;
  try {
    [row] = (await db.execute<PlacingRow>(sql`
      with earlier as (${earlier}),
      on_sale as (${onSaleAsPlanned}),
      ${debit.balance},
      placed as (
        insert into orders (user_id, service_id, provider_id, provider_service_id, service_name, link, quantity, deliverable, extras,
          rate_kobo, cost_kobo, charge_kobo, idempotency_key, submission, submit_attempts, submission_started_at)
        select ${userId}, ${service.id}, ${service.providerId}, ${service.providerServiceId}, ${service.name}, ${plan.link}, ${plan.quantity},
          ${plan.deliverable}, ${JSON.stringify(plan.providerFields)}::jsonb, ${service.rateKobo}, ${plan.costKobo}, ${plan.chargeKobo},
          ${options.idempotencyKey ?? null}, ${claim ? 'sending' : 'queued'}, ${claim ? 1 : 0}, ${claim ? sql`now()` : sql`null`}
        from ledger_balance
        returning id
      ),
      ${debit.row}
      select earlier.id as earlier_id, earlier.service_id as earlier_service_id, earlier.link as earlier_link, on_sale.*, placed.id as order_id
      from (values (true)) as statement (ran)
        left join earlier on true
        left join on_sale on true
        left join placed on true`)).rows;
  } catch (error) {
    if (!options.idempotencyKey || !isUniqueViolation(error, 'orders_user_idempotency_key')) throw error;
    return { outcome: 'placed earlier', order: (await findByKey(db, userId, options.idempotencyKey))! };
  }
  if (row.earlier_id !== null) return { outcome: 'placed earlier', order: { id: row.earlier_id, serviceId: row.earlier_service_id!, link: row.earlier_link! } };
  if (row.provider_name === null) return { outcome: 'service changed' };
  if (row.order_id === null) throw invalid(INSUFFICIENT_BALANCE);
  const provider: SubmissionProvider = {
    id: service.providerId, name: row.provider_name, enabled: true, apiUrl: row.provider_api_url!, apiKeyEncrypted: row.provider_api_key_encrypted!, timeoutMs: row.provider_timeout_ms!,
  };
  return {
    outcome: 'placed',
    order: {
      id: row.order_id,
      claimed: claim ? { id: row.order_id, providerServiceId: service.providerServiceId, extras: plan.providerFields, provider } : null,
      serviceRefill: row.service_refill!,
      serviceCancel: row.service_cancel!,
    },
  };
}

/**
 * Checks the order against its service and places it, paid, with one statement. A retry with an
 * Idempotency-Key gets the order the key placed earlier, even one that would be refused now (its
 * service since disabled, say). The order is planned with the service as this isolate last read
 * it (recentlyRead); when that copy refuses the order or turns out to be out of date, the
 * service is read again and the order planned again.
 */
async function createPaidOrder(db: Db, userId: number, input: CreateOrderData, options: PlacingOptions): Promise<PaidOrder> {
  const id = serviceIdOf(input.serviceId);
  let service = id === null ? undefined : recentlyRead.get(id);
  // Three rounds cover a refusing copy, then a service an administrator changes while the order is placed.
  for (let round = 0; round < 3; round += 1) {
    const fresh = service === undefined;
    let plan: OrderPlan;
    try {
      service ??= await readOrderableService(db, id);
      plan = planOrder(service, input);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (!fresh) {
        service = undefined;
        continue;
      }
      const earlier = options.idempotencyKey ? await findByKey(db, userId, options.idempotencyKey) : undefined;
      if (earlier) return earlierOrder(earlier, input);
      throw error;
    }
    const placement = await chargeAndInsertOrder(db, userId, plan, options);
    if (placement.outcome === 'placed earlier') return earlierOrder(placement.order, input);
    if (placement.outcome === 'placed') return { created: true, ...placement.order };
    service = undefined;
  }
  throw new AppError('unavailable', 'The service changed while your order was being placed. Please try again.');
}

/**
 * POST user/orders: the placing statement (which claims the order), `add`, and the statement
 * recording its answer, which also reads the order back for the answer. `created` is false when
 * the idempotency key named an earlier order.
 */
export async function placeOrder(db: Db, env: OrderEnv, userId: number, input: CreateOrderData, idempotencyKey?: string): Promise<{ order: OrderView; created: boolean }> {
  const paid = await createPaidOrder(db, userId, input, { idempotencyKey, claimForSubmission: true });
  if (!paid.created) return { order: await getOrderView(db, userId, paid.id), created: false };
  const accepted = await sendClaimedOrder(db, env, paid.claimed!);
  // A refill needs a delivered order, so an order accepted a moment ago has none open.
  const order = accepted
    ? toOrderView({ order: accepted, serviceRefill: paid.serviceRefill, serviceCancel: paid.serviceCancel, openRefill: false })
    : await getOrderView(db, userId, paid.id);
  return { order, created: true };
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
 * key, line n uses "<key>:<n>", so a retried batch places nothing twice. Lines are placed queued,
 * not claimed: an order left unsent (the request ended early) is then retried by the sync
 * instead of waiting for an administrator as an unknown submission.
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
      const paid = await createPaidOrder(db, userId, { serviceId: line.serviceId, link: line.link, quantity: line.quantity }, { idempotencyKey: lineKey, claimForSubmission: false });
      if (paid.created) toSubmit.push(paid.id);
      results.push({ line: line.line, ok: true, orderId: paid.id });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ line: line.line, ok: false, error: error.message });
    }
  }
  await forEachLimited(toSubmit, 4, (id) => submitOrder(db, env, id));
  return results;
}

// ---------------------------------------------------------------- submitting

/** Sends a queued order to its provider (see the submission rule at the top), after claiming it. */
export async function submitOrder(db: Db, env: OrderEnv, orderId: number): Promise<void> {
  const [claimed] = await db
    .update(orders)
    .set({ submission: 'sending', submitAttempts: sql`${orders.submitAttempts} + 1`, submissionStartedAt: new Date(), updatedAt: new Date() })
    .from(providers)
    .where(and(eq(orders.id, orderId), eq(orders.submission, 'queued'), eq(orders.status, 'Pending Submission'), eq(providers.id, orders.providerId)))
    .returning({
      id: orders.id, providerServiceId: orders.providerServiceId, extras: orders.extras,
      providerId: providers.id, providerName: providers.name, providerEnabled: providers.enabled,
      providerApiUrl: providers.apiUrl, providerApiKeyEncrypted: providers.apiKeyEncrypted, providerTimeoutMs: providers.timeoutMs,
    });
  if (!claimed) return;
  await sendClaimedOrder(db, env, {
    id: claimed.id,
    providerServiceId: claimed.providerServiceId,
    extras: claimed.extras as ProviderFields,
    provider: {
      id: claimed.providerId, name: claimed.providerName, enabled: claimed.providerEnabled,
      apiUrl: claimed.providerApiUrl, apiKeyEncrypted: claimed.providerApiKeyEncrypted, timeoutMs: claimed.providerTimeoutMs,
    },
  });
}

/**
 * Calls `add` for an order this process claimed and records the answer. Never throws for a
 * provider failure: the outcome is recorded on the order. Returns the order when the provider
 * accepted it (read back by the statement recording that), else null.
 */
async function sendClaimedOrder(db: Db, env: OrderEnv, claimed: ClaimedOrder): Promise<OrderRow | null> {
  const { id: orderId, provider } = claimed;
  // An administrator may close the order while `add` is in flight; nothing then reopens it.
  const stillSending = and(eq(orders.id, orderId), eq(orders.submission, 'sending'), eq(orders.status, 'Pending Submission'));
  const hold = (reason: string) =>
    db.update(orders).set({ submission: 'queued', submissionError: reason, statusReason: 'Waiting for the provider to accept orders again', updatedAt: new Date() }).where(stillSending);

  if (!provider.enabled) {
    await hold('The provider is disabled');
    return null;
  }
  let providerOrderId: string;
  try {
    const client = await providerClient(env, provider);
    ({ orderId: providerOrderId } = await client.add({ service: claimed.providerServiceId, ...claimed.extras }));
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
    return null;
  }
  try {
    const [accepted] = await db.update(orders)
      .set({ submission: 'accepted', providerOrderId, status: 'Pending', submittedAt: new Date(), submissionError: null, statusReason: null, updatedAt: new Date() })
      .where(stillSending)
      .returning();
    if (!accepted) {
      await recordWarning(db, {
        kind: 'submission_unknown', providerId: provider.id, orderId,
        message: `Order #${orderId} was closed while being sent, but ${provider.name} accepted it as order ${providerOrderId}: cancel it there.`,
      });
    }
    return accepted ?? null;
  } catch (error) {
    // The provider order exists; if it cannot be recorded, the sweep turns the claim into 'unknown' for an administrator.
    if (!isUniqueViolation(error, 'orders_provider_order_key')) throw error;
    await db.update(orders).set({ submission: 'unknown', submissionError: `The provider answered order id ${providerOrderId}, which another order already has` }).where(stillSending);
    return null;
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
