// The sync: what the cron trigger runs every few minutes (and administrators on demand).
// Order statuses are read from each provider 100 at a time and final states close the order
// with its refund (closeOrder: once, however many syncs run together); held orders are retried
// or, after a day, refunded; claims abandoned mid-`add` become 'unknown'; refills are tracked;
// average delivery times are measured. Every step claims its work with conditional updates, so
// overlapping runs are safe. Rates and provider catalogues are refreshed when they are stale.
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { orderRefills, orders, providers, services } from '../../drizzle/schema';
import type { Db } from '../db';
import type { Env } from '../env';
import type { SmmOrderState } from '../providers/smm/types';
import type { OrderStatus } from '../schemas/orders';
import { syncProviderCatalogue } from './catalogue';
import { recordWarning } from './margin';
import { closeOrder, submitOrder } from './orders';
import { checkProviderBalance, providerClient, type ProviderEnv, type ProviderRow } from './providers';
import { refreshRatesIfStale } from './rates';

/** Orders at the provider that are still moving. */
const AT_PROVIDER_OPEN: OrderStatus[] = ['Pending', 'In progress', 'Processing'];
/** A claim older than this was abandoned mid-`add` (longer than any provider timeout). */
const STALE_CLAIM = sql`interval '5 minutes'`;
/** Held orders wait this long after placement before a retry, so the placing request has its turn. */
const RETRY_AFTER = sql`interval '30 seconds'`;
/** Held orders the provider would not take within this are canceled and refunded. */
const HOLD_LIMIT = sql`interval '24 hours'`;
const STATUS_POLL_LIMIT = 2000;
const RETRY_LIMIT = 50;
const CATALOGUE_MAX_AGE_MS = 30 * 60_000;
/** Average delivery time is measured over this many recent completed orders per service. */
const AVERAGE_SAMPLE = 50;

export interface OrderSyncResult {
  abandonedClaims: number;
  expired: number;
  retried: number;
  polled: number;
  updated: number;
  closed: number;
  refills: number;
  errors: string[];
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Claims left in 'sending' past any timeout: the call may have reached the provider, so they become unknown. */
async function sweepAbandonedClaims(db: Db): Promise<number> {
  const swept = await db
    .update(orders)
    .set({ submission: 'unknown', submissionError: 'The submission was interrupted before the provider answered', updatedAt: new Date() })
    .where(and(eq(orders.submission, 'sending'), lt(orders.submissionStartedAt, sql`now() - ${STALE_CLAIM}`)))
    .returning({ id: orders.id, providerId: orders.providerId });
  for (const order of swept) {
    await recordWarning(db, {
      kind: 'submission_unknown', orderId: order.id, providerId: order.providerId,
      message: `Order #${order.id}: its submission was interrupted. Look for it in the provider's panel, then link its id or resend it.`,
    });
  }
  return swept.length;
}

async function expireHeldOrders(db: Db): Promise<number> {
  const held = await db.select({ id: orders.id }).from(orders)
    .where(and(eq(orders.submission, 'queued'), eq(orders.status, 'Pending Submission'), lt(orders.createdAt, sql`now() - ${HOLD_LIMIT}`)))
    .limit(RETRY_LIMIT);
  let expired = 0;
  for (const { id } of held) {
    const closed = await db.transaction((tx) => closeOrder(tx, id, {
      status: 'Canceled', reason: 'The provider could not take the order within a day', from: ['Pending Submission'],
      where: eq(orders.submission, 'queued'), set: { submission: 'withdrawn' },
    }));
    if (closed) expired += 1;
  }
  return expired;
}

async function retryHeldOrders(db: Db, env: ProviderEnv): Promise<number> {
  const held = await db.select({ id: orders.id }).from(orders)
    .innerJoin(providers, and(eq(providers.id, orders.providerId), eq(providers.enabled, true)))
    .where(and(
      eq(orders.submission, 'queued'),
      eq(orders.status, 'Pending Submission'),
      lt(orders.createdAt, sql`now() - ${RETRY_AFTER}`),
      or(isNull(orders.submissionStartedAt), lt(orders.submissionStartedAt, sql`now() - ${RETRY_AFTER}`)),
    ))
    .orderBy(asc(orders.createdAt))
    .limit(RETRY_LIMIT);
  for (const { id } of held) await submitOrder(db, env, id);
  return held.length;
}

/** Applies one provider answer; returns whether the order closed. */
async function applyProviderState(db: Db, order: { id: number; status: OrderStatus; startCount: number | null; remains: number | null }, state: SmmOrderState) {
  if (state.status === 'Completed' || state.status === 'Partial' || state.status === 'Canceled') {
    const closed = await db.transaction((tx) => closeOrder(tx, order.id, {
      status: state.status as 'Completed' | 'Partial' | 'Canceled',
      remains: state.status === 'Completed' ? 0 : state.remains,
      startCount: state.startCount,
      reason: state.status === 'Canceled' ? 'Canceled by the provider' : null,
      from: AT_PROVIDER_OPEN,
      where: eq(orders.submission, 'accepted'),
    }));
    return { closed: closed !== null, updated: false };
  }
  const remains = Math.max(state.remains, 0);
  if (state.status === order.status && state.startCount === order.startCount && remains === order.remains) return { closed: false, updated: false };
  const changed = await db.update(orders)
    .set({ status: state.status, startCount: state.startCount, remains, updatedAt: new Date() })
    .where(and(eq(orders.id, order.id), inArray(orders.status, AT_PROVIDER_OPEN)))
    .returning({ id: orders.id });
  return { closed: false, updated: changed.length > 0 };
}

async function syncProviderStatuses(db: Db, env: ProviderEnv, provider: ProviderRow, result: OrderSyncResult, completedServices: Set<number>) {
  const open = await db
    .select({ id: orders.id, providerOrderId: orders.providerOrderId, status: orders.status, startCount: orders.startCount, remains: orders.remains, serviceId: orders.serviceId })
    .from(orders)
    .where(and(eq(orders.providerId, provider.id), eq(orders.submission, 'accepted'), inArray(orders.status, AT_PROVIDER_OPEN)))
    .orderBy(sql`${orders.lastSyncedAt} asc nulls first`, asc(orders.id))
    .limit(STATUS_POLL_LIMIT);
  if (open.length === 0) return;
  const client = await providerClient(env, provider);
  const answers = await client.statuses(open.map((order) => order.providerOrderId!));
  result.polled += open.length;
  for (const order of open) {
    const answer = answers.get(order.providerOrderId!);
    if (!answer?.ok) continue;
    const outcome = await applyProviderState(db, order, answer);
    if (outcome.closed) {
      result.closed += 1;
      if (answer.status === 'Completed') completedServices.add(order.serviceId);
    }
    if (outcome.updated) result.updated += 1;
  }
  // Polled orders go to the back of the queue, so a large backlog is read in turn.
  await db.update(orders).set({ lastSyncedAt: new Date() }).where(inArray(orders.id, open.map((order) => order.id)));
}

async function syncRefills(db: Db, env: ProviderEnv, provider: ProviderRow): Promise<number> {
  // A request whose process died before recording the provider's answer frees the order for a new one.
  await db.update(orderRefills).set({ status: 'Rejected', error: 'The request was interrupted', updatedAt: new Date() })
    .where(and(eq(orderRefills.status, 'Requesting'), lt(orderRefills.createdAt, sql`now() - ${STALE_CLAIM}`)));
  const open = await db
    .select({ id: orderRefills.id, providerRefillId: orderRefills.providerRefillId, status: orderRefills.status })
    .from(orderRefills)
    .innerJoin(orders, eq(orders.id, orderRefills.orderId))
    .where(and(eq(orders.providerId, provider.id), inArray(orderRefills.status, ['Pending', 'In progress']), isNotNull(orderRefills.providerRefillId)))
    .limit(STATUS_POLL_LIMIT);
  if (open.length === 0) return 0;
  const client = await providerClient(env, provider);
  const answers = await client.refillStatuses(open.map((refill) => refill.providerRefillId!));
  let changed = 0;
  for (const refill of open) {
    const answer = answers.get(refill.providerRefillId!);
    if (!answer?.ok || answer.status === refill.status) continue;
    await db.update(orderRefills).set({ status: answer.status, updatedAt: new Date() }).where(eq(orderRefills.id, refill.id));
    changed += 1;
  }
  return changed;
}

/** Mean seconds from submission to completion over each service's recent completed orders. */
async function updateAverageTimes(db: Db, serviceIds: number[]): Promise<void> {
  if (serviceIds.length === 0) return;
  await db.execute(sql`
    update ${services} set average_time_seconds = measured.seconds
    from (
      select service_id, round(avg(extract(epoch from completed_at - submitted_at)))::int as seconds
      from (
        select service_id, completed_at, submitted_at,
               row_number() over (partition by service_id order by completed_at desc) as recent
        from ${orders}
        where status = 'Completed' and submitted_at is not null and service_id in ${serviceIds}
      ) completed
      where recent <= ${AVERAGE_SAMPLE}
      group by service_id
    ) measured
    where ${services.id} = measured.service_id`);
}

/** The order part of the sync (POST admin/orders/sync runs this). */
export async function syncOrders(db: Db, env: ProviderEnv): Promise<OrderSyncResult> {
  const result: OrderSyncResult = { abandonedClaims: 0, expired: 0, retried: 0, polled: 0, updated: 0, closed: 0, refills: 0, errors: [] };
  result.abandonedClaims = await sweepAbandonedClaims(db);
  result.expired = await expireHeldOrders(db);
  result.retried = await retryHeldOrders(db, env);
  const completedServices = new Set<number>();
  const active = await db.select().from(providers).where(eq(providers.enabled, true));
  for (const provider of active) {
    try {
      await syncProviderStatuses(db, env, provider, result, completedServices);
      result.refills += await syncRefills(db, env, provider);
    } catch (error) {
      result.errors.push(`${provider.name}: ${errorText(error)}`);
      await db.update(providers).set({ lastError: errorText(error) }).where(eq(providers.id, provider.id));
    }
  }
  await updateAverageTimes(db, [...completedServices]);
  return result;
}

/** The cron job: rates and catalogues when stale (with the provider balance), then the orders. */
export async function runSmmSync(db: Db, env: Env) {
  const errors: string[] = [];
  const rates = await refreshRatesIfStale(db, env).catch((error) => {
    errors.push(`rates: ${errorText(error)}`);
    return null;
  });
  const catalogues = [];
  const due = await db.select().from(providers).where(and(
    eq(providers.enabled, true),
    or(isNull(providers.catalogueSyncedAt), lt(providers.catalogueSyncedAt, new Date(Date.now() - CATALOGUE_MAX_AGE_MS))),
  ));
  for (const provider of due) {
    try {
      catalogues.push(await syncProviderCatalogue(db, env, provider.id));
      await checkProviderBalance(db, env, provider.id);
    } catch (error) {
      errors.push(`${provider.name} catalogue: ${errorText(error)}`);
      await db.update(providers).set({ lastError: errorText(error) }).where(eq(providers.id, provider.id));
    }
  }
  const orderSync = await syncOrders(db, env);
  return { rates, catalogues, orders: orderSync, errors: [...errors, ...orderSync.errors] };
}
