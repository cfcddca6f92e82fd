// Placing an order: checking it against its service (order-plan.ts), charging the wallet and
// creating the order in one statement, then putting it on the submissions queue. The provider is
// never waited for. An order sent with the charge its customer saw is placed only at that charge:
// prices move with the markup, provider costs and exchange rates, and nobody is charged a price
// they were not shown.
import { and, eq, getTableColumns, inArray, sql } from 'drizzle-orm';
import { orders, services } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import { isUniqueViolation } from '../lib/db-errors';
import { formatNaira, koboToNaira, nairaToKobo } from '../lib/decimal';
import { AppError, invalid } from '../lib/errors';
import { type CreateOrderData, type MassOrderLine, parseMassOrderLines, SERVICE_UNAVAILABLE } from '../schemas/orders';
import { ledgerEntrySteps, refusedDebit } from './ledger';
import {
  massLineChargeKobo,
  type OrderPlan,
  planOrder,
  readOrderableService,
  readOrderableServices,
  recentlyReadService,
  serviceIdOf,
  unchangedSince,
  withCategoryAndProvider,
} from './order-plan';
import { queueSubmissions } from './order-submissions';
import { getOrderView, type OrderRow, type OrderView, type OrderViewRow, toOrderView } from './order-views';
import type { OrderEnv } from './orders';

type PaidOrder =
  | { created: true; id: number; view: OrderViewRow }
  /** The Idempotency-Key named an order placed earlier. */
  | { created: false; id: number };

interface PlacingOptions {
  idempotencyKey?: string;
  /** The charge the customer saw: the order is placed at this charge or not at all. */
  expectedChargeKobo?: bigint;
}

/** A 409 for a price that moved since the customer saw it: nothing was placed, and `data` says what it costs now. */
class PriceChanged extends AppError {
  constructor(
    message: string,
    readonly data: Record<string, string>,
  ) {
    super('conflict', message, { code: 'price_changed' });
  }

  override toBody(requestId: string) {
    return { ...super.toBody(requestId), data: this.data };
  }
}

/** Money as the order form shows it: "NGN 4,046.17". */
const inNaira = (kobo: bigint) => formatNaira(kobo).replace('₦', 'NGN ');

const priceChanged = (shownKobo: bigint, nowKobo: bigint) =>
  new PriceChanged(`The price changed from ${inNaira(shownKobo)} to ${inNaira(nowKobo)}. Check the new price and confirm to place the order.`, {
    charge: koboToNaira(nowKobo),
  });

/** What an order asks the provider for: a request repeated under its Idempotency-Key must ask for the same. */
type OrderTerms = Pick<OrderRow, 'serviceId' | 'link' | 'quantity' | 'extras'>;
type EarlierOrder = Pick<OrderRow, 'id'> & OrderTerms;

type Placement = { outcome: 'placed earlier'; order: EarlierOrder } | { outcome: 'service changed' } | { outcome: 'placed'; view: OrderViewRow };

/**
 * The placing statement's one row; every column is null when its part did not happen. The order it
 * placed comes back whole (as `placed_<column>`), so the answer needs no second read.
 */
type PlacingRow = {
  earlier_id: number | null;
  earlier_service_id: number | null;
  earlier_link: string | null;
  earlier_quantity: number | null;
  earlier_extras: unknown;
  on_sale: boolean | null;
  service_refill: boolean | null;
  service_cancel: boolean | null;
  service_refill_days: number | null;
  placed_id: number | null;
} & Record<string, unknown>;

const ORDER_COLUMNS = Object.entries(getTableColumns(orders));
const placedColumns = sql.join(
  ORDER_COLUMNS.map(([, column]) => sql`placed.${sql.identifier(column.name)} as ${sql.identifier(`placed_${column.name}`)}`),
  sql`, `,
);

/** The placed order from the statement's raw columns, through each column's own mapping (bigint, timestamps, jsonb). */
function placedOrder(row: PlacingRow): OrderRow {
  return Object.fromEntries(
    ORDER_COLUMNS.map(([key, column]) => {
      const value = row[`placed_${column.name}`];
      return [key, value === null ? null : column.mapFromDriverValue(value)];
    }),
  ) as OrderRow;
}

async function findByKey(db: DbOrTx, userId: number, idempotencyKey: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
  return row;
}

export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for an order with different details. Use a new key for a new order.';

/** JSON with the keys of every object sorted: jsonb hands objects back in its own key order. */
const canonicalJson = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1))) : inner,
  );

/** A link without what varies in writing the same one: case, scheme, "www.", a trailing slash, a leading "@". */
const looseLink = (link: string) =>
  link
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '')
    .replace(/^@/, '');

/**
 * Whether a request repeats the one its key placed. A planned request must ask for exactly the
 * same: the link as stored, the quantity and every field sent to the provider. One the service
 * cannot take now (since disabled, say) is compared by what it says: the service, the quantity
 * if given, and a link to the same post or account (a username matches its profile link).
 */
function sameRequest(earlier: OrderTerms, asked: OrderPlan | CreateOrderData): boolean {
  if ('providerFields' in asked) {
    return (
      earlier.serviceId === asked.service.id &&
      earlier.link === asked.link &&
      earlier.quantity === asked.quantity &&
      canonicalJson(earlier.extras) === canonicalJson(asked.providerFields)
    );
  }
  const stored = looseLink(earlier.link);
  const given = asked.link === undefined ? undefined : looseLink(asked.link);
  return (
    String(earlier.serviceId) === String(asked.serviceId).trim() &&
    (asked.quantity === undefined || asked.quantity === earlier.quantity) &&
    (given === undefined || stored === given || stored.endsWith(`/${given}`) || stored.endsWith(`/@${given}`))
  );
}

/** The order a key placed earlier, if the request is the same one again; a different request under a used key is refused. */
function earlierOrder(earlier: EarlierOrder, asked: OrderPlan | CreateOrderData): PaidOrder {
  if (!sameRequest(earlier, asked)) throw new AppError('unprocessable', IDEMPOTENCY_KEY_REUSED);
  return { created: false, id: earlier.id };
}

/** A request that cannot be placed now is still answered with the order its key placed earlier, if any. */
async function earlierOrRefused(db: Db, userId: number, options: PlacingOptions, asked: OrderPlan | CreateOrderData, refusal: AppError): Promise<PaidOrder> {
  const earlier = options.idempotencyKey ? await findByKey(db, userId, options.idempotencyKey) : undefined;
  if (earlier) return earlierOrder(earlier, asked);
  throw refusal;
}

/**
 * The placing statement: one round trip, atomic without a transaction. It looks for the order the
 * Idempotency-Key placed earlier; failing that, if the service is on sale with every value the
 * order was planned with, it debits the wallet through the ledger's conditional update, inserts
 * the order (queued for submission) only when the money moved, and writes the
 * ledger row naming it. Too little balance writes nothing. When a request with the same key
 * commits first, this one's order insert fails on the unique index, which undoes the whole
 * statement, debit included, and that request's order is the answer.
 */
async function chargeAndInsertOrder(db: Db, userId: number, plan: OrderPlan, options: PlacingOptions): Promise<Placement> {
  const { service } = plan;
  const earlier = db
    .select({ id: orders.id, serviceId: orders.serviceId, link: orders.link, quantity: orders.quantity, extras: orders.extras })
    .from(orders)
    .where(options.idempotencyKey ? and(eq(orders.userId, userId), eq(orders.idempotencyKey, options.idempotencyKey)) : sql`false`);
  const onSaleAsPlanned = withCategoryAndProvider(
    db
      .select({
        onSale: sql`true`.as('on_sale'),
        refill: sql`${services.refill}`.as('service_refill'),
        cancel: sql`${services.cancel}`.as('service_cancel'),
        refillDays: sql`${services.refillDays}`.as('service_refill_days'),
      })
      .from(services)
      .$dynamic(),
  ).where(unchangedSince(service));
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
    [row] = (
      await db.execute<PlacingRow>(sql`
      with earlier as (${earlier}),
      on_sale as (${onSaleAsPlanned}),
      ${debit.balance},
      placed as (
        insert into orders (user_id, service_id, provider_id, provider_service_id, service_name, link, quantity, deliverable, extras,
          rate_kobo, cost_kobo, charge_kobo, idempotency_key)
        select ${userId}, ${service.id}, ${service.providerId}, ${service.providerServiceId}, ${service.name}, ${plan.link}, ${plan.quantity},
          ${plan.deliverable}, ${JSON.stringify(plan.providerFields)}::jsonb, ${service.rateKobo}, ${plan.costKobo}, ${plan.chargeKobo},
          ${options.idempotencyKey ?? null}
        from ledger_balance
        returning *
      ),
      ${debit.row}
      select earlier.id as earlier_id, earlier.service_id as earlier_service_id, earlier.link as earlier_link, earlier.quantity as earlier_quantity,
        earlier.extras as earlier_extras, on_sale.*, ${placedColumns}
      from (values (true)) as statement (ran)
        left join earlier on true
        left join on_sale on true
        left join placed on true`)
    ).rows;
  } catch (error) {
    if (!options.idempotencyKey || !isUniqueViolation(error, 'orders_user_idempotency_key')) throw error;
    return { outcome: 'placed earlier', order: (await findByKey(db, userId, options.idempotencyKey))! };
  }
  if (row.earlier_id !== null) {
    return {
      outcome: 'placed earlier',
      order: { id: row.earlier_id, serviceId: row.earlier_service_id!, link: row.earlier_link!, quantity: row.earlier_quantity!, extras: row.earlier_extras },
    };
  }
  if (row.on_sale === null) return { outcome: 'service changed' };
  if (row.placed_id === null) throw await refusedDebit(db, userId);
  return {
    outcome: 'placed',
    // A new order has no refill requested yet.
    view: {
      order: placedOrder(row),
      serviceRefill: row.service_refill!,
      serviceCancel: row.service_cancel!,
      serviceRefillDays: row.service_refill_days,
      openRefill: false,
    },
  };
}

/**
 * Checks the order against its service and places it, paid, with one statement. A retry with an
 * Idempotency-Key gets the order the key placed earlier, even one that would be refused now (its
 * service since disabled, or its price since changed). The order is planned with the service as
 * this isolate last read it (recentlyRead); when that copy refuses the order, prices it otherwise
 * than the customer saw, or turns out to be out of date, the service is read again and the order
 * planned again. An expected charge is compared with the plan's, and the placing statement
 * inserts only if the service still has the rate the plan was priced with, so a price changed
 * between the two cannot be charged: the statement finds the service changed and the order is
 * planned again, and refused with the new charge.
 */
async function createPaidOrder(db: Db, userId: number, input: CreateOrderData, options: PlacingOptions): Promise<PaidOrder> {
  const id = serviceIdOf(input.serviceId);
  let service = recentlyReadService(id);
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
      return earlierOrRefused(db, userId, options, input, error);
    }
    if (options.expectedChargeKobo !== undefined && plan.chargeKobo !== options.expectedChargeKobo) {
      if (!fresh) {
        service = undefined;
        continue;
      }
      return earlierOrRefused(db, userId, options, plan, priceChanged(options.expectedChargeKobo, plan.chargeKobo));
    }
    const placement = await chargeAndInsertOrder(db, userId, plan, options);
    if (placement.outcome === 'placed earlier') return earlierOrder(placement.order, plan);
    if (placement.outcome === 'placed') return { created: true, id: placement.view.order.id, view: placement.view };
    service = undefined;
  }
  throw new AppError('unavailable', 'The service changed while your order was being placed. Please try again.');
}

/**
 * POST user/orders and the reseller API's `add`: the placing statement, then the order on the
 * submissions queue; the provider is never waited for. `created` is false when the idempotency
 * key named an earlier order.
 */
export async function placeOrder(
  db: Db,
  env: OrderEnv,
  userId: number,
  input: CreateOrderData,
  idempotencyKey?: string,
): Promise<{ order: OrderView; created: boolean }> {
  const expectedChargeKobo = input.expectedCharge === undefined ? undefined : nairaToKobo(input.expectedCharge);
  const paid = await createPaidOrder(db, userId, input, { idempotencyKey, expectedChargeKobo });
  if (!paid.created) return { order: await getOrderView(db, userId, paid.id), created: false };
  await queueSubmissions(env, [paid.id]);
  return { order: toOrderView(paid.view), created: true };
}

export interface MassOrderResult {
  line: number;
  ok: boolean;
  orderId?: number;
  error?: string;
}

/** How each line of a batch is charged once its total is agreed: its charge, or null when its service was not on sale. */
type AgreedCharges = Map<number, bigint | null>;

/**
 * The batch's total at today's prices: massLineChargeKobo of each line whose service is on sale,
 * or for a line its Idempotency-Key placed earlier, what that order was charged. A total other
 * than the one the customer saw is refused (409, with the total now) before anything is placed.
 */
async function agreeTotal(
  db: Db,
  userId: number,
  lines: MassOrderLine[],
  lineKey: (line: number) => string | undefined,
  shownKobo: bigint,
): Promise<AgreedCharges> {
  const keys = lines.map((line) => lineKey(line.line)).filter((key) => key !== undefined);
  const [placedEarlier, onSale] = await Promise.all([
    keys.length === 0
      ? []
      : db
          .select({ key: orders.idempotencyKey, chargeKobo: orders.chargeKobo })
          .from(orders)
          .where(and(eq(orders.userId, userId), inArray(orders.idempotencyKey, keys))),
    readOrderableServices(
      db,
      lines.map((line) => serviceIdOf(line.serviceId)).filter((id) => id !== null),
    ),
  ]);
  const earlierCharges = new Map(placedEarlier.map((row) => [row.key, row.chargeKobo]));
  const agreed: AgreedCharges = new Map();
  let totalKobo = 0n;
  for (const line of lines) {
    const key = lineKey(line.line);
    const id = serviceIdOf(line.serviceId);
    const service = id === null ? undefined : onSale.get(id);
    const chargeKobo = (key === undefined ? undefined : earlierCharges.get(key)) ?? (service ? massLineChargeKobo(service, line.quantity) : null);
    // A type whose fields a line cannot give counts 0 in the total: planOrder refuses it, and if an
    // administrator changed the type meanwhile, it is refused as a price change, never charged unagreed.
    if (chargeKobo === null && service) {
      agreed.set(line.line, 0n);
      continue;
    }
    agreed.set(line.line, chargeKobo);
    totalKobo += chargeKobo ?? 0n;
  }
  if (totalKobo !== shownKobo) {
    throw new PriceChanged(`The total changed from ${inNaira(shownKobo)} to ${inNaira(totalKobo)}. Check the new prices and confirm to place the orders.`, {
      total: koboToNaira(totalKobo),
    });
  }
  return agreed;
}

/**
 * POST user/mass-order: every line is charged in order (earlier lines get the balance first) and
 * answered on its own; the accepted ones then go on the submissions queue together. With an
 * idempotency key, line n uses "<key>:<n>", so a retried batch places nothing twice. With the
 * total the customer saw, the batch is placed only if it still costs that, and each line only at
 * the charge counted in it.
 */
export async function placeMassOrder(
  db: Db,
  env: OrderEnv,
  userId: number,
  text: string,
  options: { idempotencyKey?: string; expectedTotal?: string } = {},
): Promise<MassOrderResult[]> {
  const results: MassOrderResult[] = [];
  const toSubmit: number[] = [];
  const lines = parseMassOrderLines(text);
  const lineKey = (line: number) => (options.idempotencyKey ? `${options.idempotencyKey}:${line}` : undefined);
  const agreed =
    options.expectedTotal === undefined
      ? undefined
      : await agreeTotal(
          db,
          userId,
          lines.filter((line) => !line.error),
          lineKey,
          nairaToKobo(options.expectedTotal),
        );
  for (const line of lines) {
    if (line.error) {
      results.push({ line: line.line, ok: false, error: line.error });
      continue;
    }
    try {
      const agreedKobo = agreed?.get(line.line);
      // Its service was not on sale when the total was agreed: placing it now would charge more than the total.
      if (agreedKobo === null) throw invalid(SERVICE_UNAVAILABLE);
      const input = { serviceId: line.serviceId, link: line.link, quantity: line.quantity };
      const paid = await createPaidOrder(db, userId, input, { idempotencyKey: lineKey(line.line), expectedChargeKobo: agreedKobo });
      if (paid.created) toSubmit.push(paid.id);
      results.push({ line: line.line, ok: true, orderId: paid.id });
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      results.push({ line: line.line, ok: false, error: error.message });
    }
  }
  await queueSubmissions(env, toSubmit);
  return results;
}
