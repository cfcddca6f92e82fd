// The status sync's writes for a whole polled batch, each one statement however many orders it holds: the
// provider's words kept on the orders it answered unclearly, and the moves together with the cursor (when each
// order was last read and how many unusable answers in a row it has had). A cron run polls thousands of orders per
// provider, and one round trip per order would not fit in an invocation. Closing stays per order (order-closing.ts),
// as it moves money.
import { sql } from 'drizzle-orm';
import { orders } from '../../../drizzle/schema';
import type { OrderStatus } from '../../../vocabulary';
import type { Db } from '../../db';
import type { ProviderRow } from '../catalogue';
import type { WarningInput } from '../oversight';

/** Orders at the provider that are still moving. */
export const AT_PROVIDER_OPEN: OrderStatus[] = ['Pending', 'In progress', 'Processing'];
/** Unusable answers in a row after which an order needs a person (about 25 minutes at the cron's 2). */
export const NEEDS_ATTENTION_AFTER = 12;

/** What a provider's answer changes on an open order; values it did not give are the ones the order had. */
export interface OrderMove {
  status: OrderStatus;
  startCount: number | null;
  remains: number | null;
  providerChargeMicros: bigint | null;
}

/**
 * One polled order's place in the cursor: `usable` answers reset its count of unusable ones in a row and clear its note,
 * `unusable` ones add to it, `unheard` (its provider answered nothing at all) leaves both, as the provider is at fault.
 */
export interface PolledFate {
  id: number;
  answer: 'usable' | 'unusable' | 'unheard';
  /** Only when the answer changes what the order shows. */
  move?: OrderMove;
}

type ProviderWarning = WarningInput & { providerId: number };

/** Keeps the provider's words on each order; the orders whose words changed are the ones an administrator hears of. */
export async function noteUnclearAnswers(db: Db, provider: ProviderRow, notes: Array<{ id: number; note: string }>): Promise<ProviderWarning[]> {
  if (notes.length === 0) return [];
  const { rows } = await db.execute<{ id: number; note: string }>(sql`
    update ${orders} o set provider_note = n.note
    from jsonb_to_recordset(${JSON.stringify(notes)}::jsonb) as n(id int, note text)
    where o.id = n.id and o.provider_note is distinct from n.note
    returning o.id, n.note`);
  return rows.map(({ id, note }) => ({
    kind: 'order_unclear_answer',
    providerId: provider.id,
    orderId: Number(id),
    message: `Order #${id}: ${provider.name} answered something the shop cannot act on (${note}). The order stays open and is asked again at every sync.`,
  }));
}

/**
 * Moves the orders whose answer changed them and sends every polled order to the back of the queue, whatever its answer
 * was, so a large backlog is read in turn, in one statement. A move is guarded as closing is (still open at the provider,
 * accepted), so a late answer cannot reopen an order a webhook or an overlapping run closed meanwhile. Answers the ids
 * actually moved and the warnings for orders that have just reached NEEDS_ATTENTION_AFTER unusable answers in a row.
 */
export async function advancePolled(db: Db, provider: ProviderRow, polled: PolledFate[]): Promise<{ moved: Set<number>; warnings: ProviderWarning[] }> {
  if (polled.length === 0) return { moved: new Set(), warnings: [] };
  const input = polled.map(({ id, answer, move }) => ({
    id,
    answer,
    moves: move !== undefined,
    status: move?.status ?? null,
    start_count: move?.startCount ?? null,
    remains: move?.remains ?? null,
    charge_micros: move?.providerChargeMicros?.toString() ?? null,
  }));
  const moves = sql`(m.moves and o.status in ${AT_PROVIDER_OPEN} and o.submission = 'accepted')`;
  // Once moved, the status is m.status, one of AT_PROVIDER_OPEN; a row the guard kept out has one that is not, or is not accepted.
  const { rows } = await db.execute<{ id: number; moved: boolean; unreadable_syncs: number; provider_note: string | null }>(sql`
    update ${orders} o set
      status = case when ${moves} then m.status else o.status end,
      start_count = case when ${moves} then m.start_count else o.start_count end,
      remains = case when ${moves} then m.remains else o.remains end,
      provider_charge_micros = case when ${moves} then m.charge_micros else o.provider_charge_micros end,
      updated_at = case when ${moves} then now() else o.updated_at end,
      last_synced_at = now(),
      unreadable_syncs = case m.answer when 'unusable' then o.unreadable_syncs + 1 when 'usable' then 0 else o.unreadable_syncs end,
      provider_note = case when m.answer = 'usable' then null else o.provider_note end
    from jsonb_to_recordset(${JSON.stringify(input)}::jsonb)
      as m(id int, answer text, moves boolean, status text, start_count int, remains int, charge_micros bigint)
    where o.id = m.id
    returning o.id, (m.moves and o.status in ${AT_PROVIDER_OPEN} and o.submission = 'accepted') as moved, o.unreadable_syncs, o.provider_note`);
  const moved = new Set(rows.filter((row) => row.moved).map((row) => Number(row.id)));
  const warnings = rows
    .filter((row) => row.unreadable_syncs === NEEDS_ATTENTION_AFTER)
    .map(
      (row): ProviderWarning => ({
        kind: 'order_needs_attention',
        providerId: provider.id,
        orderId: Number(row.id),
        message: `Order #${row.id} needs attention: ${NEEDS_ATTENTION_AFTER} syncs in a row without an answer the shop can act on (last: ${row.provider_note}). Check it in ${provider.name}'s panel, then set its status by hand.`,
      }),
    );
  return { moved, warnings };
}
