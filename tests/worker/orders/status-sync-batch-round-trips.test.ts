// The status sync writes a polled batch in a fixed number of statements whatever its size (issue 30: the cron's jobs
// each within a Worker invocation's limits): moves, notes and the cursor for the whole batch at once, closes one by one
// in their own transactions (they move money, over the WebSocket). And its answers still land where they did order by
// order: every order in its right state, refunds once, each unclear answer noted and warned once, and an answer the
// database refuses costs only its own order.
import { env } from 'cloudflare:test';
import { and, eq, inArray } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings, orders, providers } from '../../../drizzle/schema';
import { syncProviderStatuses } from '../../../worker/services/orders/order-status-sync';
import { countingRoundTrips, withDb } from '../../support/api';
import { newLink, orderRow, placeOrder, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, newShop, type Shop } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const syncProvider = (providerId: number) =>
  countingRoundTrips(async (db) => {
    const [provider] = await db.select().from(providers).where(eq(providers.id, providerId));
    const counts = { polled: 0, updated: 0, closed: 0, errors: [] as string[] };
    await syncProviderStatuses(db, env, provider, counts, new Set());
    return counts;
  });

/** `count` followers orders of 1,000, submitted, and their provider then out of the other test files' cron (as order-sync-faults does). */
async function submittedOrders(shop: Shop, user: Awaited<ReturnType<typeof fundedUser>>, count: number) {
  const ids: number[] = [];
  for (let at = 0; at < count; at += 10) {
    const placed = await Promise.all(
      Array.from({ length: Math.min(10, count - at) }, () =>
        placeOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 }),
      ),
    );
    ids.push(...placed.map((response) => response.body.data.id as number));
  }
  const rows = await Promise.all(ids.map((id) => untilSubmitted(id)));
  expect(rows.every((row) => row.submission === 'accepted')).toBe(true);
  await withDb((db) => db.update(providers).set({ enabled: false }).where(eq(providers.id, shop.providerId)));
  return rows;
}

const warningsFor = (orderIds: number[]) => withDb((db) => db.select().from(catalogueWarnings).where(inArray(catalogueWarnings.orderId, orderIds)));

/** What the fake answers for each kind of order in the mix. */
const ANSWERS = {
  moving: { status: 'In progress', remains: 400, start_count: 77 },
  unclear: { status: 'Exploded' },
  partial: { status: 'Partial', remains: 250 },
  canceled: { status: 'Cancelled', remains: 1000 },
  completed: { status: 'Completed', remains: 0 },
} as const;
type Kind = keyof typeof ANSWERS;
const KINDS = Object.keys(ANSWERS) as Kind[];

describe('the status sync of a provider batch', () => {
  it('settles 150 orders with mixed answers in a fixed number of statements, each in its right state', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(1_000_000_000n);
    const rows = await submittedOrders(shop, user, 150);
    const kindOf = new Map(rows.map((row, at) => [row.id, KINDS[at % KINDS.length]]));
    await Promise.all(rows.map((row) => shop.fake.post(`/__orders/${row.providerOrderId}`, ANSWERS[kindOf.get(row.id)!])));
    const ofKind = (kind: Kind) => rows.filter((row) => kindOf.get(row.id) === kind);

    const first = await syncProvider(shop.providerId);
    expect(first.result).toEqual({ polled: 150, updated: 30, closed: 90, errors: [] });
    // The provider, the open orders, its health, the notes, the moves with the cursor, the warnings: six HTTP calls
    // however many orders, and the 90 closes on one WebSocket (one transaction each, one after the other).
    expect({ httpCalls: first.httpCalls, webSockets: first.webSockets }).toEqual({ httpCalls: 6, webSockets: 1 });

    const after = new Map(
      (
        await withDb((db) =>
          db
            .select()
            .from(orders)
            .where(inArray(orders.id, [...kindOf.keys()])),
        )
      ).map((row) => [row.id, row]),
    );
    for (const row of ofKind('moving')) {
      expect(after.get(row.id)).toMatchObject({ status: 'In progress', remains: 400, startCount: 77, unreadableSyncs: 0, providerNote: null });
    }
    for (const row of ofKind('unclear')) {
      expect(after.get(row.id)).toMatchObject({ status: 'Pending', unreadableSyncs: 1, providerNote: 'provider said: status "Exploded"', refundedKobo: 0n });
    }
    for (const row of ofKind('partial'))
      expect(after.get(row.id)).toMatchObject({ status: 'Partial', remains: 250, refundedKobo: (row.chargeKobo * 250n) / 1000n });
    for (const row of ofKind('canceled')) expect(after.get(row.id)).toMatchObject({ status: 'Canceled', refundedKobo: row.chargeKobo });
    for (const row of ofKind('completed')) expect(after.get(row.id)).toMatchObject({ status: 'Completed', remains: 0, refundedKobo: 0n });
    for (const row of after.values()) expect(row.lastSyncedAt, `order #${row.id}`).not.toBeNull();

    // Only the orders still open are asked again: nothing moves, the unclear ones count a second time and are not warned of twice.
    const second = await syncProvider(shop.providerId);
    expect(second.result).toEqual({ polled: 60, updated: 0, closed: 0, errors: [] });
    expect(second.httpCalls).toBeLessThanOrEqual(6);
    expect(second.webSockets).toBe(0);
    for (const row of ofKind('unclear')) expect(await orderRow(row.id)).toMatchObject({ status: 'Pending', unreadableSyncs: 2 });
    const warnings = await warningsFor([...kindOf.keys()]);
    expect(warnings.map((warning) => [warning.orderId, warning.kind]).sort()).toEqual(
      ofKind('unclear')
        .map((row) => [row.id, 'order_unclear_answer'])
        .sort(),
    );

    // Each closed order refunded once, exactly what it owed.
    const owed = [...ofKind('partial').map((row) => (row.chargeKobo * 250n) / 1000n), ...ofKind('canceled').map((row) => row.chargeKobo)];
    const refunds = (await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order_refund');
    expect(refunds).toHaveLength(owed.length);
    const charged = rows.reduce((sum, row) => sum + row.chargeKobo, 0n);
    expect(await balanceKobo(user.id)).toBe(1_000_000_000n - charged + owed.reduce((sum, kobo) => sum + kobo, 0n));
  }, 90_000);

  it('costs an answer the database refuses only its own order: the others still move, and every one is read again in turn', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(100_000_000n);
    const [refused, ...others] = await submittedOrders(shop, user, 4);
    // A start count past the column's range: readable, but no statement that writes it can succeed.
    await shop.fake.post(`/__orders/${refused.providerOrderId}`, { status: 'In progress', remains: 500, start_count: 3_000_000_000 });
    for (const row of others) await shop.fake.post(`/__orders/${row.providerOrderId}`, { status: 'In progress', remains: 600, start_count: 10 });

    const { result } = await syncProvider(shop.providerId);
    expect(result).toMatchObject({ polled: 4, updated: 3, closed: 0 });
    expect(result.errors).toHaveLength(2);
    expect(result.errors.join('\n')).toContain(`order #${refused.id}`);
    for (const row of others) expect(await orderRow(row.id)).toMatchObject({ status: 'In progress', remains: 600, startCount: 10, unreadableSyncs: 0 });
    const kept = await orderRow(refused.id);
    expect(kept).toMatchObject({ status: 'Pending', unreadableSyncs: 1 });
    expect(kept.providerNote).toMatch(/^the shop could not act on the answer/);
    for (const row of [refused, ...others]) expect((await orderRow(row.id)).lastSyncedAt).not.toBeNull();
    const warned = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.orderId, refused.id), eq(catalogueWarnings.kind, 'order_unclear_answer'))),
    );
    expect(warned).toHaveLength(1);
  }, 60_000);
});
