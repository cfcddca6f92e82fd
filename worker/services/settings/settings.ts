// Site and payment settings: small JSON documents in the settings table, with defaults in
// code so a fresh database works. Payment keys are stored encrypted and never read back out;
// what administrators change about payments is in payment-settings.ts.
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { settings } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import { type Env, isLocalEnvironment } from '../../env';
import { decryptSecret } from '../../lib/crypto';
import { PAYMENT_SECRET_NAMES, type SecuritySettings, type SiteSettings } from '../../schemas/settings';
import { fieldChanges, recordAudit } from '../oversight';

export const DEFAULT_SITE_SETTINGS: SiteSettings = {
  siteName: 'SMM Provider',
  logoUrl: '',
  contactEmail: 'support@example.com',
  contactPhone: '',
  address: 'Lagos, Nigeria',
  aboutUs:
    'We resell social-media-marketing services — followers, likes, views and more — at fair prices, paid from a prepaid NGN wallet and delivered automatically.',
  contactUs: 'Questions about an order or a payment? Write to us and we answer within a day.',
  defaultCurrency: 'NGN',
  maintenanceNotice: '',
};

export type SecretName = (typeof PAYMENT_SECRET_NAMES)[number];
export const SECRET_NAMES: readonly SecretName[] = PAYMENT_SECRET_NAMES;
/** The deployment's secret that stands in for each key while Payment Settings holds none. */
export const DEPLOYMENT_SECRETS = {
  paystackSecretKey: 'PAYSTACK_SECRET_KEY',
  flutterwaveSecretKey: 'FLUTTERWAVE_SECRET_KEY',
  flutterwaveWebhookHash: 'FLUTTERWAVE_SECRET_HASH',
} as const satisfies Record<SecretName, keyof Env>;

export type PaymentMode = 'test' | 'live';

export interface StoredPaymentSettings {
  provider: 'paystack' | 'flutterwave';
  mode: PaymentMode;
  minDepositKobo: string;
  maxDepositKobo: string;
  /** Encrypted with ENCRYPTION_KEY. */
  secrets: Partial<Record<SecretName, string>>;
  /** Funding by bank transfer to a personal account number (Paystack only); until an administrator chooses, on in test mode only. */
  bankTransfer?: boolean;
}

/** Until an administrator chooses, the mode follows the deployment (see defaultPaymentMode). */
export const DEFAULT_PAYMENT_SETTINGS: Omit<StoredPaymentSettings, 'mode'> = {
  provider: 'paystack',
  minDepositKobo: String(100n * 100n),
  maxDepositKobo: String(5_000_000n * 100n),
  secrets: {},
};

/**
 * Test mode on the local stack and in the tests; live everywhere else. A fresh deployment then
 * never takes sandbox payments as real money: a test key is refused with a message saying so,
 * and test mode is a choice an administrator makes (and every page then shows).
 */
export const defaultPaymentMode = (env: Pick<Env, 'ENVIRONMENT'>): PaymentMode => (isLocalEnvironment(env) ? 'test' : 'live');

async function readSettings(db: DbOrTx) {
  const rows = await db
    .select()
    .from(settings)
    .where(inArray(settings.key, ['site', 'payment']));
  const byKey = new Map(rows.map((row) => [row.key, row.value]));
  return {
    site: { ...DEFAULT_SITE_SETTINGS, ...(byKey.get('site') as Partial<SiteSettings> | undefined) },
    payment: byKey.get('payment') as Partial<StoredPaymentSettings> | undefined,
  };
}

const withPaymentDefaults = (stored: Partial<StoredPaymentSettings> | undefined, env: Pick<Env, 'ENVIRONMENT'>): StoredPaymentSettings => ({
  ...DEFAULT_PAYMENT_SETTINGS,
  mode: defaultPaymentMode(env),
  ...stored,
});

export async function getSiteSettings(db: DbOrTx): Promise<SiteSettings> {
  return (await readSettings(db)).site;
}

/** The shop's name as its emails show it: never blank. */
export async function siteNameOf(db: DbOrTx): Promise<string> {
  return (await getSiteSettings(db)).siteName.trim() || DEFAULT_SITE_SETTINGS.siteName;
}

export async function getPaymentSettings(db: DbOrTx, env: Pick<Env, 'ENVIRONMENT'>): Promise<StoredPaymentSettings> {
  return withPaymentDefaults((await readSettings(db)).payment, env);
}

/** What anyone may see: the site's texts, the deposit limits and whether payments are for real, in one query. */
export async function getPublicSettings(db: DbOrTx, env: Pick<Env, 'ENVIRONMENT'>) {
  const { site, payment: stored } = await readSettings(db);
  const payment = withPaymentDefaults(stored, env);
  return {
    ...site,
    minDeposit: Number(BigInt(payment.minDepositKobo) / 100n),
    maxDeposit: Number(BigInt(payment.maxDepositKobo) / 100n),
    paymentProvider: payment.provider,
    paymentMode: payment.mode,
    bankTransfer: bankTransferOffered(payment),
  };
}

export const bankTransferOn = (payment: StoredPaymentSettings): boolean => payment.bankTransfer ?? payment.mode === 'test';

/** Customers are offered an account number only while the method is on and Paystack takes the payments. */
export const bankTransferOffered = (payment: StoredPaymentSettings): boolean => bankTransferOn(payment) && payment.provider === 'paystack';

export interface ResolvedSecret {
  value: string;
  /** Saved in Payment Settings, or the deployment's secret standing in for it. */
  source: 'settings' | 'deployment';
}

/** A key in effect: the one saved in Payment Settings, else the deployment's secret; null when neither is set. */
export async function resolvePaymentSecret(stored: StoredPaymentSettings, name: SecretName, env: Env): Promise<ResolvedSecret | null> {
  const encrypted = stored.secrets[name];
  if (encrypted) return { value: await decryptSecret(env.ENCRYPTION_KEY, encrypted), source: 'settings' };
  const fromDeployment = env[DEPLOYMENT_SECRETS[name]];
  return fromDeployment ? { value: fromDeployment, source: 'deployment' } : null;
}

export async function saveSetting(db: DbOrTx, key: string, value: unknown, actorId: number) {
  await db
    .insert(settings)
    .values({ key, value, updatedBy: actorId })
    .onConflictDoUpdate({ target: settings.key, set: { value, updatedBy: actorId, updatedAt: sql`now()` } });
}

export async function updateSiteSettings(db: Db, actorId: number, input: SiteSettings): Promise<SiteSettings> {
  // Interactive only because saveSetting runs its own statement; an administrator's rare save.
  await db.transaction(async (tx) => {
    const before = await getSiteSettings(tx);
    await saveSetting(tx, 'site', input, actorId);
    await recordAudit(tx, {
      actorId,
      action: 'settings.site.update',
      target: { type: 'settings', id: 'site' },
      details: { fields: Object.keys(input), changes: fieldChanges(before, input) },
    });
  });
  return input;
}

/**
 * Whether administrators must use two-factor sign-in, as an expression for a caller's own statement (the
 * session check, the sign-in), so the answer costs no round trip: the saved choice, else on outside the
 * local stack and the tests, so a fresh deployment asks it of every administrator.
 */
export const adminTwoFactorRequiredSql = (env: Pick<Env, 'ENVIRONMENT'>): SQL<boolean> =>
  // Nested fragments keep the settings table on its columns, which a single-table select would strip from top-level ones.
  sql<boolean>`coalesce((select ${sql`(${settings.value}->>'adminTwoFactorRequired')::boolean`} from ${settings} where ${eq(settings.key, 'security')}), ${!isLocalEnvironment(env)}::boolean)`;

export async function getSecuritySettings(db: DbOrTx, env: Pick<Env, 'ENVIRONMENT'>): Promise<SecuritySettings> {
  const { rows } = await db.execute<{ required: boolean }>(sql`select ${adminTwoFactorRequiredSql(env)} as required`);
  return { adminTwoFactorRequired: rows[0].required };
}

export async function updateSecuritySettings(db: Db, actorId: number, input: SecuritySettings): Promise<SecuritySettings> {
  // Interactive only because saveSetting runs its own statement; an administrator's rare save.
  await db.transaction(async (tx) => {
    const [saved] = await tx.select({ value: settings.value }).from(settings).where(eq(settings.key, 'security'));
    const before = (saved?.value ?? {}) as Partial<SecuritySettings>;
    await saveSetting(tx, 'security', input, actorId);
    await recordAudit(tx, {
      actorId,
      action: 'settings.security.update',
      target: { type: 'settings', id: 'security' },
      details: { ...input, changes: fieldChanges(before, input) },
    });
  });
  return input;
}
