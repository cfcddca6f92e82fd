// The recent reconciliation reads only what was written since a moment, and still finds whatever went wrong
// in it: a wallet off its ledger, a running balance that does not follow, a successful payment left uncredited. What went
// wrong before that moment is left to the full run, which finds it too (the daily run's choice between them is in
// reconciliation.test.ts). Planted states are rolled back.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../../worker/db';
import { applyLedgerEntry } from '../../../worker/services/money/ledger';
import { reconcile } from '../../../worker/services/money/reconciliation';
import { registerAndLogin, rolledBack } from '../../support/api';

const DAY = 24 * 60 * 60_000;
const credit = (tx: DbOrTx, userId: number, amountKobo: bigint, sourceRef: string) =>
  applyLedgerEntry(tx, { userId, direction: 'credit', amountKobo, source: 'admin_credit', sourceRef, description: 'planted credit' });

describe('the recent reconciliation', () => {
  it('finds a wallet off its ledger, a broken running balance and an uncredited payment of the latest day', async () => {
    const off = await registerAndLogin();
    const broken = await registerAndLogin();
    const payer = await registerAndLogin();
    await rolledBack(async (tx) => {
      await credit(tx, off.id, 100_000n, `planted-off-${off.id}`);
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

      const report = await reconcile(tx, undefined, { kind: 'recent', since: new Date(Date.now() - DAY) });
      expect(report).toMatchObject({ ok: false, scope: 'recent', since: expect.any(String) });
      expect(report.balanceMismatches).toContainEqual({ userId: off.id, balance: '1005.00', ledger: '1000.00' });
      expect(report.brokenRunningBalances).toContainEqual({ userId: broken.id, transactionId: Number(row.id) });
      // Credited once: not a finding. Its credit gone, it is.
      expect(report.paymentMismatches.filter((m) => m.reference === reference)).toEqual([]);
      await tx.execute(sql`delete from wallet_transactions where source_kind = 'payment' and source_ref = ${reference}`);
      const uncredited = await reconcile(tx, undefined, { kind: 'recent', since: new Date(Date.now() - DAY) });
      expect(uncredited.paymentMismatches).toContainEqual({ reference, status: 'success', credits: 0 });
    });
  });

  it('leaves what went wrong before its moment to the full run, which finds it', async () => {
    const old = await registerAndLogin();
    await rolledBack(async (tx) => {
      // Ten days ago, a ledger row the wallet never took.
      await tx.execute(sql`
        insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description, created_at)
        values (${old.id}, 1, 700, 700, 'admin_credit', ${`planted-old-${old.id}`}, 'planted row', now() - interval '10 days')`);
      await tx.execute(sql`update wallets set updated_at = now() - interval '10 days' where user_id = ${old.id}`);

      const recent = await reconcile(tx, undefined, { kind: 'recent', since: new Date(Date.now() - DAY) });
      expect(recent.balanceMismatches.filter((m) => m.userId === old.id)).toEqual([]);
      const full = await reconcile(tx);
      expect(full.scope).toBe('full');
      expect(full.balanceMismatches).toContainEqual({ userId: old.id, balance: '0.00', ledger: '7.00' });
    });
  });
});
