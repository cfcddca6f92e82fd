// The administrators' dashboard in eight queries run side by side: money per day, week or month
// (deposits net of refunds and chargebacks, what users spent on orders, what the providers cost, the profit), the state of
// things now (orders by status, payments still pending, when the sync last ran, unread catalogue
// warnings), stuck orders, provider balances and health, the latest audit entries, whether
// the card payment provider is refusing the shop, and the Money list (money-alerts.ts).
import { and, asc, eq, inArray, type SQL, sql } from 'drizzle-orm';
import { catalogueWarnings, orders, paymentIntents, providers, services, users } from '../../../drizzle/schema';
import { OPEN_ORDER_STATUSES } from '../../../vocabulary';
import type { Db } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import { cappedTotal } from '../../lib/paging';
import type { DashboardPeriod } from '../../schemas/admin';

import { listProviders } from '../catalogue';
import { moneyAlerts, paymentRefusalAlert } from '../money';

import { AT_PROVIDER_OPEN, NEEDS_ATTENTION_AFTER } from '../orders';
import { recentAuditEntries } from '../oversight';
import { dashboardFigures } from './dashboard-rollups';

/** How many buckets each period shows, ending with the current one. Buckets are UTC, like the transaction filters. */
const PERIODS: Record<DashboardPeriod, { buckets: number; step: string }> = {
  day: { buckets: 30, step: '1 day' },
  week: { buckets: 12, step: '1 week' },
  month: { buckets: 12, step: '1 month' },
};

/** An open order is stuck after twice its service's average delivery time, or after this when that is not known yet. */
export const STUCK_FALLBACK_SECONDS = 24 * 60 * 60;
const STUCK_LIMIT = 20;
/** How far the dashboard counts stuck orders: past it, it says "1,000+" (each one counted is checked against its service). */
export const STUCK_COUNT_CAP = 1_000;
const RECENT_AUDIT = 10;

/** A timestamp's bucket: the start of its UTC day, week or month (a timestamp without time zone). */
const bucketOf = (period: DashboardPeriod, column: SQL) => sql`date_trunc(${period}, ${column} at time zone 'UTC')`;

/** The window's first bucket (a timestamp without time zone, like the buckets). */
function firstBucket(period: DashboardPeriod): SQL {
  const { buckets, step } = PERIODS[period];
  return sql`${bucketOf(period, sql`now()`)} - ${step}::interval * ${buckets - 1}`;
}

/** The window's first UTC day, to read the daily figures from. */
const firstDay = (period: DashboardPeriod) => sql`(${firstBucket(period)})::date`;

interface BucketRow extends Record<string, unknown> {
  bucket: string;
  deposits: string;
  bank_transfers: string;
  reversed: string;
  admin_credits: string;
  spend: string;
  cost: string;
  orders: number;
  new_users: number;
}

/**
 * One row per bucket. Deposits are the payments credited in the bucket (card and bank transfer) less what
 * their refunds and disputes have taken back of them since (payment_intents.reversed_kobo: the payment's
 * one state of reversal, an open dispute included), so a bucket says what the shop kept of the money paid in
 * then, plus administrators' credits (money received outside the providers, or given); bank transfers,
 * what was reversed and administrators' credits are also counted apart.
 * Spend is what orders charged less what they refunded; provider cost is each order's cost in the same
 * proportion (a canceled order costs nothing, a partial one its delivered part). Read from the daily figures
 * the writing statements keep (dashboard-rollups.ts), so a year's chart costs what a month's does.
 */
async function moneySeries(db: Db, period: DashboardPeriod) {
  const { step } = PERIODS[period];
  const result = await db.execute<BucketRow>(sql`
    with buckets as (
      select generate_series(${firstBucket(period)}, ${bucketOf(period, sql`now()`)}, ${step}::interval) as start
    ),
    figures as (
      select date_trunc(${period}, day::timestamp) as start, sum(deposits_kobo) as deposits, sum(bank_transfers_kobo) as transfers,
        sum(reversed_kobo) as reversed, sum(admin_credits_kobo) as credits, sum(spend_kobo) as spend, sum(cost_kobo) as cost,
        sum(orders) as orders, sum(new_users) as users
      from ${dashboardFigures(firstDay(period))} f
      group by 1
    )
    select to_char(b.start, 'YYYY-MM-DD') as bucket,
      (coalesce(f.deposits, 0) + coalesce(f.credits, 0))::text as deposits, coalesce(f.transfers, 0)::text as bank_transfers,
      coalesce(f.reversed, 0)::text as reversed, coalesce(f.credits, 0)::text as admin_credits, coalesce(f.spend, 0)::text as spend,
      coalesce(f.cost, 0)::text as cost, coalesce(f.orders, 0)::int as orders, coalesce(f.users, 0)::int as new_users
    from buckets b left join figures f on f.start = b.start
    order by b.start`);
  return result.rows.map((row) => ({
    bucket: row.bucket,
    depositsKobo: BigInt(row.deposits),
    bankTransfersKobo: BigInt(row.bank_transfers),
    reversedKobo: BigInt(row.reversed),
    adminCreditsKobo: BigInt(row.admin_credits),
    spendKobo: BigInt(row.spend),
    costKobo: BigInt(row.cost),
    orders: row.orders,
    newUsers: row.new_users,
  }));
}

interface SnapshotRow extends Record<string, unknown> {
  orders_by_status: Array<{ status: string; count: number }>;
  pending_payments: number;
  catalogue_synced_at: string | null;
  orders_synced_at: string | null;
  open_warnings: number;
}

/** Counters of the moment in one round trip; orders by status cover the same window as the series. */
async function snapshot(db: Db, period: DashboardPeriod) {
  const result = await db.execute<SnapshotRow>(sql`
    select
      (select coalesce(json_agg(json_build_object('status', status, 'count', n) order by n desc), '[]'::json)
         from (
           select order_status as status, sum(orders)::int as n from ${dashboardFigures(firstDay(period))} f
           where order_status <> '' group by order_status having sum(orders) <> 0
         ) by_status) as orders_by_status,
      (select count(*)::int from ${paymentIntents} where status = 'pending') as pending_payments,
      (select max(catalogue_synced_at) from ${providers}) as catalogue_synced_at,
      -- When the sync last read an open order at a provider (the predicate of orders_sync_idx, written out so the index serves it).
      (select max(last_synced_at) from ${orders} where submission = 'accepted' and status in ('Pending', 'In progress', 'Processing')) as orders_synced_at,
      (select count(*)::int from ${catalogueWarnings} where acknowledged_at is null) as open_warnings`);
  const [row] = result.rows;
  const iso = (value: string | null) => (value === null ? null : new Date(value).toISOString());
  return {
    ordersByStatus: row.orders_by_status,
    pendingPayments: row.pending_payments,
    lastSync: { catalogue: iso(row.catalogue_synced_at), orders: iso(row.orders_synced_at) },
    openWarnings: row.open_warnings,
  };
}

/**
 * The open orders past their time, the longest open first, and how many (to STUCK_COUNT_CAP at most). They are read
 * from the open orders' index in the order they opened (orders_open_since_idx), each checked against its service's
 * time, so the oldest come first and the reading stops at the cap: a busy shop's thousands of stuck orders are neither
 * all joined nor all counted. Only the page's twenty are joined to their users and providers.
 */
async function stuckOrders(db: Db) {
  const openSince = sql`coalesce(${orders.submittedAt}, ${orders.createdAt})`;
  const allowedSeconds = sql`coalesce(${services.averageTimeSeconds} * 2, ${STUCK_FALLBACK_SECONDS})`;
  const stuck = db.$with('stuck').as(
    db
      .select({ id: orders.id, openSince: sql<Date>`${openSince}`.as('open_since') })
      .from(orders)
      .innerJoin(services, eq(services.id, orders.serviceId))
      .where(and(inArray(orders.status, OPEN_ORDER_STATUSES), sql`${openSince} < now() - make_interval(secs => ${allowedSeconds})`))
      .orderBy(asc(openSince), asc(orders.id))
      .limit(STUCK_COUNT_CAP + 1),
  );
  const page = db.select({ id: stuck.id }).from(stuck).orderBy(asc(stuck.openSince), asc(stuck.id)).limit(STUCK_LIMIT);
  const rows = await db
    .with(stuck)
    .select({
      id: orders.id,
      userId: orders.userId,
      userEmail: users.email,
      serviceId: orders.serviceId,
      serviceName: orders.serviceName,
      providerName: providers.name,
      status: orders.status,
      submission: orders.submission,
      openSince: sql<string>`${openSince}`.mapWith((value: string) => new Date(value).toISOString()),
      expectedSeconds: services.averageTimeSeconds,
      counted: sql<number>`(select count(*) from ${stuck})`.mapWith(Number),
    })
    .from(orders)
    .innerJoin(services, eq(services.id, orders.serviceId))
    .innerJoin(users, eq(users.id, orders.userId))
    .innerJoin(providers, eq(providers.id, orders.providerId))
    .where(inArray(orders.id, page))
    .orderBy(asc(openSince), asc(orders.id));
  return {
    ...cappedTotal([{ counted: rows[0]?.counted ?? 0 }], STUCK_COUNT_CAP),
    data: rows.map(({ counted: _counted, ...row }) => row),
  };
}

interface HealthRow extends Record<string, unknown> {
  id: number;
  name: string;
  unhealthy_since: string | null;
  last_error: string | null;
  open_orders: number;
  needs_attention: number;
}

/**
 * Providers in trouble: none of their answers could be read at the last sync (unhealthy), or some
 * of their orders have had no usable answer for NEEDS_ATTENTION_AFTER syncs in a row.
 */
async function providerHealth(db: Db) {
  const openAtProvider = sql`o.provider_id = p.id and o.submission = 'accepted' and o.status in ${AT_PROVIDER_OPEN}`;
  const result = await db.execute<HealthRow>(sql`
    select id, name, unhealthy_since, last_error, open_orders, needs_attention from (
      select p.id, p.name, p.unhealthy_since, p.last_error,
        (select count(*)::int from ${orders} o where ${openAtProvider}) as open_orders,
        (select count(*)::int from ${orders} o where ${openAtProvider} and o.unreadable_syncs >= ${NEEDS_ATTENTION_AFTER}) as needs_attention
      from ${providers} p
      where p.enabled
    ) health
    where unhealthy_since is not null or needs_attention > 0
    order by unhealthy_since asc nulls last, name`);
  return result.rows.map((row) => ({
    id: row.id,
    name: row.name,
    unhealthySince: row.unhealthy_since === null ? null : new Date(row.unhealthy_since).toISOString(),
    lastError: row.last_error,
    openOrders: row.open_orders,
    needsAttention: row.needs_attention,
  }));
}

export async function adminDashboard(db: Db, period: DashboardPeriod) {
  const [series, now, stuck, providerViews, health, recentAudit, paymentRefusals, money] = await Promise.all([
    moneySeries(db, period),
    snapshot(db, period),
    stuckOrders(db),
    listProviders(db),
    providerHealth(db),
    recentAuditEntries(db, RECENT_AUDIT),
    paymentRefusalAlert(db),
    moneyAlerts(db),
  ]);
  const sum = (pick: (row: (typeof series)[number]) => bigint) => series.reduce((total, row) => total + pick(row), 0n);
  const [deposits, spend, cost] = [sum((row) => row.depositsKobo), sum((row) => row.spendKobo), sum((row) => row.costKobo)];
  /** The money figures of a bucket or of the window: what each counts is said where it is declared. */
  const depositFigures = (pick: (field: 'bankTransfersKobo' | 'reversedKobo' | 'adminCreditsKobo') => bigint) => ({
    /** Of the deposits, those paid by bank transfer (net of their refunds and chargebacks). */
    bankTransfers: koboToNaira(pick('bankTransfersKobo')),
    /** What refunds and disputes (open ones included) took back of the deposits of the bucket. */
    depositsReversed: koboToNaira(pick('reversedKobo')),
    /** Of the deposits, administrators' credits. */
    adminCredits: koboToNaira(pick('adminCreditsKobo')),
  });
  return {
    period,
    series: series.map((row) => ({
      bucket: row.bucket,
      /** Card and bank-transfer payments credited in the bucket less what refunds and chargebacks took back of them, and administrators' credits. */
      deposits: koboToNaira(row.depositsKobo),
      ...depositFigures((field) => row[field]),
      spend: koboToNaira(row.spendKobo),
      providerCost: koboToNaira(row.costKobo),
      profit: koboToNaira(row.spendKobo - row.costKobo),
      orders: row.orders,
      newUsers: row.newUsers,
    })),
    totals: {
      deposits: koboToNaira(deposits),
      ...depositFigures((field) => sum((row) => row[field])),
      spend: koboToNaira(spend),
      providerCost: koboToNaira(cost),
      profit: koboToNaira(spend - cost),
      orders: series.reduce((total, row) => total + row.orders, 0),
      newUsers: series.reduce((total, row) => total + row.newUsers, 0),
    },
    ...now,
    stuckOrders: stuck,
    providers: providerViews,
    providerHealth: health,
    recentAudit,
    /** The card payment provider refusing the shop's calls since its key was last accepted; null when it has not. */
    paymentRefusals,
    /** What about the money needs an operator now, most urgent first, each with its next step and link. */
    money,
  };
}
