// Reading one provider's answers about its open orders and acting on them: the sync's fault-isolated
// core. Every polled order moves on, closes with its refund (its own transaction), or stays open with
// the provider's words in provider_note and an administrator's warning; one order's trouble never holds
// up another's. Moves, notes and the cursor are written for the whole batch at once (order-status-batch.ts),
// so a batch costs the same few round trips whatever its size; only closes, which move money, go one by one.
// After NEEDS_ATTENTION_AFTER unusable answers in a row an order is flagged for a person. A provider none of
// whose batches can be read is marked unhealthy (its orders wait, nothing else does); its next readable answer clears that.
import { and, eq, inArray, isNotNull, sql } from 'drizzle-orm';
import { orders, providers } from '../../../drizzle/schema';
import type { OrderStatus } from '../../../vocabulary';
import type { Db } from '../../db';
import type { SmmStatusEntry } from '../../providers/smm/types';

import { type ProviderEnv, type ProviderRow, providerClient } from '../catalogue';
import { recordWarningOnce, recordWarningsOnce, type WarningInput } from '../oversight';
import { type Closing, closeOrder } from './order-closing';
import { type RefundableOrder, refundOwed } from './order-refunds';
import { AT_PROVIDER_OPEN, advancePolled, noteUnclearAnswers, type OrderMove, type PolledFate } from './order-status-batch';

export { AT_PROVIDER_OPEN, NEEDS_ATTENTION_AFTER } from './order-status-batch';

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

/** What a move reading changes on the order as polled; null when it changes nothing. */
function movedValues(order: PolledOrder, reading: Extract<Reading, { kind: 'move' }>): OrderMove | null {
  const next = {
    status: reading.status,
    startCount: reading.startCount ?? order.startCount,
    remains: reading.remains ?? order.remains,
    providerChargeMicros: reading.chargeMicros ?? order.providerChargeMicros,
  };
  const same =
    next.status === order.status &&
    next.startCount === order.startCount &&
    next.remains === order.remains &&
    next.providerChargeMicros === order.providerChargeMicros;
  return same ? null : next;
}

async function moveOrder(db: Db, order: PolledOrder, reading: Extract<Reading, { kind: 'move' }>): Promise<boolean> {
  const next = movedValues(order, reading);
  if (next === null) return false;
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

/** Polls one provider's open orders, oldest-read first, and acts on the answers. */
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

  const fates = new Map<number, PolledFate>();
  const moves: Array<{ order: PolledOrder; reading: Extract<Reading, { kind: 'move' }> }> = [];
  const closes: Array<{ order: PolledOrder; closing: Closing }> = [];
  const notes: Array<{ id: number; note: string }> = [];
  const unusable = (order: PolledOrder, note: string) => {
    fates.set(order.id, { id: order.id, answer: 'unusable' });
    notes.push({ id: order.id, note });
  };
  for (const order of open) {
    const reading = readAnswer(order, answers.get(order.providerOrderId!)!, provider.currency);
    if (reading.kind === 'close') {
      closes.push({ order, closing: reading.closing });
      // Known once its close is tried, below.
      fates.set(order.id, { id: order.id, answer: 'unheard' });
    } else if (reading.kind === 'move') {
      moves.push({ order, reading });
      fates.set(order.id, { id: order.id, answer: 'usable', move: movedValues(order, reading) ?? undefined });
    }
    // Unanswered while other batches were answered counts against the order: it may be what breaks its batch.
    else if (reading.kind === 'unclear') unusable(order, reading.note);
    else if (healthy) unusable(order, 'no readable answer for the batch this order was asked in');
    else fates.set(order.id, { id: order.id, answer: 'unheard' });
  }

  // Each close and the notes catch their own failure, so the cursor below always advances.
  for (const { order, closing } of closes) {
    try {
      // Interactive: closeOrder refunds through the ledger only if its guarded close matched.
      const closed = await db.transaction((tx) => closeOrder(tx, order.id, closing));
      fates.set(order.id, { id: order.id, answer: 'usable' });
      if (!closed) continue;
      counts.closed += 1;
      if (closing.status === 'Completed') completedServices.add(order.serviceId);
    } catch (error) {
      counts.errors.push(`${provider.name} order #${order.id}: ${errorText(error)}`);
      unusable(order, `the shop could not act on the answer: ${errorText(error)}`);
    }
  }
  const warnings: Array<WarningInput & { providerId: number }> = [];
  try {
    warnings.push(...(await noteUnclearAnswers(db, provider, notes)));
  } catch (error) {
    // The orders still count their unusable answer below; their words are kept at the next sync.
    counts.errors.push(`${provider.name} provider notes: ${errorText(error)}`);
  }
  const cursor = await advanceCursor(db, provider, fates, moves, counts).then(
    (attention) => ({ attention, error: undefined }),
    (error: unknown) => ({ attention: [], error }),
  );
  // Recorded even when the cursor failed: the notes are written, so the next sync would not warn of them again.
  await recordWarningsOnce(db, [...warnings, ...cursor.attention]);
  if (cursor.error !== undefined) throw cursor.error;
}

/**
 * Applies the moves and advances the cursor in one statement. Should it fail (one answer's value the database refuses
 * fails the whole statement), each move is made on its own, as for a webhook, so that order's trouble stays its own,
 * and the cursor then advances alone.
 */
async function advanceCursor(
  db: Db,
  provider: ProviderRow,
  fates: Map<number, PolledFate>,
  moves: Array<{ order: PolledOrder; reading: Extract<Reading, { kind: 'move' }> }>,
  counts: StatusSyncCounts,
) {
  try {
    const advanced = await advancePolled(db, provider, [...fates.values()]);
    counts.updated += advanced.moved.size;
    return advanced.warnings;
  } catch (error) {
    if (moves.length === 0) throw error;
    counts.errors.push(`${provider.name} moves, made one by one instead: ${errorText(error)}`);
  }
  for (const { order, reading } of moves) {
    const outcome = await actOnReading(db, provider, order, reading);
    if (outcome.kind === 'moved') counts.updated += 1;
    if (outcome.kind === 'unusable') {
      if (outcome.error !== undefined) counts.errors.push(`${provider.name} order #${order.id}: ${outcome.error}`);
      fates.set(order.id, { id: order.id, answer: 'unusable' });
    } else fates.set(order.id, { id: order.id, answer: 'usable' });
  }
  return (await advancePolled(db, provider, [...fates.values()])).warnings;
}
