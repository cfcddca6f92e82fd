// The sync: what the cron trigger runs every few minutes (and administrators on demand).
// Order statuses are read from each provider 100 at a time and final states close the order
// with its refund (order-status-sync.ts: each order on its own); queued orders nobody is sending
// go on the submissions queue again or, after a day, are refunded; claims abandoned mid-`add` become 'unknown'; refills are tracked;
// average delivery times are measured. Every step claims its work with conditional updates, so
// overlapping runs are safe, and runs on its own, so one failing step or provider stops nothing
// else. Rates and provider catalogues are refreshed when they are stale.
import { and, asc, eq, inArray, isNotNull, isNull, lt, or, sql } from 'drizzle-orm';
import { orderRefills, orders, providers, services } from '../../../drizzle/schema';
import type { Db } from '../../db';
import type { Env } from '../../env';
import type { SmmRefillStatus } from '../../providers/smm/types';
import { checkProviderBalance, type ProviderEnv, type ProviderRow, providerClient, refreshRatesIfStale, syncProviderCatalogue } from '../catalogue';

import { notifyRefillCompleted } from '../notifications';
import { recordWarnings } from '../oversight';
import { closeOrder } from './order-closing';
import { AT_PROVIDER_OPEN, syncProviderStatuses } from './order-status-sync';
import { queueSubmissions } from './order-submissions';
import type { OrderEnv } from './orders';

type SyncEnv = ProviderEnv & Pick<OrderEnv, 'ORDER_SUBMISSIONS'>;

/** A claim older than this was abandoned mid-`add` (longer than any provider timeout). */
const STALE_CLAIM = sql`interval '5 minutes'`;
/** A queued order is queued again only this long after placement or its last try, so its own queue message has its turn. */
const RETRY_AFTER = sql`interval '30 seconds'`;
/** Held orders the provider would not take within this are canceled and refunded. */
const HOLD_LIMIT = sql`interval '24 hours'`;
const REFILL_POLL_LIMIT = 2000;
/** Refills the provider still works on, the only ones its reports may move. */
const OPEN_REFILL: Array<(typeof orderRefills.$inferSelect)['status']> = ['Pending', 'In progress'];
const RETRY_LIMIT = 50;
const CATALOGUE_MAX_AGE_MS = 30 * 60_000;
/** Average delivery time is measured over this many recent completed orders per service. */
const AVERAGE_SAMPLE = 50;

export interface OrderSyncResult {
  abandonedClaims: number;
  expired: number;
  requeued: number;
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
  // One INSERT for them all: a crash mid-run can leave many claims behind at once.
  await recordWarnings(
    db,
    swept.map((order) => ({
      kind: 'submission_unknown' as const,
      orderId: order.id,
      providerId: order.providerId,
      message: `Order #${order.id}: its submission was interrupted. Look for it in the provider's panel, then link its id or resend it.`,
    })),
  );
  return swept.length;
}

async function expireHeldOrders(db: Db, errors: string[]): Promise<number> {
  const held = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.submission, 'queued'), eq(orders.status, 'Pending Submission'), lt(orders.createdAt, sql`now() - ${HOLD_LIMIT}`)))
    .limit(RETRY_LIMIT);
  let expired = 0;
  for (const { id } of held) {
    try {
      // Interactive: closeOrder refunds through the ledger only if its guarded close matched.
      const closed = await db.transaction((tx) =>
        closeOrder(tx, id, {
          status: 'Canceled',
          reason: 'The provider could not take the order within a day',
          from: ['Pending Submission'],
          where: eq(orders.submission, 'queued'),
          set: { submission: 'withdrawn' },
        }),
      );
      if (closed) expired += 1;
    } catch (error) {
      errors.push(`expiring order #${id}: ${errorText(error)}`);
    }
  }
  return expired;
}

/** Queued orders nobody is sending: held by the provider, or their queue message was lost. They go on the queue again. */
async function requeueWaitingOrders(db: Db, env: SyncEnv): Promise<number> {
  const held = await db
    .select({ id: orders.id })
    .from(orders)
    .innerJoin(providers, and(eq(providers.id, orders.providerId), eq(providers.enabled, true)))
    .where(
      and(
        eq(orders.submission, 'queued'),
        eq(orders.status, 'Pending Submission'),
        lt(orders.createdAt, sql`now() - ${RETRY_AFTER}`),
        or(isNull(orders.submissionStartedAt), lt(orders.submissionStartedAt, sql`now() - ${RETRY_AFTER}`)),
      ),
    )
    .orderBy(asc(orders.createdAt))
    .limit(RETRY_LIMIT);
  await queueSubmissions(
    env,
    held.map(({ id }) => id),
  );
  return held.length;
}

async function syncRefills(db: Db, env: ProviderEnv, provider: ProviderRow): Promise<number> {
  // A request whose process died before recording the provider's answer frees the order for a new one.
  await db
    .update(orderRefills)
    .set({ status: 'Rejected', error: 'The request was interrupted', updatedAt: new Date() })
    .where(and(eq(orderRefills.status, 'Requesting'), lt(orderRefills.createdAt, sql`now() - ${STALE_CLAIM}`)));
  const open = await openRefillsAt(db, provider.id);
  if (open.length === 0) return 0;
  const client = await providerClient(env, provider);
  const answers = await client.refillStatuses(open.map((refill) => refill.providerRefillId!));
  let changed = 0;
  for (const refill of open) {
    const answer = answers.get(refill.providerRefillId!);
    if (answer?.ok && (await moveRefill(db, refill, answer.status))) changed += 1;
  }
  return changed;
}

const refillColumns = {
  id: orderRefills.id,
  providerRefillId: orderRefills.providerRefillId,
  status: orderRefills.status,
  orderId: orders.id,
  userId: orders.userId,
  serviceName: orders.serviceName,
  placedThroughApi: sql<boolean>`${orders.apiKeyId} is not null`,
};
/** A provider's open refills, or the one it knows by `providerRefillId`. */
export function openRefillsAt(db: Db, providerId: number, providerRefillId?: string) {
  return db
    .select(refillColumns)
    .from(orderRefills)
    .innerJoin(orders, eq(orders.id, orderRefills.orderId))
    .where(
      and(
        eq(orders.providerId, providerId),
        inArray(orderRefills.status, OPEN_REFILL),
        providerRefillId === undefined ? isNotNull(orderRefills.providerRefillId) : eq(orderRefills.providerRefillId, providerRefillId),
      ),
    )
    .limit(REFILL_POLL_LIMIT);
}

type OpenRefill = Awaited<ReturnType<typeof openRefillsAt>>[number];

/**
 * Moves an open refill to the status its provider reported, polled or by webhook. Guarded by the open status, so
 * a repeated or late report neither reopens a finished refill nor tells its owner twice that it completed.
 */
export async function moveRefill(db: Db, refill: OpenRefill, status: SmmRefillStatus): Promise<boolean> {
  if (status === refill.status) return false;
  // Interactive only because notifyRefillCompleted runs its own statements, which commit with the status.
  return db.transaction(async (tx) => {
    const moved = await tx
      .update(orderRefills)
      .set({ status, updatedAt: new Date() })
      .where(and(eq(orderRefills.id, refill.id), inArray(orderRefills.status, OPEN_REFILL)))
      .returning({ id: orderRefills.id });
    if (moved.length === 0) return false;
    if (status === 'Completed')
      await notifyRefillCompleted(tx, {
        id: refill.id,
        orderId: refill.orderId,
        userId: refill.userId,
        serviceName: refill.serviceName,
        placedThroughApi: refill.placedThroughApi,
      });
    return true;
  });
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

/** The order part of the sync (POST admin/orders/sync runs this). Never throws: what failed is in `errors`. */
export async function syncOrders(db: Db, env: SyncEnv): Promise<OrderSyncResult> {
  const result: OrderSyncResult = { abandonedClaims: 0, expired: 0, requeued: 0, polled: 0, updated: 0, closed: 0, refills: 0, errors: [] };
  const step = async <T>(name: string, work: () => Promise<T>): Promise<T | undefined> => {
    try {
      return await work();
    } catch (error) {
      result.errors.push(`${name}: ${errorText(error)}`);
      return undefined;
    }
  };
  result.abandonedClaims = (await step('abandoned claims', () => sweepAbandonedClaims(db))) ?? 0;
  result.expired = (await step('held orders', () => expireHeldOrders(db, result.errors))) ?? 0;
  result.requeued = (await step('waiting orders', () => requeueWaitingOrders(db, env))) ?? 0;
  const completedServices = new Set<number>();
  // A disabled provider takes no new orders, but the orders it already has are followed to their end (and their refunds).
  const stillOwing = sql`exists (
    select 1 from ${orders} o where o.provider_id = providers.id and o.submission = 'accepted' and o.status in ${AT_PROVIDER_OPEN}
  ) or exists (
    select 1 from ${orderRefills} r join ${orders} o on o.id = r.order_id where o.provider_id = providers.id and r.status in ('Pending', 'In progress')
  )`;
  const active =
    (await step('providers', () =>
      db
        .select()
        .from(providers)
        .where(or(eq(providers.enabled, true), stillOwing)),
    )) ?? [];
  for (const provider of active) {
    const failed = (part: string) => async (error: unknown) => {
      result.errors.push(`${provider.name} ${part}: ${errorText(error)}`);
      await db
        .update(providers)
        .set({ lastError: errorText(error) })
        .where(eq(providers.id, provider.id))
        .catch(() => {});
    };
    await syncProviderStatuses(db, env, provider, result, completedServices).catch(failed('statuses'));
    result.refills += await syncRefills(db, env, provider).catch(async (error: unknown) => {
      await failed('refills')(error);
      return 0;
    });
  }
  await step('average times', () => updateAverageTimes(db, [...completedServices]));
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
  const due = await db
    .select()
    .from(providers)
    .where(
      and(eq(providers.enabled, true), or(isNull(providers.catalogueSyncedAt), lt(providers.catalogueSyncedAt, new Date(Date.now() - CATALOGUE_MAX_AGE_MS)))),
    );
  for (const provider of due) {
    try {
      catalogues.push(await syncProviderCatalogue(db, env, provider.id));
      await checkProviderBalance(db, env, provider.id);
    } catch (error) {
      errors.push(`${provider.name} catalogue: ${errorText(error)}`);
      await db
        .update(providers)
        .set({ lastError: errorText(error) })
        .where(eq(providers.id, provider.id));
    }
  }
  const orderSync = await syncOrders(db, env);
  return { rates, catalogues, orders: orderSync, errors: [...errors, ...orderSync.errors] };
}
