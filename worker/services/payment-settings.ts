// What administrators set about card payments, and what they must be told: the provider, test
// or live mode, the deposit limits and the keys. Live mode takes real money, so a test key is
// refused there (when saved, and when a payment would use one from the deployment's secrets),
// and a sandbox payment that reaches a live shop is flagged here instead of credited.
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { auditLog, paymentIntents, users } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import type { Env } from '../env';
import { encryptSecret } from '../lib/crypto';
import { koboToNaira } from '../lib/decimal';
import { invalid } from '../lib/errors';
import { keyDomain, LIVE_KEY_SHAPES, TEST_KEY_SHAPES } from '../providers/payments/keys';
import type { PaymentProviderName } from '../providers/payments/types';
import type { PaymentSettingsInput } from '../schemas/settings';
import {
  DEPLOYMENT_SECRETS, getPaymentSettings, resolvePaymentSecret, saveSetting, SECRET_NAMES,
  type PaymentMode, type ResolvedSecret, type SecretName, type StoredPaymentSettings,
} from './settings';

/** provider_status of an intent that was paid with sandbox money while the shop was live. */
export const TEST_PAYMENT_IN_LIVE_MODE = 'refused: test payment in live mode';
/** How far back the administrator is shown such payments. */
const FLAGGED_WINDOW_DAYS = 30;
const FLAGGED_SHOWN = 10;

const PROVIDER_LABELS: Record<PaymentProviderName, string> = { paystack: 'Paystack', flutterwave: 'Flutterwave' };
const SECRET_KEY_OF: Record<PaymentProviderName, SecretName> = { paystack: 'paystackSecretKey', flutterwave: 'flutterwaveSecretKey' };

export interface ProviderKeys {
  secretKey: ResolvedSecret | null;
  /** Flutterwave's webhook secret hash; Paystack signs its webhooks with the secret key. */
  webhookSecretHash: ResolvedSecret | null;
}

/** The keys a provider's calls use now: each one saved in Payment Settings, else the deployment's secret. */
export async function providerKeys(settings: StoredPaymentSettings, env: Env, provider: PaymentProviderName): Promise<ProviderKeys> {
  const [secretKey, webhookSecretHash] = await Promise.all([
    resolvePaymentSecret(settings, SECRET_KEY_OF[provider], env),
    provider === 'flutterwave' ? resolvePaymentSecret(settings, 'flutterwaveWebhookHash', env) : null,
  ]);
  return { secretKey, webhookSecretHash };
}

function testKeyInLiveMode(provider: PaymentProviderName, source: ResolvedSecret['source'] | 'entered'): string {
  const where = source === 'entered'
    ? 'entered'
    : source === 'settings' ? 'saved in Payment Settings' : `in the deployment's secrets (${DEPLOYMENT_SECRETS[SECRET_KEY_OF[provider]]})`;
  return `Live mode takes real money, but the ${PROVIDER_LABELS[provider]} secret key ${where} is a test key (${TEST_KEY_SHAPES[provider]}). ` +
    `Enter the live key (${LIVE_KEY_SHAPES[provider]}), or choose test mode.`;
}

export interface KeysProblem {
  /** missing: nothing to call the provider with; test_key: a sandbox key while the shop is live. */
  kind: 'missing' | 'test_key';
  /** For the administrator. */
  message: string;
}

/** Why card payments through this provider cannot be taken with these keys in this mode; null when they can. */
export function keysProblem(mode: PaymentMode, provider: PaymentProviderName, keys: ProviderKeys): KeysProblem | null {
  if (!keys.secretKey) {
    return { kind: 'missing', message: `Card payments are off: no ${PROVIDER_LABELS[provider]} secret key is set. Enter it in Payment Settings.` };
  }
  if (provider === 'flutterwave' && !keys.webhookSecretHash) {
    return { kind: 'missing', message: 'Card payments are off: no Flutterwave webhook secret hash is set. Enter it in Payment Settings.' };
  }
  if (mode === 'live' && keyDomain(provider, keys.secretKey.value) === 'test') {
    return { kind: 'test_key', message: `Card payments are refused. ${testKeyInLiveMode(provider, keys.secretKey.source)}` };
  }
  return null;
}

/** Test payments refused while the shop was live, newest first (the failed-intents index serves it). */
async function flaggedPayments(db: DbOrTx) {
  const rows = await db
    .select({
      reference: paymentIntents.reference,
      provider: paymentIntents.provider,
      amountKobo: paymentIntents.amountKobo,
      userId: paymentIntents.userId,
      email: users.email,
      flaggedAt: paymentIntents.lastCheckedAt,
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(paymentIntents)
    .innerJoin(users, eq(users.id, paymentIntents.userId))
    .where(and(
      eq(paymentIntents.status, 'failed'),
      gt(paymentIntents.createdAt, sql`now() - make_interval(days => ${FLAGGED_WINDOW_DAYS})`),
      eq(paymentIntents.providerStatus, TEST_PAYMENT_IN_LIVE_MODE),
    ))
    .orderBy(desc(paymentIntents.lastCheckedAt))
    .limit(FLAGGED_SHOWN);
  return {
    total: rows[0]?.total ?? 0,
    recent: rows.map(({ total: _total, amountKobo, flaggedAt, ...row }) => ({ ...row, amount: koboToNaira(amountKobo), flaggedAt: flaggedAt?.toISOString() ?? null })),
  };
}

/** The administrator's view: which keys are set (never their values), what stops payments, and what was refused. */
export async function paymentSettingsView(db: DbOrTx, env: Env) {
  const settings = await getPaymentSettings(db, env);
  const [keys, flagged] = await Promise.all([providerKeys(settings, env, settings.provider), flaggedPayments(db)]);
  const flags = (has: (name: SecretName) => boolean) => Object.fromEntries(SECRET_NAMES.map((name) => [name, has(name)])) as Record<SecretName, boolean>;
  return {
    provider: settings.provider,
    mode: settings.mode,
    minDeposit: Number(BigInt(settings.minDepositKobo) / 100n),
    maxDeposit: Number(BigInt(settings.maxDepositKobo) / 100n),
    configuredKeys: flags((name) => Boolean(settings.secrets[name])),
    deploymentKeys: flags((name) => Boolean(env[DEPLOYMENT_SECRETS[name]])),
    problem: keysProblem(settings.mode, settings.provider, keys)?.message ?? null,
    flaggedPayments: flagged,
  };
}

/** In live mode no test key is saved, nor left in effect for the chosen provider. */
async function refuseTestKeysInLiveMode(next: StoredPaymentSettings, input: PaymentSettingsInput, env: Env) {
  for (const provider of ['paystack', 'flutterwave'] as const) {
    const entered = input[SECRET_KEY_OF[provider]];
    if (entered && keyDomain(provider, entered) === 'test') throw invalid(testKeyInLiveMode(provider, 'entered'));
  }
  const { secretKey } = await providerKeys(next, env, next.provider);
  if (secretKey && keyDomain(next.provider, secretKey.value) === 'test') throw invalid(testKeyInLiveMode(next.provider, secretKey.source));
}

export async function updatePaymentSettings(db: Db, env: Env, actorId: number, input: PaymentSettingsInput) {
  const current = await getPaymentSettings(db, env);
  const secrets = { ...current.secrets };
  const changedKeys: SecretName[] = [];
  for (const name of SECRET_NAMES) {
    const value = input[name];
    if (value) {
      secrets[name] = await encryptSecret(env.ENCRYPTION_KEY, value);
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
  if (next.mode === 'live') await refuseTestKeysInLiveMode(next, input, env);
  await db.transaction(async (tx) => {
    await saveSetting(tx, 'payment', next, actorId);
    await tx.insert(auditLog).values({
      actorId, action: 'settings.payment.update', targetType: 'settings', targetId: 'payment',
      details: { provider: next.provider, mode: next.mode, minDeposit: input.minDeposit, maxDeposit: input.maxDeposit, keysChanged: changedKeys },
    });
  });
  return paymentSettingsView(db, env);
}
