// Warnings recorded many at a time, as the syncs do: recordWarnings writes them all in a statement per thousand,
// recordWarningsOnce leaves out any whose like (kind, provider, order) is still unread, and a like twice in one batch once;
// recordWarningOnce does the same for one, also one that names no provider (the hourly reconciliation's), and two runs racing
// to record the same one record it once (a unique index of the unread ones).
import { and, asc, eq, isNull, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings } from '../../../drizzle/schema';
import { recordWarningOnce, recordWarnings, recordWarningsOnce } from '../../../worker/services/oversight';
import { countingRoundTrips, rolledBack, withDb } from '../../support/api';
import { FAKE, newShop } from '../fixtures/shop-fixtures';

/** A provider of this test's own, so the warnings read back are only this test's. */
const ownProvider = async () => (await newShop({ serviceIds: [FAKE.igLikes] })).providerId;

const warningsOf = (providerId: number) =>
  withDb((db) =>
    db
      .select({ kind: catalogueWarnings.kind, orderId: catalogueWarnings.orderId, message: catalogueWarnings.message, details: catalogueWarnings.details })
      .from(catalogueWarnings)
      .where(eq(catalogueWarnings.providerId, providerId))
      .orderBy(asc(catalogueWarnings.id)),
  );

describe('warnings in batches', () => {
  it('records a warning once while its like is unread, and a like twice in one batch once, the first', async () => {
    const providerId = await ownProvider();
    await withDb((db) => recordWarningOnce(db, { kind: 'order_unclear_answer', providerId, orderId: 1, message: 'already unread' }));
    await withDb((db) => recordWarningOnce(db, { kind: 'order_unclear_answer', providerId, orderId: 2, message: 'read since' }));
    await withDb((db) => db.update(catalogueWarnings).set({ acknowledgedAt: sql`now()` }).where(eq(catalogueWarnings.message, 'read since')));

    const { httpCalls } = await countingRoundTrips((db) =>
      recordWarningsOnce(db, [
        { kind: 'order_unclear_answer', providerId, orderId: 1, message: 'unread one still stands' },
        { kind: 'order_unclear_answer', providerId, orderId: 2, message: 'again after it was read' },
        { kind: 'order_needs_attention', providerId, orderId: 1, message: 'another kind for the same order', details: { syncs: 12 } },
        { kind: 'order_unclear_answer', providerId, orderId: 3, message: 'first of two' },
        { kind: 'order_unclear_answer', providerId, orderId: 3, message: 'second of two' },
        { kind: 'provider_unhealthy', providerId, message: 'no order named' },
        { kind: 'provider_unhealthy', providerId, orderId: null, message: 'no order named, twice' },
      ]),
    );
    expect(httpCalls).toBe(1);
    expect(await warningsOf(providerId)).toEqual([
      { kind: 'order_unclear_answer', orderId: 1, message: 'already unread', details: {} },
      { kind: 'order_unclear_answer', orderId: 2, message: 'read since', details: {} },
      // Inserted by one statement: their ids follow the statement's order (kind, provider, order), not the batch's.
      { kind: 'order_needs_attention', orderId: 1, message: 'another kind for the same order', details: { syncs: 12 } },
      { kind: 'order_unclear_answer', orderId: 2, message: 'again after it was read', details: {} },
      { kind: 'order_unclear_answer', orderId: 3, message: 'first of two', details: {} },
      { kind: 'provider_unhealthy', orderId: null, message: 'no order named', details: {} },
    ]);

    // The same batch again changes nothing: every one of them is now unread.
    await withDb((db) => recordWarningsOnce(db, [{ kind: 'order_unclear_answer', providerId, orderId: 3, message: 'third' }]));
    await withDb((db) => recordWarningsOnce(db, []));
    expect(await warningsOf(providerId)).toHaveLength(6);
  });

  it('records a warning that names no provider once while its like is unread, and again once it was read', async () => {
    // In a snapshot of its own, rolled back: the shared database may hold an unread one of the kind already.
    await rolledBack(
      async (tx) => {
        const unread = () =>
          tx
            .select({ id: catalogueWarnings.id, message: catalogueWarnings.message })
            .from(catalogueWarnings)
            .where(and(eq(catalogueWarnings.kind, 'reconciliation'), isNull(catalogueWarnings.providerId), isNull(catalogueWarnings.acknowledgedAt)));
        await tx.update(catalogueWarnings).set({ acknowledgedAt: sql`now()` }).where(eq(catalogueWarnings.kind, 'reconciliation'));
        await recordWarningOnce(tx, { kind: 'reconciliation', message: 'the books are not clean' });
        await recordWarningOnce(tx, { kind: 'reconciliation', message: 'an hour later, still not clean' });
        expect(await unread()).toEqual([{ id: expect.any(Number), message: 'the books are not clean' }]);

        await tx.update(catalogueWarnings).set({ acknowledgedAt: sql`now()` }).where(eq(catalogueWarnings.kind, 'reconciliation'));
        await recordWarningOnce(tx, { kind: 'reconciliation', message: 'not clean again after it was read' });
        expect((await unread()).map((warning) => warning.message)).toEqual(['not clean again after it was read']);
      },
      { isolationLevel: 'repeatable read' },
    );
  });

  it('records a warning once when two runs race to record it, the second waiting for the first to commit', async () => {
    const providerId = await ownProvider();
    const warning = { kind: 'provider_low_balance', providerId, message: 'refused for lack of balance' } as const;
    let second: Promise<void> = Promise.resolve();
    await withDb((db) =>
      db.transaction(async (tx) => {
        // The first run's warning, not yet committed: the second run's statement cannot see it.
        await recordWarningOnce(tx, warning);
        let settled = false;
        second = withDb((db) => recordWarningOnce(db, { ...warning, message: 'refused again, at the same moment' })).finally(() => {
          settled = true;
        });
        const waitingForTheFirst = async () => {
          while (!settled) {
            const { rows } = await withDb((db) =>
              db.execute<{ waiting: number }>(sql`
                select count(*)::int as waiting from pg_stat_activity
                where wait_event_type = 'Lock' and query like '%insert into%recorded_once%do nothing%' and pid <> pg_backend_pid()`),
            );
            if (rows[0].waiting > 0) return 'waiting';
            await new Promise((resolve) => setTimeout(resolve, 20));
          }
          return 'done';
        };
        // Without the unique index of unread warnings recorded once, the second inserts at once (a duplicate).
        expect(await Promise.race([second.then(() => 'done'), waitingForTheFirst()])).toBe('waiting');
      }),
    );
    await second;
    expect(await warningsOf(providerId)).toEqual([{ kind: 'provider_low_balance', orderId: null, message: 'refused for lack of balance', details: {} }]);
  });

  it('records every warning given, a statement per thousand, and nothing for none', async () => {
    const providerId = await ownProvider();
    const many = Array.from({ length: 1001 }, (_, at) => ({ kind: 'service_missing' as const, providerId, message: `service ${at} is gone` }));
    const { httpCalls } = await countingRoundTrips((db) => recordWarnings(db, many));
    expect(httpCalls).toBe(2);
    const none = await countingRoundTrips((db) => recordWarnings(db, []));
    expect(none.httpCalls).toBe(0);
    const recorded = await warningsOf(providerId);
    expect(recorded).toHaveLength(1001);
    expect(new Set(recorded.map((warning) => warning.message)).size).toBe(1001);
  });
});
