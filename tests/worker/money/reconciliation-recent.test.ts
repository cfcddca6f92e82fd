// The recent reconciliation reads only what was written since a moment, and still finds whatever went wrong
// in it: a wallet off its ledger, a running balance that does not follow, a successful payment left uncredited. What went
// wrong before that moment is left to the full run, which finds it too (the hourly run's choice between them is in
// reconciliation.test.ts). A deposit's commission is read again when it was credited since, not every day of its
// life. Planted states are rolled back.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../../worker/db';
import { applyLedgerEntry } from '../../../worker/services/money/ledger';
import { reconcile } from '../../../worker/services/money/reconciliation';
import { registerAndLogin, rolledBack } from '../../support/api';

const DAY = 24 * 60 * 60_000;
const credit = (tx: DbOrTx, userId: number, amountKobo: bigint, sourceRef: string) =>
  applyLedgerEntry(tx, { userId, direction: 'credit', amountKobo, source: 'admin_credit', sourceRef, description: 'planted credit' });

/** A deposit of NGN 1,000 ten days ago and its NGN 50 commission, released then; its credit is the caller's to plant. */
const releasedTenDaysAgo = (tx: DbOrTx, { reference, referrerId, referredId }: { reference: string; referrerId: number; referredId: number }) =>
  tx.execute(sql`
    with intent as (
      insert into payment_intents (reference, user_id, provider, amount_kobo, status, settled_at, created_at)
      values (${reference}, ${referredId}, 'paystack', 100000, 'success', now() - interval '10 days', now() - interval '10 days')
      returning id
    )
    insert into referral_commissions (referrer_id, referred_user_id, payment_intent_id, deposit_kobo, commission_kobo, rate_bps,
      created_at, release_at, released_at, credited_kobo)
    select ${referrerId}, ${referredId}, id, 100000, 5000, 500, now() - interval '10 days', now() - interval '10 days', now() - interval '10 days', 5000
    from intent`);

describe('the recent reconciliation', () => {
  it('finds a wallet off its ledger, a broken running balance and an uncredited payment of the latest day', async () => {
    const off = await registerAndLogin();
    const broken = await registerAndLogin();
    const payer = await registerAndLogin();
    const referrer = await registerAndLogin();
    // Their last rows were written before the moment: a wallet moved since with no row, and a first row since that does not follow.
    const movedWithoutRow = await registerAndLogin();
    const brokenFirst = await registerAndLogin();
    await rolledBack(async (tx) => {
      await credit(tx, off.id, 100_000n, `planted-off-${off.id}`);
      for (const user of [movedWithoutRow, brokenFirst])
        await tx.execute(sql`
          insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description, created_at)
          values (${user.id}, 1, 700, 700, 'admin_credit', ${`planted-before-${user.id}`}, 'planted row', now() - interval '10 days')`);
      await tx.execute(sql`update wallets set balance_kobo = 900, updated_at = now() where user_id = ${movedWithoutRow.id}`);
      const [firstSince] = (
        await tx.execute<{ id: string }>(sql`
          insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description)
          values (${brokenFirst.id}, 1, 100, 900, 'admin_credit', ${`planted-first-${brokenFirst.id}`}, 'planted row') returning id`)
      ).rows;
      await tx.execute(sql`update wallets set balance_kobo = 900, updated_at = now() where user_id = ${brokenFirst.id}`);
      await tx.execute(sql`update wallets set balance_kobo = balance_kobo + 500 where user_id = ${off.id}`);

      await credit(tx, broken.id, 100_000n, `planted-broken-a-${broken.id}`);
      const [row] = (
        await tx.execute<{ id: string }>(sql`
          insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description)
          values (${broken.id}, 1, 1000, 999999, 'admin_credit', ${`planted-broken-b-${broken.id}`}, 'planted row') returning id`)
      ).rows;

      const reference = `planted-pay-${payer.id}`;
      await tx.execute(sql`
        insert into payment_intents (reference, user_id, provider, amount_kobo, status, settled_at)
        values (${reference}, ${payer.id}, 'paystack', 200000, 'success', now())`);
      await applyLedgerEntry(tx, {
        userId: payer.id,
        direction: 'credit',
        amountKobo: 200_000n,
        source: 'payment',
        sourceRef: reference,
        description: 'deposit',
      });

      // A commission released ten days ago and credited only now, short of what it records.
      const lateCredit = `planted-late-credit-${payer.id}`;
      await releasedTenDaysAgo(tx, { reference: lateCredit, referrerId: referrer.id, referredId: payer.id });
      await applyLedgerEntry(tx, {
        userId: referrer.id,
        direction: 'credit',
        amountKobo: 4_000n,
        source: 'referral_commission',
        sourceRef: lateCredit,
        description: 'planted commission',
      });

      const report = await reconcile(tx, undefined, { kind: 'recent', since: new Date(Date.now() - DAY) });
      expect(report).toMatchObject({ ok: false, scope: 'recent', since: expect.any(String) });
      expect(report.commissionMismatches).toContainEqual({ reference: lateCredit, recorded: '50.00', credited: '40.00' });
      expect(report.balanceMismatches).toContainEqual({ userId: off.id, balance: '1005.00', ledger: '1000.00' });
      expect(report.brokenRunningBalances).toContainEqual({ userId: broken.id, transactionId: Number(row.id) });
      expect(report.balanceMismatches).toContainEqual({ userId: movedWithoutRow.id, balance: '9.00', ledger: '7.00' });
      expect(report.brokenRunningBalances).toContainEqual({ userId: brokenFirst.id, transactionId: Number(firstSince.id) });
      // Its wallet follows its last row, which is all the balance check asks.
      expect(report.balanceMismatches.filter((m) => m.userId === brokenFirst.id)).toEqual([]);
      // Credited once: not a finding. Its credit gone, it is.
      expect(report.paymentMismatches.filter((m) => m.reference === reference)).toEqual([]);
      await tx.execute(sql`delete from wallet_transactions where source_kind = 'payment' and source_ref = ${reference}`);
      const uncredited = await reconcile(tx, undefined, { kind: 'recent', since: new Date(Date.now() - DAY) });
      expect(uncredited.paymentMismatches).toContainEqual({ reference, status: 'success', credits: 0 });
    });
  });

  it('leaves what went wrong before its moment to the full run, which finds it', async () => {
    const old = await registerAndLogin();
    const friend = await registerAndLogin();
    await rolledBack(async (tx) => {
      // Ten days ago, a ledger row the wallet never took.
      await tx.execute(sql`
        insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description, created_at)
        values (${old.id}, 1, 700, 700, 'admin_credit', ${`planted-old-${old.id}`}, 'planted row', now() - interval '10 days')`);
      await tx.execute(sql`update wallets set updated_at = now() - interval '10 days' where user_id = ${old.id}`);

      // Ten days ago too: a commission credit with no commission, and a commission released with no credit.
      const orphan = `planted-old-orphan-${old.id}`;
      await tx.execute(sql`
        insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description, created_at)
        values (${old.id}, 1, 300, 1000, 'referral_commission', ${orphan}, 'planted commission', now() - interval '10 days')`);
      const uncredited = `planted-old-uncredited-${old.id}`;
      await releasedTenDaysAgo(tx, { reference: uncredited, referrerId: old.id, referredId: friend.id });
      const planted = (report: Awaited<ReturnType<typeof reconcile>>) =>
        report.commissionMismatches.filter((m) => m.reference === orphan || m.reference === uncredited);

      const recent = await reconcile(tx, undefined, { kind: 'recent', since: new Date(Date.now() - DAY) });
      expect(recent.balanceMismatches.filter((m) => m.userId === old.id)).toEqual([]);
      expect(planted(recent)).toEqual([]);
      const full = await reconcile(tx);
      expect(full.scope).toBe('full');
      expect(full.balanceMismatches).toContainEqual({ userId: old.id, balance: '0.00', ledger: '10.00' });
      expect(planted(full)).toEqual(
        expect.arrayContaining([
          { reference: orphan, recorded: null, credited: '3.00' },
          { reference: uncredited, recorded: '50.00', credited: null },
        ]),
      );
    });
  });

  it('reads a commission credited since on an older deposit, and leaves one credited before its moment to the full run', async () => {
    const payer = await registerAndLogin();
    const referrer = await registerAndLogin();
    for (const creditedDaysAgo of [0, 10]) {
      await rolledBack(async (tx) => {
        // A deposit of ten days ago whose NGN 100 commission was credited NGN 150: NGN 50 with nothing behind it.
        const reference = `planted-commission-${payer.id}-${creditedDaysAgo}`;
        const [payment] = (
          await tx.execute<{ id: string }>(sql`
            insert into payment_intents (reference, user_id, provider, amount_kobo, status, settled_at, created_at)
            values (${reference}, ${payer.id}, 'paystack', 200000, 'success', now() - interval '10 days', now() - interval '10 days')
            returning id`)
        ).rows;
        const creditedAt = sql`now() - make_interval(days => ${creditedDaysAgo})`;
        await tx.execute(sql`
          insert into referral_commissions (referrer_id, referred_user_id, payment_intent_id, deposit_kobo, commission_kobo, rate_bps,
            created_at, release_at, released_at, credited_kobo)
          values (${referrer.id}, ${payer.id}, ${payment.id}, 200000, 10000, 500, now() - interval '10 days', ${creditedAt}, ${creditedAt}, 10000)`);
        await tx.execute(sql`
          insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description, created_at)
          values (${referrer.id}, 1, 15000, 15000, 'referral_commission', ${reference}, 'planted commission', ${creditedAt})`);
        const unbackedOf = (report: Awaited<ReturnType<typeof reconcile>>) =>
          report.unbacked.findings.filter((finding) => finding.reference === reference).map(({ userId, cause, amount }) => ({ userId, cause, amount }));
        const expected = [{ userId: referrer.id, cause: 'commission_not_backed', amount: '50.00' }];

        const recent = await reconcile(tx, undefined, { kind: 'recent', since: new Date(Date.now() - DAY) });
        expect(unbackedOf(recent), `credited ${creditedDaysAgo} days ago`).toEqual(creditedDaysAgo === 0 ? expected : []);
        expect(unbackedOf(await reconcile(tx))).toEqual(expected);
      });
    }
  });
});
