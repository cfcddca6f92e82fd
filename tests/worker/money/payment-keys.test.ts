// Payment keys are checked with their provider before they are saved, and a provider that refuses
// the shop at checkout is told plainly to customers and counted on the administrator's dashboard.
// Saves that succeed run inside payment-fixtures' rolled-back transactions: the settings are one
// row for the whole shop, and other files take deposits meanwhile.
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { auditLog, paymentIntents, settings } from '../../../drizzle/schema';
import type { Db } from '../../../worker/db';
import type { PaymentSettingsInput } from '../../../worker/schemas/settings';
import { adminDashboard } from '../../../worker/services/dashboard/admin-dashboard';
import { UNAVAILABLE } from '../../../worker/services/money/payment-gateway';
import { checkPaymentKey, paymentSettingsView, updatePaymentSettings } from '../../../worker/services/money/payment-settings';
import { startDeposit } from '../../../worker/services/money/payments';
import { call, createAdmin, registerAndLogin, withDb } from '../../support/api';
import { TEST_SECRETS } from '../../support/secrets';
import { withPaymentSettings } from '../fixtures/payment-fixtures';
import { fakeScope } from '../providers/fake-scope';

const paystack = fakeScope(inject('paystackUrl'));
const flutterwave = fakeScope(inject('flutterwaveUrl'));
const bindings = { ...env, PAYSTACK_BASE_URL: paystack.url, FLUTTERWAVE_BASE_URL: flutterwave.url };
const WRONG_KEY = 'sk_test_copied_only_half';
const settingsInput = (input: Partial<PaymentSettingsInput> = {}): PaymentSettingsInput => ({
  provider: 'paystack',
  mode: 'test',
  minDeposit: 100,
  maxDeposit: 5_000_000,
  ...input,
});

async function auditRowsOf(db: Db, adminId: number) {
  return db
    .select()
    .from(auditLog)
    .where(and(eq(auditLog.actorId, adminId), eq(auditLog.action, 'settings.payment.update')));
}

const secondsAgo = (iso: string | null | undefined) => (Date.now() - new Date(iso ?? 0).getTime()) / 1000;

describe('saving a payment key', () => {
  it('refuses a key the provider rejects, with its reason, saving nothing and auditing nothing', async () => {
    const admin = await createAdmin();
    const before = (await call('admin/settings/payment', { token: admin.accessToken })).body.data;
    const paystackKey = await call('admin/settings/payment', {
      method: 'PUT',
      token: admin.accessToken,
      body: { ...settingsInput(), paystackSecretKey: WRONG_KEY },
    });
    expect(paystackKey).toMatchObject({ status: 400, body: { error: 'Bad Request' } });
    expect(paystackKey.body.message).toBe('Paystack refused this secret key: Invalid key. Check you copied the whole key for the right mode.');

    const flutterwaveKey = await call('admin/settings/payment', {
      method: 'PUT',
      token: admin.accessToken,
      body: { ...settingsInput({ provider: 'flutterwave' }), flutterwaveSecretKey: 'FLWSECK_TEST-wrong-X', flutterwaveWebhookHash: 'hash' },
    });
    expect(flutterwaveKey.status).toBe(400);
    expect(flutterwaveKey.body.message).toBe(
      'Flutterwave refused this secret key: Invalid authorization key. Check you copied the whole key for the right mode.',
    );

    expect((await call('admin/settings/payment', { token: admin.accessToken })).body.data).toEqual(before);
    expect(await withDb((db) => auditRowsOf(db, admin.id))).toEqual([]);
  });

  it('refuses a key it could not check, rather than saving it unchecked', async () => {
    const admin = await createAdmin();
    const unreachable = { ...bindings, PAYSTACK_BASE_URL: 'http://127.0.0.1:9/paystack' };
    await withPaymentSettings({}, async (db) => {
      const saving = updatePaymentSettings(db, unreachable, admin.id, { ...settingsInput(), paystackSecretKey: TEST_SECRETS.PAYSTACK_SECRET_KEY });
      await expect(saving).rejects.toMatchObject({
        kind: 'unavailable',
        message: expect.stringMatching(/^Paystack could not be reached to check this secret key \(.+\)\. Nothing was saved; try again in a moment\.$/),
      });
      const view = await paymentSettingsView(db, bindings);
      expect(view.configuredKeys.paystackSecretKey).toBe(false);
      expect(await auditRowsOf(db, admin.id)).toEqual([]);
    });
  });

  it('saves a key the provider accepts with the time it was verified, and audits what changed without the key', async () => {
    const admin = await createAdmin();
    await withPaymentSettings({}, async (db) => {
      const view = await updatePaymentSettings(db, bindings, admin.id, {
        ...settingsInput({ mode: 'live', maxDeposit: 1_000_000 }),
        paystackSecretKey: TEST_SECRETS.PAYSTACK_LIVE_SECRET_KEY,
      });
      expect(view.configuredKeys.paystackSecretKey).toBe(true);
      expect(view.keyChecks.paystack).toMatchObject({ source: 'settings', refusals: null });
      expect(secondsAgo(view.keyChecks.paystack.verifiedAt)).toBeLessThan(60);
      // Flutterwave's key was not touched, so nothing is claimed about it.
      expect(view.keyChecks.flutterwave.verifiedAt).toBeNull();

      const [audit] = await auditRowsOf(db, admin.id);
      expect(audit.details).toEqual({
        provider: 'paystack',
        mode: 'live',
        keysSet: ['paystackSecretKey'],
        keysCleared: [],
        // Never chosen, bank transfers follow the mode: on in test, off live.
        changes: { mode: { from: 'test', to: 'live' }, maxDeposit: { from: 5_000_000, to: 1_000_000 }, bankTransfer: { from: true, to: false } },
      });
      expect(JSON.stringify(audit.details)).not.toContain(TEST_SECRETS.PAYSTACK_LIVE_SECRET_KEY);
    });
  });

  it('shows a key as unverified once the key in effect is no longer the one the provider accepted', async () => {
    const admin = await createAdmin();
    await withPaymentSettings({}, async (db) => {
      const checked = await checkPaymentKey(db, bindings, admin.id, 'paystack');
      expect(checked.keyChecks.paystack.source).toBe('deployment');
      expect(secondsAgo(checked.keyChecks.paystack.verifiedAt)).toBeLessThan(60);
      // The deployment's secret replaced since: the verification was of another key.
      const rotated = await paymentSettingsView(db, { ...bindings, PAYSTACK_SECRET_KEY: 'sk_test_rotated_since' });
      expect(rotated.keyChecks.paystack).toMatchObject({ source: 'deployment', verifiedAt: null });
    });
  });

  it('clears a saved key back to the deployment secret, after checking that one', async () => {
    const admin = await createAdmin();
    await withPaymentSettings({ keys: { paystackSecretKey: TEST_SECRETS.PAYSTACK_LIVE_SECRET_KEY } }, async (db) => {
      const refused = updatePaymentSettings(db, { ...bindings, PAYSTACK_SECRET_KEY: WRONG_KEY }, admin.id, {
        ...settingsInput(),
        clearKeys: ['paystackSecretKey'],
      });
      await expect(refused).rejects.toThrow(
        "Paystack refused the deployment's secret key (PAYSTACK_SECRET_KEY): Invalid key. Clearing the saved key would bring it into use, so the saved key was kept.",
      );
      expect((await paymentSettingsView(db, bindings)).configuredKeys.paystackSecretKey).toBe(true);

      const view = await updatePaymentSettings(db, bindings, admin.id, { ...settingsInput(), clearKeys: ['paystackSecretKey'] });
      expect(view.configuredKeys.paystackSecretKey).toBe(false);
      expect(view.keyChecks.paystack.source).toBe('deployment');
      expect(secondsAgo(view.keyChecks.paystack.verifiedAt)).toBeLessThan(60);
      const [audit] = await auditRowsOf(db, admin.id);
      expect(audit.details).toMatchObject({ keysSet: [], keysCleared: ['paystackSecretKey'], changes: {} });
    });
  });

  it('refuses entering and clearing the same key at once', async () => {
    const admin = await createAdmin();
    const both = await call('admin/settings/payment', {
      method: 'PUT',
      token: admin.accessToken,
      body: { ...settingsInput(), paystackSecretKey: TEST_SECRETS.PAYSTACK_SECRET_KEY, clearKeys: ['paystackSecretKey'] },
    });
    expect(both).toMatchObject({ status: 400, body: { message: 'Enter a new key or clear the saved one, not both.' } });
  });
});

describe('a key in real use', () => {
  it('reads as in use once the provider answers a payment made with it, with no Check now, and not once the key changes', async () => {
    const user = await registerAndLogin();
    await withPaymentSettings({}, async (db) => {
      await db.delete(settings).where(eq(settings.key, 'payment_health'));
      expect((await paymentSettingsView(db, bindings)).keyChecks.paystack).toMatchObject({ source: 'deployment', verifiedAt: null, usedAt: null });

      await startDeposit(db, bindings, { id: user.id, email: user.email }, '1000');
      const used = (await paymentSettingsView(db, bindings)).keyChecks.paystack;
      expect(used).toMatchObject({ source: 'deployment', verifiedAt: null, refusals: null });
      expect(secondsAgo(used.usedAt)).toBeLessThan(60);

      // Another deposit a moment later writes nothing new: one record per interval, not one per payment.
      await startDeposit(db, bindings, { id: user.id, email: user.email }, '1000');
      expect((await paymentSettingsView(db, bindings)).keyChecks.paystack.usedAt).toBe(used.usedAt);

      const rotated = await paymentSettingsView(db, { ...bindings, PAYSTACK_SECRET_KEY: 'sk_test_rotated_since' });
      expect(rotated.keyChecks.paystack).toMatchObject({ verifiedAt: null, usedAt: null });
    });
  });
});

describe('a provider refusing the shop', () => {
  it('tells customers plainly, counts the refusals on the dashboard, and forgets them once a key is verified', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    await withPaymentSettings({ keys: { paystackSecretKey: WRONG_KEY } }, async (db) => {
      for (let attempt = 0; attempt < 2; attempt++) {
        await expect(startDeposit(db, bindings, { id: user.id, email: user.email }, '1000')).rejects.toMatchObject({
          kind: 'unavailable',
          message: UNAVAILABLE,
        });
      }
      // Neither attempt left a deposit waiting: no checkout link ever reached the customer.
      const intents = await db.select().from(paymentIntents).where(eq(paymentIntents.userId, user.id));
      expect(intents.map((intent) => intent.status)).toEqual(['failed', 'failed']);

      const alert = (await adminDashboard(db, 'day')).paymentRefusals;
      expect(alert).toMatchObject({ provider: 'paystack', label: 'Paystack', count: 2, lastError: 'Invalid key', verifiedAt: null });
      expect(secondsAgo(alert?.lastAt)).toBeLessThan(60);
      expect((await paymentSettingsView(db, bindings)).keyChecks.paystack.refusals).toMatchObject({ count: 2, lastError: 'Invalid key' });

      // "Check now" of the same key is refused too, and counted.
      await expect(checkPaymentKey(db, bindings, admin.id, 'paystack')).rejects.toThrow(
        'Paystack refused the secret key saved in Payment Settings: Invalid key. Enter a working key.',
      );
      expect((await adminDashboard(db, 'day')).paymentRefusals?.count).toBe(3);

      const fixed = await updatePaymentSettings(db, bindings, admin.id, { ...settingsInput(), paystackSecretKey: TEST_SECRETS.PAYSTACK_SECRET_KEY });
      expect(fixed.keyChecks.paystack.refusals).toBeNull();
      expect((await adminDashboard(db, 'day')).paymentRefusals).toBeNull();
      await expect(startDeposit(db, bindings, { id: user.id, email: user.email }, '1000')).resolves.toMatchObject({ amount: 1000 });
    });
  });

  it('marks a key verified on "Check now", through the admin API', async () => {
    const admin = await createAdmin();
    const checked = await call('admin/settings/payment/check', { token: admin.accessToken, body: { provider: 'paystack' } });
    expect(checked).toMatchObject({ status: 200, body: { message: 'Paystack accepted the secret key' } });
    expect(checked.body.data.keyChecks.paystack.source).toBe('deployment');
    expect(secondsAgo(checked.body.data.keyChecks.paystack.verifiedAt)).toBeLessThan(60);
    expect((await call('admin/settings/payment/check', { token: admin.accessToken, body: { provider: 'stripe' } })).status).toBe(400);
    const user = await registerAndLogin();
    expect((await call('admin/settings/payment/check', { token: user.accessToken, body: { provider: 'paystack' } })).status).toBe(403);
  });
});
