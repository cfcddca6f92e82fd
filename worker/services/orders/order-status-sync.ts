// Reading one provider's answers about its open orders and acting on each on its own: the sync's
// fault-isolated core. Every polled order moves on, closes with its refund (its own transaction),
// or stays open with the provider's words in provider_note and an administrator's warning; one
// order's trouble never holds up another's. After NEEDS_ATTENTION_AFTER unusable answers in a row
// an order is flagged for a person. A provider none of whose batches can be read is marked
// unhealthy (its orders wait, nothing else does); its next readable answer clears that.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { orders, providers } from '../../../drizzle/schema';
import type { OrderStatus } from '../../../vocabulary';
import type { Db } from '../../db';
import type { SmmStatusEntry } from '../../providers/smm/types';

import { type ProviderEnv, type ProviderRow, providerClient } from '../catalogue';
import { recordWarningOnce } from '../oversight';
import { type Closing, closeOrder } from './order-closing';
import { type RefundableOrder, refundOwed } from './order-refunds';

/** Orders at the provider that are still moving. */
export const AT_PROVIDER_OPEN: OrderStatus[] = ['Pending', 'In progress', 'Processing'];
/** Unusable answers in a row after which an order needs a person (about 25 minutes at the cron's 2). */
export const NEEDS_ATTENTION_AFTER = 12;
const STATUS_POLL_LIMIT = 2000;
/** The answer fields that say how much was delivered; a garbled one keeps a Canceled order from a full refund. */
const DELIVERY_FIELDS = ['remains', 'runs', 'posts', 'charge'];

export interface StatusSyncCounts {
  polled: number;
  updated: number;
  closed: number;
  errors: string[];
}

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

const polledColumns = {
  id: orders.id,
  providerOrderId: orders.providerOrderId,
  serviceId: orders.serviceId,
  status: orders.status,
  startCount: orders.startCount,
  remains: orders.remains,
  providerChargeMicros: orders.providerChargeMicros,
  chargeKobo: orders.chargeKobo,
  quantity: orders.quantity,
  deliverable: orders.deliverable,
  extras: orders.extras,
  cancelRequestedAt: orders.cancelRequestedAt,
};
type PolledOrder = Pick<typeof orders.$inferSelect, keyof typeof polledColumns>;

/** What one answer means for its order. */
export type Reading =
  | { kind: 'close'; closing: Closing }
  | { kind: 'move'; status: OrderStatus; startCount: number | null; remains: number | null; chargeMicros: bigint | null }
  | { kind: 'unclear'; note: string }
  | { kind: 'unanswered' };

const quoted = (fields: Record<string, unknown>) =>
  Object.entries(fields)
    .map(([name, value]) => `${name} ${JSON.stringify(value)}`)
    .join(', ');

/** A cancel the shop asked for (its customer or an administrator) is not the provider's own doing. */
const CANCELED_AS_ASKED = 'Canceled at the provider on request';
const CANCELED_BY_PROVIDER = 'Canceled by the provider';

/** Reads one provider answer against its order; pure, so each case is tested on its own. */
export function readAnswer(order: RefundableOrder & { cancelRequestedAt?: Date | null }, entry: SmmStatusEntry, providerCurrency: string): Reading {
  if (!entry.ok) return entry.unanswered ? { kind: 'unanswered' } : { kind: 'unclear', note: `provider said: ${entry.error}` };
  if (entry.status === null) return { kind: 'unclear', note: `provider said: ${quoted(entry.unreadable ?? {})}` };
  // Stored only in the provider's own currency, the one provider_charge_micros is kept in.
  const chargeMicros = entry.currency === '' || entry.currency === providerCurrency ? entry.chargeMicros : null;
  if (entry.status !== 'Completed' && entry.status !== 'Partial' && entry.status !== 'Canceled') {
    const remains = entry.remains === null || entry.remains > order.deliverable ? null : Math.max(entry.remains, 0);
    return { kind: 'move', status: entry.status, startCount: entry.startCount, remains, chargeMicros };
  }
  const garbled = Object.fromEntries(Object.entries(entry.unreadable ?? {}).filter(([name]) => DELIVERY_FIELDS.includes(name)));
  const delivery = {
    remains: entry.remains,
    runsDone: entry.runs ?? null,
    postsDone: entry.posts ?? null,
    chargeMicros: entry.chargeMicros,
    unreadable: Object.keys(garbled).length > 0 ? [quoted(garbled)] : [],
  };
  const outcome = refundOwed(order, entry.status, delivery);
  if (outcome.status === null) return { kind: 'unclear', note: `provider said: ${outcome.problem}` };
  return {
    kind: 'close',
    closing: {
      ...delivery,
      status: entry.status,
      startCount: entry.startCount,
      reason: entry.status !== 'Canceled' ? null : order.cancelRequestedAt ? CANCELED_AS_ASKED : CANCELED_BY_PROVIDER,
      from: AT_PROVIDER_OPEN,
      where: eq(orders.submission, 'accepted'),
      set: chargeMicros === null ? {} : { providerChargeMicros: chargeMicros },
    },
  };
}

async function moveOrder(db: Db, order: PolledOrder, reading: Extract<Reading, { kind: 'move' }>): Promise<boolean> {
  const next = {
    status: reading.status,
    startCount: reading.startCount ?? order.startCount,
    remains: reading.remains ?? order.remains,
    providerChargeMicros: reading.chargeMicros ?? order.providerChargeMicros,
  };
  if (
    next.status === order.status &&
    next.startCount === order.startCount &&
    next.remains === order.remains &&
    next.providerChargeMicros === order.providerChargeMicros
  ) {
    return false;
  }
  const changed = await db
    .update(orders)
    .set({ ...next, updatedAt: new Date() })
    .where(and(eq(orders.id, order.id), inArray(orders.status, AT_PROVIDER_OPEN)))
    .returning({ id: orders.id });
  return changed.length > 0;
}

/** Keeps the provider's words on the order; the first time they change, an administrator hears of it. */
async function noteUnclear(db: Db, provider: ProviderRow, orderId: number, note: string): Promise<void> {
  const changed = await db
    .update(orders)
    .set({ providerNote: note })
    .where(and(eq(orders.id, orderId), sql`${orders.providerNote} is distinct from ${note}`))
    .returning({ id: orders.id });
  if (changed.length === 0) return;
  await recordWarningOnce(db, {
    kind: 'order_unclear_answer',
    providerId: provider.id,
    orderId,
    message: `Order #${orderId}: ${provider.name} answered something the shop cannot act on (${note}). The order stays open and is asked again at every sync.`,
  });
}

async function recordHealth(db: Db, provider: ProviderRow, answers: Map<string, SmmStatusEntry>): Promise<boolean> {
  if ([...answers.values()].some((entry) => entry.ok || !entry.unanswered)) {
    await db
      .update(providers)
      .set({ unhealthySince: null })
      .where(and(eq(providers.id, provider.id), isNotNull(providers.unhealthySince)));
    return true;
  }
  const [first] = answers.values();
  const error = first && !first.ok ? first.error : 'no answer';
  await db
    .update(providers)
    .set({ unhealthySince: sql`coalesce(${providers.unhealthySince}, now())`, lastError: error })
    .where(eq(providers.id, provider.id));
  await recordWarningOnce(db, {
    kind: 'provider_unhealthy',
    providerId: provider.id,
    message: `${provider.name} gave no readable answer about its open orders (${error}). Its orders wait until it answers again; everything else goes on.`,
  });
  return false;
}

/** What acting on one reading did: an unusable one counts against the order (error: the shop itself failed to act). */
export type ActOutcome = { kind: 'closed'; status: Closing['status'] } | { kind: 'moved' } | { kind: 'unchanged' } | { kind: 'unusable'; error?: string };

/**
 * Acts on what a provider said about one open order, whether polled or sent by its webhook: closes it with its refund (its
 * own transaction), moves it on, or keeps the words and warns. Every write is guarded by the order's open status, so a
 * repeated, late or out-of-order answer can neither refund twice nor reopen a closed order.
 */
export async function actOnReading(db: Db, provider: ProviderRow, order: PolledOrder, reading: Reading): Promise<ActOutcome> {
  try {
    if (reading.kind === 'close') {
      // Interactive: closeOrder refunds through the ledger only if its guarded close matched.
      const closed = await db.transaction((tx) => closeOrder(tx, order.id, reading.closing));
      return closed ? { kind: 'closed', status: reading.closing.status } : { kind: 'unchanged' };
    }
    if (reading.kind === 'move') return (await moveOrder(db, order, reading)) ? { kind: 'moved' } : { kind: 'unchanged' };
    // Unanswered while other batches were answered counts against the order: it may be what breaks its batch.
    await noteUnclear(db, provider, order.id, reading.kind === 'unclear' ? reading.note : 'no readable answer for the batch this order was asked in');
    return { kind: 'unusable' };
  } catch (error) {
    await noteUnclear(db, provider, order.id, `the shop could not act on the answer: ${errorText(error)}`);
    return { kind: 'unusable', error: errorText(error) };
  }
}

/** One of the provider's orders by the provider's id for it, while it is open at the provider; null when none is. */
export async function openOrderAtProvider(db: Db, providerId: number, providerOrderId: string): Promise<PolledOrder | null> {
  const [order] = await db
    .select(polledColumns)
    .from(orders)
    .where(
      and(
        eq(orders.providerId, providerId),
        eq(orders.providerOrderId, providerOrderId),
        eq(orders.submission, 'accepted'),
        inArray(orders.status, AT_PROVIDER_OPEN),
      ),
    );
  return order ?? null;
}

/** Polls one provider's open orders, oldest-read first, and acts on each answer on its own. */
export async function syncProviderStatuses(
  db: Db,
  env: ProviderEnv,
  provider: ProviderRow,
  counts: StatusSyncCounts,
  completedServices: Set<number>,
): Promise<void> {
  const open = await db
    .select(polledColumns)
    .from(orders)
    .where(and(eq(orders.providerId, provider.id), eq(orders.submission, 'accepted'), inArray(orders.status, AT_PROVIDER_OPEN)))
    .orderBy(sql`${orders.lastSyncedAt} asc nulls first`, orders.id)
    .limit(STATUS_POLL_LIMIT);
  if (open.length === 0) return;
  const client = await providerClient(env, provider);
  const answers = await client.statuses(open.map((order) => order.providerOrderId!));
  counts.polled += open.length;
  const healthy = await recordHealth(db, provider, answers);
  const usable: number[] = [];
  const unusable: number[] = [];
  try {
    for (const order of open) {
      const reading = readAnswer(order, answers.get(order.providerOrderId!)!, provider.currency);
      if (reading.kind === 'unanswered' && !healthy) continue;
      const outcome = await actOnReading(db, provider, order, reading);
      if (outcome.kind === 'unusable') {
        if (outcome.error !== undefined) counts.errors.push(`${provider.name} order #${order.id}: ${outcome.error}`);
        unusable.push(order.id);
        continue;
      }
      usable.push(order.id);
      if (outcome.kind === 'moved') counts.updated += 1;
      if (outcome.kind === 'closed') {
        counts.closed += 1;
        if (outcome.status === 'Completed') completedServices.add(order.serviceId);
      }
    }
  } finally {
    await advanceCursor(
      db,
      provider,
      open.map((order) => order.id),
      usable,
      unusable,
    );
  }
}

/**
 * Every polled order goes to the back of the queue, whatever its answer was, so a large backlog
 * is read in turn; the count of unusable answers in a row grows or resets with it.
 */
async function advanceCursor(db: Db, provider: ProviderRow, polled: number[], usable: number[], unusable: number[]): Promise<void> {
  const rows = await db
    .update(orders)
    .set({
      lastSyncedAt: new Date(),
      unreadableSyncs: sql`case when ${inArray(orders.id, unusable)} then ${orders.unreadableSyncs} + 1 when ${inArray(orders.id, usable)} then 0 else ${orders.unreadableSyncs} end`,
      providerNote: sql`case when ${inArray(orders.id, usable)} then null else ${orders.providerNote} end`,
    })
    .where(inArray(orders.id, polled))
    .returning({ id: orders.id, unreadableSyncs: orders.unreadableSyncs, providerNote: orders.providerNote });
  for (const row of rows) {
    if (row.unreadableSyncs !== NEEDS_ATTENTION_AFTER) continue;
    await recordWarningOnce(db, {
      kind: 'order_needs_attention',
      providerId: provider.id,
      orderId: row.id,
      message: `Order #${row.id} needs attention: ${NEEDS_ATTENTION_AFTER} syncs in a row without an answer the shop can act on (last: ${row.providerNote}). Check it in ${provider.name}'s panel, then set its status by hand.`,
    });
  }
}
