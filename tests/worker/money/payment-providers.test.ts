// Which provider takes payments, and test or live mode: a live shop refuses test keys (saved or
// from the deployment's secrets) and credits only live money, flagging the rest for the administrator.
import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { Db } from '../../../worker/db';
import { paymentGateway } from '../../../worker/services/money/payment-gateway';
import { paymentSettingsView } from '../../../worker/services/money/payment-settings';
import { startDeposit } from '../../../worker/services/money/payments';
import { getPaymentSettings } from '../../../worker/services/settings/settings';
import { call, createAdmin, registerAndLogin, type TestAccount } from '../../support/api';
import { TEST_SECRETS } from '../../support/secrets';
import { balanceKobo, verifyAsPayer, withPaymentSettings } from '../fixtures/payment-fixtures';
import { fakeScope } from '../providers/fake-scope';

// This file's own copy of the sandbox Paystack: the domain lie below must not reach other files' deposits.
const paystack = fakeScope(inject('paystackUrl'));
const bindings = { ...env, PAYSTACK_BASE_URL: paystack.url };
const LIVE_KEYS = { paystackSecretKey: TEST_SECRETS.PAYSTACK_LIVE_SECRET_KEY };

/** A deposit paid at the sandbox checkout and then confirmed by the return page, as the SPA does. */
async function payAndConfirm(db: Db, user: TestAccount, amount: string, lie?: { overrideDomain: string }) {
  const deposit = await startDeposit(db, bindings, { id: user.id, email: user.email }, amount);
  await paystack.post('/__complete', { reference: deposit.reference, outcome: 'success' });
  if (lie) await paystack.post('/__control', lie);
  const orderStatus = await verifyAsPayer(db, bindings, user.id, {
    checkoutUrl: deposit.checkoutUrl,
    signature: deposit.signature,
    amount: String(deposit.amount),
  });
  return { reference: deposit.reference, orderStatus };
}

describe('choosing the payment provider', () => {
  it('uses Flutterwave when chosen and configured, and still verifies Paystack intents with Paystack', async () => {
    const keys = { flutterwaveSecretKey: TEST_SECRETS.FLUTTERWAVE_SECRET_KEY, flutterwaveWebhookHash: 'hash-123' };
    await withPaymentSettings({ provider: 'flutterwave', keys }, async (db) => {
      expect((await paymentGateway(db, env)).provider.name).toBe('flutterwave');
      expect((await paymentGateway(db, env, 'paystack')).provider.name).toBe('paystack');
    });
  });

  it('refuses to start payments with a chosen provider that has no keys', async () => {
    await withPaymentSettings({ provider: 'flutterwave' }, async (db) => {
      await expect(paymentGateway(db, env)).rejects.toThrow('Card payments are not configured yet. Please contact support.');
      expect((await paymentSettingsView(db, env)).problem).toBe('Card payments are off: no Flutterwave secret key is set. Enter it in Payment Settings.');
    });
  });

  it('routes webhooks by provider and refuses unknown ones', async () => {
    expect((await call('webhooks/nope', { body: '{}' })).status).toBe(400);
    const unconfigured = await call('webhooks/flutterwave', { body: '{}', headers: { 'verif-hash': 'x' } });
    expect(unconfigured.status).toBe(503);
    expect(unconfigured.body.message).toBe('Card payments are not configured yet. Please contact support.');
  });
});

describe('test or live mode', () => {
  it('is test on the local stack and in tests, and live on a fresh deployment', async () => {
    await withPaymentSettings(null, async (db) => {
      expect((await getPaymentSettings(db, env)).mode).toBe('test');
      expect((await getPaymentSettings(db, { ENVIRONMENT: 'production' })).mode).toBe('live');
      expect((await getPaymentSettings(db, {})).mode).toBe('live');
    });
    const publicSettings = await call('settings/public');
    expect(publicSettings.body.paymentMode).toBe('test');
  });

  it('refuses test keys when a live-mode shop saves them, saying which key and what to do', async () => {
    const admin = await createAdmin();
    const save = (body: Record<string, unknown>) =>
      call('admin/settings/payment', {
        method: 'PUT',
        token: admin.accessToken,
        body: { provider: 'paystack', mode: 'live', minDeposit: 100, maxDeposit: 5_000_000, ...body },
      });

    const entered = await save({ paystackSecretKey: 'sk_test_0123456789' });
    expect(entered).toMatchObject({ status: 400, body: { error: 'Bad Request' } });
    expect(entered.body.message).toBe(
      'Live mode takes real money, but the Paystack secret key entered is a test key (sk_test_…). Enter the live key (sk_live_…), or choose test mode.',
    );

    const flutterwave = await save({ provider: 'flutterwave', flutterwaveSecretKey: 'FLWSECK_TEST-0123456789-X', flutterwaveWebhookHash: 'hash' });
    expect(flutterwave.status).toBe(400);
    expect(flutterwave.body.message).toBe(
      'Live mode takes real money, but the Flutterwave secret key entered is a test key (FLWSECK_TEST-…). Enter the live key (FLWSECK-…), or choose test mode.',
    );

    // Nothing entered: the key in effect is the deployment's PAYSTACK_SECRET_KEY, a test key here.
    const fromSecrets = await save({});
    expect(fromSecrets.status).toBe(400);
    expect(fromSecrets.body.message).toBe(
      "Live mode takes real money, but the Paystack secret key in the deployment's secrets (PAYSTACK_SECRET_KEY) is a test key (sk_test_…). Enter the live key (sk_live_…), or choose test mode.",
    );
    expect((await call('admin/settings/payment', { token: admin.accessToken })).body.data.mode).toBe('test');
  });

  it('refuses payment calls in live mode with a test key from the deployment, telling customers plainly and the administrator why', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings({ mode: 'live' }, async (db) => {
      await expect(startDeposit(db, bindings, { id: user.id, email: user.email }, '2000')).rejects.toThrow(
        'Card payments are unavailable right now. Please try again later or contact support.',
      );
      const view = await paymentSettingsView(db, bindings);
      expect(view.deploymentKeys.paystackSecretKey).toBe(true);
      expect(view.problem).toBe(
        "Card payments are refused. Live mode takes real money, but the Paystack secret key in the deployment's secrets (PAYSTACK_SECRET_KEY) is a test key (sk_test_…). Enter the live key (sk_live_…), or choose test mode.",
      );
    });
  });

  it('credits live transactions in live mode, and flags a test-domain one without crediting it', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings({ mode: 'live', keys: LIVE_KEYS }, async (db) => {
      expect((await paymentSettingsView(db, bindings)).problem).toBeNull();
      const live = await payAndConfirm(db, user, '2500');
      expect(live.orderStatus).toBe(2);
      expect(await balanceKobo(db, user.id)).toBe(250_000n);

      const sandbox = await payAndConfirm(db, user, '4000', { overrideDomain: 'test' });
      expect(sandbox.orderStatus).toBe(3);
      expect(await balanceKobo(db, user.id)).toBe(250_000n);
      const { flaggedPayments } = await paymentSettingsView(db, bindings);
      expect(flaggedPayments.recent[0]).toMatchObject({
        reference: sandbox.reference,
        provider: 'paystack',
        amount: '4000.00',
        userId: user.id,
        email: user.email,
      });
      expect(flaggedPayments.total).toBeGreaterThanOrEqual(1);
    });
  });

  it('credits the same test-domain transaction in test mode', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings({ mode: 'test' }, async (db) => {
      const sandbox = await payAndConfirm(db, user, '4000', { overrideDomain: 'test' });
      expect(sandbox.orderStatus).toBe(2);
      expect(await balanceKobo(db, user.id)).toBe(400_000n);
      expect((await paymentSettingsView(db, bindings)).flaggedPayments.recent.map((row) => row.reference)).not.toContain(sandbox.reference);
    });
  });
});
