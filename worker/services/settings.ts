// Site and payment settings: small JSON documents in the settings table, with defaults in
// code so a fresh database works. Payment keys are stored encrypted and never read back out.
import { inArray, sql } from 'drizzle-orm';
import { auditLog, settings } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import { decryptSecret, encryptSecret } from '../lib/crypto';
import type { PaymentSettingsInput, SiteSettings } from '../schemas/settings';

export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  siteName: 'SMM Provider',
  logoUrl: '',
  contactEmail: 'support@example.com',
  contactPhone: '',
  address: 'Lagos, Nigeria',
  aboutUs: 'We resell social-media-marketing services — followers, likes, views and more — at fair prices, paid from a prepaid NGN wallet and delivered automatically.',
  contactUs: 'Questions about an order or a payment? Write to us and we answer within a day.',
  defaultCurrency: 'NGN',
  maintenanceNotice: '',
};

type SecretName = 'paystackSecretKey' | 'flutterwaveSecretKey' | 'flutterwaveWebhookHash';
const SECRET_NAMES: SecretName[] = ['paystackSecretKey', 'flutterwaveSecretKey', 'flutterwaveWebhookHash'];

export interface StoredPaymentSettings {
  provider: 'paystack' | 'flutterwave';
  mode: 'test' | 'live';
  minDepositKobo: string;
  maxDepositKobo: string;
  /** Encrypted with ENCRYPTION_KEY. */
  secrets: Partial<Record<SecretName, string>>;
}

export const DEFAULT_PAYMENT_SETTINGS: StoredPaymentSettings = {
  provider: 'paystack',
  mode: 'test',
  minDepositKobo: String(100n * 100n),
  maxDepositKobo: String(5_000_000n * 100n),
  secrets: {},
};

async function readSettings(db: DbOrTx) {
  const rows = await db.select().from(settings).where(inArray(settings.key, ['site', 'payment']));
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  return {
    site: { ...DEFAULT_SITE_SETTINGS, ...(byKey.get('site') as Partial<SiteSettings> | undefined) },
    payment: { ...DEFAULT_PAYMENT_SETTINGS, ...(byKey.get('payment') as Partial<StoredPaymentSettings> | undefined) },
  };
}

export async function getSiteSettings(db: DbOrTx): Promise<SiteSettings> {
  return (await readSettings(db)).site;
}

export async function getPaymentSettings(db: DbOrTx): Promise<StoredPaymentSettings> {
  return (await readSettings(db)).payment;
}

/** What anyone may see: the site's texts and the deposit limits, in one query. */
export async function getPublicSettings(db: DbOrTx) {
  const { site, payment } = await readSettings(db);
  return { ...site, minDeposit: Number(BigInt(payment.minDepositKobo) / 100n), maxDeposit: Number(BigInt(payment.maxDepositKobo) / 100n), paymentProvider: payment.provider };
}

/** The admin view: which keys are set, never their values. */
export function describePaymentSettings(stored: StoredPaymentSettings) {
  return {
    provider: stored.provider,
    mode: stored.mode,
    minDeposit: Number(BigInt(stored.minDepositKobo) / 100n),
    maxDeposit: Number(BigInt(stored.maxDepositKobo) / 100n),
    configuredKeys: Object.fromEntries(SECRET_NAMES.map((name) => [name, Boolean(stored.secrets[name])])),
  };
}

export async function decryptPaymentSecret(stored: StoredPaymentSettings, name: SecretName, encryptionKey: string): Promise<string | undefined> {
  const encrypted = stored.secrets[name];
  return encrypted ? decryptSecret(encryptionKey, encrypted) : undefined;
}

async function saveSetting(db: DbOrTx, key: string, value: unknown, actorId: number) {
  await db
    .insert(settings)
    .values({ key, value, updatedBy: actorId })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedBy: actorId, updatedAt: sql`now()` } });
}

export async function updateSiteSettings(db: Db, actorId: number, input: SiteSettings): Promise<SiteSettings> {
  await db.transaction(async (tx) => {
    await saveSetting(tx, 'site', input, actorId);
    await tx.insert(auditLog).values({ actorId, action: 'settings.site.update', targetType: 'settings', targetId: 'site', details: { fields: Object.keys(input) } });
  });
  return input;
}

export async function updatePaymentSettings(db: Db, actorId: number, encryptionKey: string, input: PaymentSettingsInput) {
  const current = await getPaymentSettings(db);
  const secrets = { ...current.secrets };
  const changedKeys: SecretName[] = [];
  for (const name of SECRET_NAMES) {
    const value = input[name];
    if (value) {
      secrets[name] = await encryptSecret(encryptionKey, value);
      changedKeys.push(name);
    }
  }
  const next: StoredPaymentSettings = {
    provider: input.provider,
    mode: input.mode,
    minDepositKobo: String(BigInt(input.minDeposit) * 100n),
    maxDepositKobo: String(BigInt(input.maxDeposit) * 100n),
    secrets,
  };
  await db.transaction(async (tx) => {
    await saveSetting(tx, 'payment', next, actorId);
    await tx.insert(auditLog).values({
      actorId, action: 'settings.payment.update', targetType: 'settings', targetId: 'payment',
      details: { provider: next.provider, mode: next.mode, minDeposit: input.minDeposit, maxDeposit: input.maxDeposit, keysChanged: changedKeys },
    });
  });
  return describePaymentSettings(next);
}
