// Funding a wallet through Flutterwave, end to end against this file's copy of the sandbox: the
// deposit starts, the payer pays on the hosted page, Flutterwave's webhook (verif-hash) credits the
// wallet exactly once however often it comes, and the return page confirms without a second credit.
import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { Db } from '../../../worker/db';
import { handlePaymentWebhook, startDeposit } from '../../../worker/services/money/payments';
import { registerAndLogin, type TestAccount } from '../../support/api';
import { TEST_SECRETS } from '../../support/secrets';
import { balanceKobo, verifyAsPayer, withPaymentSettings } from '../fixtures/payment-fixtures';
import { fakeScope } from '../providers/fake-scope';

const flutterwave = fakeScope(inject('flutterwaveUrl'));
const bindings = { ...env, FLUTTERWAVE_BASE_URL: flutterwave.url };
const HASH = TEST_SECRETS.FLUTTERWAVE_SECRET_HASH;
const keys = (secretKey: string) => ({ flutterwaveSecretKey: secretKey, flutterwaveWebhookHash: HASH });

const bytes = (text: string) => new TextEncoder().encode(text).buffer as ArrayBuffer;

async function webhookFor(reference: string): Promise<{ body: string; signature: string }> {
  const { webhooks } = (await flutterwave.get('/__webhooks')) as { webhooks: Array<{ reference: string; body: string; signature: string }> };
  const [hook] = webhooks.filter((candidate) => candidate.reference === reference);
  return hook;
}

/** Starts a deposit and pays it on the sandbox's hosted page, as the payer's browser does. */
async function depositAndPay(db: Db, user: TestAccount, amount: string) {
  const deposit = await startDeposit(db, bindings, { id: user.id, email: user.email }, amount);
  const paid = await fetch(deposit.checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
  expect(new URL(paid.headers.get('location') ?? '').searchParams.get('status')).toBe('successful');
  return deposit;
}

describe('wallet funding through Flutterwave', () => {
  it('credits once from the verif-hash webhook, however often it comes, and the return page agrees', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings({ provider: 'flutterwave', keys: keys(TEST_SECRETS.FLUTTERWAVE_SECRET_KEY) }, async (db) => {
      const deposit = await depositAndPay(db, user, '1234.50');
      expect(deposit.checkoutUrl.startsWith(`${flutterwave.url}/v3/hosted/pay/`)).toBe(true);
      const hook = await webhookFor(deposit.reference);
      expect(hook.signature).toBe(HASH);

      await expect(handlePaymentWebhook(db, bindings, 'flutterwave', bytes(hook.body), new Headers({ 'verif-hash': 'forged' }))).rejects.toThrow(
        'Invalid webhook signature',
      );
      expect(await balanceKobo(db, user.id)).toBe(0n);

      for (let delivery = 0; delivery < 3; delivery++) {
        expect(await handlePaymentWebhook(db, bindings, 'flutterwave', bytes(hook.body), new Headers({ 'verif-hash': hook.signature }))).toBe('processed');
      }
      expect(await balanceKobo(db, user.id)).toBe(123_450n);
      const confirmed = await verifyAsPayer(db, bindings, user.id, {
        checkoutUrl: deposit.checkoutUrl,
        signature: deposit.signature,
        amount: String(deposit.amount),
      });
      expect(confirmed).toBe(2);
      expect(await balanceKobo(db, user.id)).toBe(123_450n);
    });
  });

  it('credits a declined payment nothing', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings({ provider: 'flutterwave', keys: keys(TEST_SECRETS.FLUTTERWAVE_SECRET_KEY) }, async (db) => {
      const deposit = await startDeposit(db, bindings, { id: user.id, email: user.email }, '500');
      await fetch(deposit.checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'failed' }), redirect: 'manual' });
      const hook = await webhookFor(deposit.reference);
      expect(await handlePaymentWebhook(db, bindings, 'flutterwave', bytes(hook.body), new Headers({ 'verif-hash': hook.signature }))).toBe('processed');
      expect(
        await verifyAsPayer(db, bindings, user.id, { checkoutUrl: deposit.checkoutUrl, signature: deposit.signature, amount: String(deposit.amount) }),
      ).toBe(3);
      expect(await balanceKobo(db, user.id)).toBe(0n);
    });
  });

  it('takes live payments with a live key in live mode, and refuses a test key there', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings({ provider: 'flutterwave', mode: 'live', keys: keys(TEST_SECRETS.FLUTTERWAVE_LIVE_SECRET_KEY) }, async (db) => {
      const deposit = await depositAndPay(db, user, '2000');
      expect(
        await verifyAsPayer(db, bindings, user.id, { checkoutUrl: deposit.checkoutUrl, signature: deposit.signature, amount: String(deposit.amount) }),
      ).toBe(2);
      expect(await balanceKobo(db, user.id)).toBe(200_000n);
    });
    await withPaymentSettings({ provider: 'flutterwave', mode: 'live', keys: keys(TEST_SECRETS.FLUTTERWAVE_SECRET_KEY) }, async (db) => {
      await expect(startDeposit(db, bindings, { id: user.id, email: user.email }, '2000')).rejects.toThrow('Card payments are unavailable right now.');
    });
  });
});
