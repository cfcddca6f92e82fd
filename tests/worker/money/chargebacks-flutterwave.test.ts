// Flutterwave's refunds and chargebacks against this file's copy of its sandbox: the fake's
// /__refund and /__chargeback controls send the verif-hash webhooks, whose refund and chargeback
// objects name the transaction only by Flutterwave's id (the shop asks Flutterwave for its tx_ref).
// Money moves once per refund or chargeback however often its webhooks come; the books reconcile
// at the end of each test (withPaymentSettings checks them before rolling back).
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { wallets, walletTransactions } from '../../../drizzle/schema';
import type { Db } from '../../../worker/db';
import { applyLedgerEntry, walletDebtMessage } from '../../../worker/services/money/ledger';
import { handlePaymentWebhook, startDeposit } from '../../../worker/services/money/payments';
import { registerAndLogin, type TestAccount, unique } from '../../support/api';
import { TEST_SECRETS } from '../../support/secrets';
import { reversalsWithMoves, withPaymentSettings } from '../fixtures/payment-fixtures';
import { fakeScope } from '../providers/fake-scope';

const flutterwave = fakeScope(inject('flutterwaveUrl'));
const bindings = { ...env, FLUTTERWAVE_BASE_URL: flutterwave.url };
const HASH = TEST_SECRETS.FLUTTERWAVE_SECRET_HASH;
const settings = { provider: 'flutterwave' as const, keys: { flutterwaveSecretKey: TEST_SECRETS.FLUTTERWAVE_SECRET_KEY, flutterwaveWebhookHash: HASH } };

interface Hook {
  event: string;
  reference: string;
  body: string;
  signature: string;
}

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;
const deliver = (db: Db, hook: Pick<Hook, 'body' | 'signature'>) =>
  handlePaymentWebhook(db, bindings, 'flutterwave', bytes(hook.body), new Headers({ 'verif-hash': hook.signature }));

async function creditedDeposit(db: Db, user: TestAccount, amount: string): Promise<string> {
  const deposit = await startDeposit(db, bindings, { id: user.id, email: user.email }, amount);
  await fetch(deposit.checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
  const { webhooks } = (await flutterwave.get('/__webhooks')) as { webhooks: Hook[] };
  const credit = webhooks.find((hook) => hook.reference === deposit.reference && hook.event === 'charge.completed')!;
  expect(await deliver(db, credit)).toBe('processed');
  return deposit.reference;
}

async function walletOf(db: Db, userId: number) {
  const [wallet] = await db.select({ balance: wallets.balanceKobo, debt: wallets.debtKobo }).from(wallets).where(eq(wallets.userId, userId));
  return wallet;
}

/** Money an administrator takes or gives outside any payment, described as `why`. */
const byAdministrator = (db: Db, userId: number, direction: 'credit' | 'debit', amountKobo: bigint, why: string) =>
  applyLedgerEntry(db, { userId, direction, amountKobo, source: `admin_${direction}`, sourceRef: unique(why), description: why });

const entriesOf = (db: Db, userId: number, source: string) =>
  db
    .select()
    .from(walletTransactions)
    .where(and(eq(walletTransactions.userId, userId), eq(walletTransactions.sourceKind, source)));

describe('Flutterwave refunds and chargebacks', () => {
  it('a chargeback takes back what is left and owes the rest once; lost, it stays taken and the next deposit settles it', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings(settings, async (db) => {
      const reference = await creditedDeposit(db, user, '3000');
      await byAdministrator(db, user.id, 'debit', 100_000n, 'spent');

      const { chargeback, webhook } = await flutterwave.post('/__chargeback', { tx_ref: reference });
      expect(JSON.parse(webhook.body)).toMatchObject({ event: 'chargeback.created', data: { status: 'initiated', amount: 3000 } });
      expect(JSON.parse(webhook.body).data.tx_ref).toBeUndefined();
      await expect(deliver(db, { body: webhook.body, signature: 'forged' })).rejects.toThrow('Invalid webhook signature');
      for (let delivery = 0; delivery < 3; delivery++) expect(await deliver(db, webhook)).toBe('processed');
      expect(await walletOf(db, user.id)).toEqual({ balance: 0n, debt: 100_000n });
      // Even with money in the wallet again (an administrator's credit), no order is paid while the debt is owed.
      await byAdministrator(db, user.id, 'credit', 50_000n, 'goodwill');
      await expect(
        applyLedgerEntry(db, { userId: user.id, direction: 'debit', amountKobo: 100n, source: 'order', sourceRef: unique('order'), description: 'order' }),
      ).rejects.toThrow(walletDebtMessage(100_000n));

      const { webhook: lost } = await flutterwave.post('/__chargeback/resolve', { id: chargeback.id, status: 'lost' });
      expect(await deliver(db, lost)).toBe('processed');
      expect(await deliver(db, webhook)).toBe('processed');
      expect(await walletOf(db, user.id)).toEqual({ balance: 50_000n, debt: 100_000n });
      const [reversal] = await reversalsWithMoves(db, user.id);
      expect(reversal).toMatchObject({ provider: 'flutterwave', kind: 'dispute', status: 'dispute_lost', takenKobo: 200_000n, debtKobo: 100_000n });

      await creditedDeposit(db, user, '2000');
      expect(await walletOf(db, user.id)).toEqual({ balance: 150_000n, debt: 0n });
    });
  });

  it('a partial refund takes its amount once; a chargeback won gives back all it took and clears its debt', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings(settings, async (db) => {
      const reference = await creditedDeposit(db, user, '2000');
      const { webhook: refunded } = await flutterwave.post('/__refund', { tx_ref: reference, amount: '500' });
      expect(JSON.parse(refunded.body)).toMatchObject({ event: 'refund.completed', data: { amount_refunded: 500, status: 'completed' } });
      for (let delivery = 0; delivery < 3; delivery++) expect(await deliver(db, refunded)).toBe('processed');
      expect(await walletOf(db, user.id)).toEqual({ balance: 150_000n, debt: 0n });

      await byAdministrator(db, user.id, 'debit', 100_000n, 'spent');
      const { chargeback, webhook } = await flutterwave.post('/__chargeback', { tx_ref: reference });
      expect(await deliver(db, webhook)).toBe('processed');
      expect(await walletOf(db, user.id)).toEqual({ balance: 0n, debt: 100_000n });
      const { webhook: won } = await flutterwave.post('/__chargeback/resolve', { id: chargeback.id, status: 'won' });
      expect(await deliver(db, won)).toBe('processed');
      expect(await deliver(db, won)).toBe('processed');
      expect(await walletOf(db, user.id)).toEqual({ balance: 50_000n, debt: 0n });
      expect((await entriesOf(db, user.id, 'chargeback')).map((entry) => entry.amountKobo).sort()).toEqual([50_000n, 50_000n]);
      expect(await entriesOf(db, user.id, 'chargeback_return')).toEqual([expect.objectContaining({ amountKobo: 150_000n })]);
    });
  });

  it('moves nothing for a chargeback status it does not know', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings(settings, async (db) => {
      const reference = await creditedDeposit(db, user, '1000');
      const { webhook } = await flutterwave.post('/__chargeback', { tx_ref: reference });
      const strange = JSON.parse(webhook.body);
      strange.data.status = 'escalated-to-mars';
      expect(await deliver(db, { body: JSON.stringify(strange), signature: HASH })).toBe('ignored');
      expect(await walletOf(db, user.id)).toEqual({ balance: 100_000n, debt: 0n });
    });
  });
});
