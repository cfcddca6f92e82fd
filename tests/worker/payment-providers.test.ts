import { env } from 'cloudflare:test';
import { TransactionRollbackError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { settings } from '../../drizzle/schema';
import type { Db } from '../../worker/db';
import { encryptSecret } from '../../worker/lib/crypto';
import { paymentProviderFor } from '../../worker/services/payments';
import { DEFAULT_PAYMENT_SETTINGS } from '../../worker/services/settings';
import { call, withDb } from '../support/api';

/** Runs fn against payment settings changed inside a transaction that is rolled back, so parallel files never see them. */
async function withPaymentSettings(value: object, fn: (db: Db) => Promise<void>) {
  await withDb((db) =>
    db.transaction(async (tx) => {
      await tx.insert(settings).values({ key: 'payment', value }).onConflictDoUpdate({ target: settings.key, set: { value } });
      await fn(tx as unknown as Db);
      tx.rollback();
    }).catch((error) => {
      if (!(error instanceof TransactionRollbackError)) throw error;
    }),
  );
}

describe('choosing the payment provider', () => {
  it('uses Flutterwave when chosen and configured, and still verifies Paystack intents with Paystack', async () => {
    const secrets = {
      flutterwaveSecretKey: await encryptSecret(env.ENCRYPTION_KEY, 'FLWSECK_TEST-abc'),
      flutterwaveWebhookHash: await encryptSecret(env.ENCRYPTION_KEY, 'hash-123'),
    };
    await withPaymentSettings({ ...DEFAULT_PAYMENT_SETTINGS, provider: 'flutterwave', secrets }, async (db) => {
      expect((await paymentProviderFor(db, env)).name).toBe('flutterwave');
      expect((await paymentProviderFor(db, env, 'paystack')).name).toBe('paystack');
    });
  });

  it('refuses to start payments with a chosen provider that has no keys', async () => {
    await withPaymentSettings({ ...DEFAULT_PAYMENT_SETTINGS, provider: 'flutterwave' }, async (db) => {
      await expect(paymentProviderFor(db, env)).rejects.toThrow('Card payments are not configured yet. Please contact support.');
    });
  });

  it('routes webhooks by provider and refuses unknown ones', async () => {
    expect((await call('webhooks/nope', { body: '{}' })).status).toBe(400);
    const unconfigured = await call('webhooks/flutterwave', { body: '{}', headers: { 'verif-hash': 'x' } });
    expect(unconfigured.status).toBe(503);
    expect(unconfigured.body.message).toBe('Card payments are not configured yet. Please contact support.');
  });
});
