// The reconciliation against the outside world: credit a wallet holds with nothing behind it is found by
// user and cause, from the provider's recorded events (a planted refund that never took the money back, and
// the commission it leaves unbacked) and from asking the provider again (a refund it never told us of); the
// hourly run from the cron runs once an hour, over what was written since the last clean run began (everything when none
// was clean, and weekly). Planted states live in a transaction that is rolled back.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { paymentIntents, paymentReversals, referralCommissions, settings } from '../../../drizzle/schema';
import type { Db } from '../../../worker/db';
import { applyLedgerEntry } from '../../../worker/services/money/ledger';
import { hourlyReconciliation, type ReconciliationScope, reconcile } from '../../../worker/services/money/reconciliation';
import { call, createAdmin, registerAndLogin, rolledBack, withDb } from '../../support/api';
import { deliverPaystackHook, depositByCard, paystackFake } from '../fixtures/paystack-fixtures';

describe('credit with nothing behind it', () => {
  it('is found by user and cause when a refund was recorded but took nothing back, with the commission it paid', async () => {
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin();
    const reference = await depositByCard(friend, 10_000);
    expect((await withDb((db) => reconcile(db))).unbacked.findings.filter((finding) => finding.reference === reference)).toEqual([]);

    await rolledBack(async (tx) => {
      const [intent] = await tx.select().from(paymentIntents).where(eq(paymentIntents.reference, reference));
      // A released 5% commission on the deposit, as the referral programme pays it: backed while the deposit is kept.
      await tx.insert(referralCommissions).values({
        referrerId: referrer.id,
        referredUserId: friend.id,
        paymentIntentId: intent.id,
        depositKobo: 1_000_000n,
        commissionKobo: 50_000n,
        rateBps: 500,
        releasedAt: new Date(),
        creditedKobo: 50_000n,
      });
      await applyLedgerEntry(tx, {
        userId: referrer.id,
        direction: 'credit',
        amountKobo: 50_000n,
        source: 'referral_commission',
        sourceRef: reference,
        description: 'planted commission',
      });
      expect((await reconcile(tx)).unbacked.findings.filter((finding) => finding.reference === reference)).toEqual([]);

      // The old bug: the provider's refund of 4,000 is on record, but neither wallet gave anything back.
      await tx.insert(paymentReversals).values({
        intentId: intent.id,
        userId: friend.id,
        provider: 'paystack',
        kind: 'refund',
        eventKey: `planted-${reference}`,
        status: 'taken',
        amountKobo: 400_000n,
      });
      const report = await reconcile(tx);
      expect(report.ok).toBe(false);
      const mine = report.unbacked.findings.filter((finding) => finding.reference === reference);
      expect(mine).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ userId: friend.id, email: friend.email, cause: 'payment_not_kept', amount: '4000.00' }),
          expect.objectContaining({ userId: referrer.id, email: referrer.email, cause: 'commission_not_backed', amount: '200.00' }),
          expect.objectContaining({ userId: friend.id, cause: 'reversal_state', amount: '4000.00' }),
        ]),
      );
      expect(mine).toHaveLength(3);
      expect(BigInt(report.unbacked.total.replace('.', ''))).toBeGreaterThanOrEqual(420_000n);
    });
    expect((await withDb((db) => reconcile(db))).unbacked.findings.filter((finding) => finding.reference === reference)).toEqual([]);
  });

  it('is found when the provider, asked again, no longer calls a credited payment paid, and gone once its refund arrives', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = await depositByCard(user, 3000);
    const { webhook } = await paystackFake('/__refund', { reference });

    const before = await call('admin/reconciliation', { token: admin.accessToken });
    expect(before.status, JSON.stringify(before.body)).toBe(200);
    expect(before.body.data.providerChecks.checked).toBeGreaterThan(0);
    expect(before.body.data.unbacked.findings.filter((finding: { reference: string }) => finding.reference === reference)).toEqual([
      expect.objectContaining({ userId: user.id, cause: 'provider_disagrees', amount: '3000.00', detail: expect.stringContaining('reversed') }),
    ]);
    expect(before.body.data.ok).toBe(false);

    expect(await deliverPaystackHook(webhook)).toBe('Webhook processed');
    const after = await call('admin/reconciliation', { token: admin.accessToken });
    expect(after.body.data.unbacked.findings.filter((finding: { reference: string }) => finding.reference === reference)).toEqual([]);
  });
});

describe('the provider checks beside the ledger checks', () => {
  const verifyCalls = (spy: { mock: { calls: unknown[][] } }) =>
    spy.mock.calls.filter(([input]) => String(input instanceof Request ? input.url : input).includes('/transaction/verify/')).length;

  it('asks the providers while the scope is still being read, then checks the ledger over that scope', async () => {
    const user = await registerAndLogin();
    await depositByCard(user, 1500);
    const fetchSpy = vi.spyOn(globalThis, 'fetch');
    try {
      let settle!: (scope: ReconciliationScope) => void;
      const scope = new Promise<ReconciliationScope>((resolve) => {
        settle = resolve;
      });
      const reconciling = withDb((db) => reconcile(db, env, scope));
      // Were the providers asked only once the scope is known, this would wait forever.
      await expect.poll(() => verifyCalls(fetchSpy), { timeout: 30_000, interval: 50 }).toBeGreaterThan(0);
      const since = new Date(Date.now() - 60_000);
      settle({ kind: 'recent', since });
      const report = await reconciling;
      expect(report).toMatchObject({ scope: 'recent', since: since.toISOString() });
      expect(report.providerChecks.checked).toBeGreaterThan(0);
    } finally {
      fetchSpy.mockRestore();
    }
  });

  it("fails with the scope's own error when the last run cannot be read", async () => {
    await expect(withDb((db) => reconcile(db, env, Promise.reject(new Error('settings unreadable'))))).rejects.toThrow('settings unreadable');
  });
});

const DAY = 24 * 60 * 60_000;

describe('commissions against their credits', () => {
  it('finds a credit with no commission, a released commission never credited, a held one credited, and a credit of the wrong amount or person', async () => {
    const referrer = await registerAndLogin();
    const friend = await registerAndLogin();
    const stranger = await registerAndLogin();
    await rolledBack(async (tx) => {
      const commissionOn = async (tag: string, released: boolean, creditedKobo: bigint) => {
        const reference = `planted-${tag}-${friend.id}`;
        const [intent] = await tx
          .insert(paymentIntents)
          .values({ reference, userId: friend.id, provider: 'paystack', amountKobo: 100_000n, status: 'success', settledAt: new Date() })
          .returning();
        await tx.insert(referralCommissions).values({
          referrerId: referrer.id,
          referredUserId: friend.id,
          paymentIntentId: intent.id,
          depositKobo: 100_000n,
          commissionKobo: 5_000n,
          rateBps: 500,
          releasedAt: released ? new Date() : null,
          creditedKobo,
        });
        return reference;
      };
      const creditCommission = (userId: number, reference: string, amountKobo: bigint) =>
        applyLedgerEntry(tx, { userId, direction: 'credit', amountKobo, source: 'referral_commission', sourceRef: reference, description: 'planted' });

      const clean = await commissionOn('clean', true, 5_000n);
      await creditCommission(referrer.id, clean, 5_000n);
      const orphan = `planted-orphan-${friend.id}`;
      await creditCommission(referrer.id, orphan, 300n);
      const uncredited = await commissionOn('uncredited', true, 5_000n);
      const heldButCredited = await commissionOn('held', false, 0n);
      await creditCommission(referrer.id, heldButCredited, 200n);
      const wrongAmount = await commissionOn('amount', true, 5_000n);
      await creditCommission(referrer.id, wrongAmount, 4_000n);
      const wrongPerson = await commissionOn('person', true, 5_000n);
      await creditCommission(stranger.id, wrongPerson, 5_000n);

      const planted = new Set([clean, orphan, uncredited, heldButCredited, wrongAmount, wrongPerson]);
      for (const scope of [{ kind: 'full' as const }, { kind: 'recent' as const, since: new Date(Date.now() - DAY) }]) {
        const found = (await reconcile(tx, undefined, scope)).commissionMismatches.filter((m) => planted.has(m.reference));
        expect(found, scope.kind).toEqual(
          expect.arrayContaining([
            { reference: orphan, recorded: null, credited: '3.00' },
            { reference: uncredited, recorded: '50.00', credited: null },
            { reference: heldButCredited, recorded: '0.00', credited: '2.00' },
            { reference: wrongAmount, recorded: '50.00', credited: '40.00' },
            { reference: wrongPerson, recorded: '50.00', credited: '50.00' },
          ]),
        );
        expect(found, scope.kind).toHaveLength(5);
      }
    });
  });
});

describe('the hourly reconciliation', () => {
  const claimedAgo = (minutes: number) =>
    withDb((db) =>
      db
        .update(settings)
        .set({ updatedAt: new Date(Date.now() - minutes * 60_000) })
        .where(eq(settings.key, 'reconciliation')),
    );

  it('runs once an hour however often the cron fires', async () => {
    await withDb((db) => db.delete(settings).where(eq(settings.key, 'reconciliation')));
    const first = await withDb((db) => hourlyReconciliation(db, env));
    expect(first).toMatchObject({ ran: true, ok: expect.any(Boolean) });
    expect(await withDb((db) => hourlyReconciliation(db, env))).toEqual({ ran: false });
    const [saved] = await withDb((db) => db.select().from(settings).where(eq(settings.key, 'reconciliation')));
    expect(saved.value).toMatchObject({ checkedAt: expect.any(String), findings: first.findings });
    // Claimed 59 minutes ago: not yet; 61 minutes ago: the next hour's run.
    await claimedAgo(59);
    expect(await withDb((db) => hourlyReconciliation(db, env))).toEqual({ ran: false });
    await claimedAgo(61);
    expect(await withDb((db) => hourlyReconciliation(db, env))).toMatchObject({ ran: true });
  });

  it('runs once when two crons fire at the same moment, with or without a run before', async () => {
    const ranOf = async () => {
      const runs = await Promise.all([withDb((db) => hourlyReconciliation(db, env)), withDb((db) => hourlyReconciliation(db, env))]);
      return runs.filter((run) => run.ran).length;
    };
    await withDb((db) => db.delete(settings).where(eq(settings.key, 'reconciliation')));
    expect(await ranOf()).toBe(1);
    await claimedAgo(61);
    expect(await ranOf()).toBe(1);
  });

  it('gives its hour back when the run fails before its verdict, so the next cron runs it', async () => {
    await withDb((db) => db.delete(settings).where(eq(settings.key, 'reconciliation')));
    // The claim goes through; the run's first read of the payments fails, as when the connection drops mid-run.
    const readsFail = (db: Db) =>
      new Proxy(db, {
        get: (target, key, receiver) =>
          key === 'select'
            ? () => {
                throw new Error('connection lost mid-run');
              }
            : Reflect.get(target, key, receiver),
      });
    await expect(withDb((db) => hourlyReconciliation(readsFail(db), env))).rejects.toThrow('connection lost mid-run');
    expect(await withDb((db) => hourlyReconciliation(db, env))).toMatchObject({ ran: true });
    expect(await withDb((db) => hourlyReconciliation(db, env))).toEqual({ ran: false });
  });

  const lastRun = (value: Record<string, unknown>) =>
    withDb((db) =>
      db
        .insert(settings)
        .values({ key: 'reconciliation', value, updatedAt: new Date(Date.now() - 2 * DAY) })
        .onConflictDoUpdate({ target: settings.key, set: { value, updatedAt: new Date(Date.now() - 2 * DAY) } }),
    );
  const saved = async () => (await withDb((db) => db.select().from(settings).where(eq(settings.key, 'reconciliation'))))[0].value as Record<string, unknown>;

  it('reads since the last clean run began, less an hour, and keeps that moment until a run is clean', async () => {
    const cleanSince = new Date(Date.now() - 2 * DAY).toISOString();
    const lastFullAt = new Date(Date.now() - 3 * DAY).toISOString();
    await lastRun({ checkedAt: cleanSince, ok: true, cleanSince, lastFullAt });
    const run = await withDb((db) => hourlyReconciliation(db, env));
    expect(run).toMatchObject({ ran: true, scope: 'recent' });
    const after = await saved();
    expect(after).toMatchObject({ scope: 'recent', lastFullAt, ok: run.ok });
    // Clean: the next run reads from this one's start; not clean: still from the last clean one's.
    if (run.ok) expect(Date.parse(String(after.cleanSince))).toBeGreaterThan(Date.parse(cleanSince));
    else expect(after.cleanSince).toBe(cleanSince);
  });

  it('reads everything when no run was clean, and a week after the last full run', async () => {
    await lastRun({ checkedAt: new Date().toISOString(), ok: false });
    expect(await withDb((db) => hourlyReconciliation(db, env))).toMatchObject({ ran: true, scope: 'full' });
    expect(await saved()).toMatchObject({ scope: 'full', lastFullAt: expect.any(String) });

    const cleanSince = new Date(Date.now() - DAY).toISOString();
    await lastRun({ ok: true, cleanSince, lastFullAt: new Date(Date.now() - 8 * DAY).toISOString() });
    expect(await withDb((db) => hourlyReconciliation(db, env))).toMatchObject({ ran: true, scope: 'full' });
  });
});
