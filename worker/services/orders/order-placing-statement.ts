// The placing statement: one round trip that finds the order an Idempotency-Key placed earlier, or
// charges the wallet and inserts the order, only while the service is on sale as the order was
// planned. Kept apart from order-placing.ts, which decides when to plan again, because the SQL is
// the part that must stay atomic.
import { and, eq, getTableColumns, sql } from 'drizzle-orm';
import { QueryBuilder } from 'drizzle-orm/pg-core';
import { orders, services } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import { isUniqueViolation } from '../../lib/db-errors';
import { statementCache } from '../../lib/statement-cache';
import { liveCustomerSession } from '../accounts';
import { assertPositiveAmount, ledgerEntrySteps, refusedDebit } from '../money';
import {
  nullValuesOf,
  type OrderableService,
  type OrderPlan,
  plannedServiceValue,
  plannedServiceValues,
  unchangedSince,
  withCategoryAndProvider,
} from './order-plan';
import type { OrderRow, OrderViewRow } from './order-views';

/** What an order asks the provider for: a request repeated under its Idempotency-Key must ask for the same. */
export type OrderTerms = Pick<OrderRow, 'serviceId' | 'link' | 'quantity' | 'extras'>;
export type EarlierOrder = Pick<OrderRow, 'id'> & OrderTerms;

type Placement =
  | { outcome: 'placed earlier'; order: EarlierOrder }
  | { outcome: 'service changed' }
  | { outcome: 'placed'; view: OrderViewRow }
  /** The customer's session, checked by the statement itself (PlacingSession), was not live: nothing was read or written. */
  | { outcome: 'not admitted' };

/** A customer's session for the statement to check itself, so the session check and the placing are one round trip. */
export interface PlacingSession {
  sessionId: string;
}

/**
 * The placing statement's one row; every column is null when its part did not happen. The order it
 * placed comes back whole (as `placed_<column>`), so the answer needs no second read.
 */
type PlacingRow = {
  admitted: boolean;
  earlier_id: number | null;
  earlier_service_id: number | null;
  earlier_link: string | null;
  earlier_quantity: number | null;
  earlier_extras: unknown;
  on_sale: boolean | null;
  service_refill: boolean | null;
  service_cancel: boolean | null;
  service_refill_days: number | null;
  service_max_refills: number | null;
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

export async function findByKey(db: DbOrTx, userId: number, idempotencyKey: string): Promise<OrderRow | undefined> {
  const [row] = await db
    .select()
    .from(orders)
    .where(and(eq(orders.userId, userId), eq(orders.idempotencyKey, idempotencyKey)));
  return row;
}

/** What the placing statement's text depends on: each shape is built once per isolate (lib/statement-cache.ts). */
interface PlacingShape {
  checksSession: boolean;
  idempotent: boolean;
  /** The planned service's values that are null (order-plan.ts). */
  nullValues: Array<keyof OrderableService>;
}

const value = (name: string) => sql.placeholder(name);
/** Builds the statement's parts without a database: they are built once per shape, not per call. */
const query = new QueryBuilder();

/**
 * The placing statement: one round trip, atomic without a transaction. Given the customer's session, it first
 * checks the session is live (nothing else happens when it is not). It looks for the order the
 * Idempotency-Key placed earlier; failing that, if the service is on sale with every value the
 * order was planned with, it debits the wallet through the ledger's conditional update, inserts
 * the order (queued for submission, naming the API key of a reseller API call) only when the
 * money moved, and writes the ledger row naming it. Too little balance writes nothing. When a
 * request with the same key commits first, this one's order insert fails on the unique index,
 * which undoes the whole statement, debit included, and that request's order is the answer.
 */
const placingStatement = statementCache(
  ({ checksSession, idempotent, nullValues }: PlacingShape) => `${checksSession}/${idempotent}/${nullValues.join()}`,
  ({ checksSession, idempotent, nullValues }: PlacingShape) => {
    const userId = value('userId');
    const admitted = checksSession ? liveCustomerSession(value('sessionId'), userId) : sql`select 1`;
    const earlier = query
      .select({ id: orders.id, serviceId: orders.serviceId, link: orders.link, quantity: orders.quantity, extras: orders.extras })
      .from(orders)
      .where(
        idempotent ? and(eq(orders.userId, userId), eq(orders.idempotencyKey, value('idempotencyKey')), sql`exists (select 1 from admitted)`) : sql`false`,
      );
    const onSaleAsPlanned = withCategoryAndProvider(
      query
        .select({
          onSale: sql`true`.as('on_sale'),
          refill: sql`${services.refill}`.as('service_refill'),
          cancel: sql`${services.cancel}`.as('service_cancel'),
          refillDays: sql`${services.refillDays}`.as('service_refill_days'),
          maxRefills: sql`${services.maxRefills}`.as('service_max_refills'),
        })
        .from(services)
        .$dynamic(),
    ).where(unchangedSince(nullValues));
    const debit = ledgerEntrySteps({
      userId,
      direction: 'debit',
      amountKobo: value('chargeKobo'),
      source: 'order',
      sourceRef: sql`placed.id::text`,
      description: sql`'Order #' || placed.id || ${value('descriptionTail')}`,
      alongside: sql`placed`,
      onlyIf: sql`exists (select 1 from admitted) and exists (select 1 from on_sale) and not exists (select 1 from earlier)`,
    });
    return sql`
      with admitted as (${admitted}),
      earlier as (${earlier}),
      on_sale as (${onSaleAsPlanned}),
      ${debit.balance},
      placed as (
        insert into orders (user_id, service_id, provider_id, provider_service_id, service_name, link, quantity, deliverable, extras,
          rate_kobo, cost_kobo, charge_kobo, idempotency_key, api_key_id)
        select ${userId}, ${plannedServiceValue('id')}, ${plannedServiceValue('providerId')}, ${plannedServiceValue('providerServiceId')},
          ${plannedServiceValue('name')}, ${value('link')}, ${value('quantity')}, ${value('deliverable')}, ${value('providerFields')}::jsonb,
          ${plannedServiceValue('rateKobo')}, ${value('costKobo')}, ${value('chargeKobo')}, ${value('idempotencyKey')}, ${value('apiKeyId')}::integer
        from ledger_balance
        returning *
      ),
      ${debit.row}
      select exists (select 1 from admitted) as admitted, earlier.id as earlier_id, earlier.service_id as earlier_service_id, earlier.link as earlier_link, earlier.quantity as earlier_quantity,
        earlier.extras as earlier_extras, on_sale.*, ${placedColumns}
      from (values (true)) as statement (ran)
        left join earlier on true
        left join on_sale on true
        left join placed on true`;
  },
);

export async function chargeAndInsertOrder(
  db: Db,
  userId: number,
  plan: OrderPlan,
  { idempotencyKey, apiKeyId, session }: { idempotencyKey?: string; apiKeyId?: number; session?: PlacingSession },
): Promise<Placement> {
  const { service } = plan;
  assertPositiveAmount(plan.chargeKobo);
  const statement = placingStatement(
    { checksSession: session !== undefined, idempotent: idempotencyKey !== undefined, nullValues: nullValuesOf(service) },
    {
      ...plannedServiceValues(service),
      userId,
      sessionId: session?.sessionId,
      idempotencyKey: idempotencyKey ?? null,
      apiKeyId: apiKeyId ?? null,
      link: plan.link,
      quantity: plan.quantity,
      deliverable: plan.deliverable,
      providerFields: JSON.stringify(plan.providerFields),
      costKobo: plan.costKobo,
      chargeKobo: plan.chargeKobo,
      descriptionTail: `: ${service.name} × ${plan.deliverable.toLocaleString('en-US')}`,
    },
  );
  let row: PlacingRow;
  try {
    [row] = (await db.execute<PlacingRow>(statement)).rows;
  } catch (error) {
    if (!idempotencyKey || !isUniqueViolation(error, 'orders_user_idempotency_key')) throw error;
    return { outcome: 'placed earlier', order: (await findByKey(db, userId, idempotencyKey))! };
  }
  if (!row.admitted) return { outcome: 'not admitted' };
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
    // A new order has no refill requested yet, so its service's whole cap is left.
    view: {
      order: placedOrder(row),
      serviceRefill: row.service_refill!,
      serviceCancel: row.service_cancel!,
      serviceRefillDays: row.service_refill_days,
      refillsLeft: row.service_max_refills!,
      openRefill: false,
    },
  };
}
