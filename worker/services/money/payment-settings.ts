// What administrators set about card payments, and what they must be told: the provider, test
// or live mode, the deposit limits and the keys. Live mode takes real money, so a test key is
// refused there (when saved, and when a payment would use one from the deployment's secrets),
// and a sandbox payment that reaches a live shop is flagged here instead of credited. Every
// secret key a change puts into effect is first shown to its provider: one it refuses, or that
// cannot be checked, is never saved, since it would take card funding down for every customer.
import { and, desc, eq, gt, sql } from 'drizzle-orm';
import { paymentIntents, users } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { encryptSecret } from '../../lib/crypto';
import { koboToNaira } from '../../lib/decimal';
import { AppError, invalid } from '../../lib/errors';
import { windowTotal } from '../../lib/paging';
import { createFlutterwave } from '../../providers/payments/flutterwave';
import { keyDomain, LIVE_KEY_SHAPES, TEST_KEY_SHAPES } from '../../providers/payments/keys';
import { createPaystack } from '../../providers/payments/paystack';
import { type PaymentProvider, PaymentProviderError, type PaymentProviderName } from '../../providers/payments/types';
import { PAYMENT_PROVIDER_LABELS, PAYMENT_PROVIDERS, PAYMENT_SECRET_KEY_OF, type PaymentSettingsInput } from '../../schemas/settings';
import { recordAudit } from '../oversight';
import {
  bankTransferOn,
  DEPLOYMENT_SECRETS,
  getPaymentSettings,
  type PaymentMode,
  type ResolvedSecret,
  resolvePaymentSecret,
  SECRET_NAMES,
  type SecretName,
  type StoredPaymentSettings,
  saveSetting,
} from '../settings';
import { keyFingerprint, type ProviderHealth, readPaymentHealth, recordKeyChecks, recordProviderRefusal } from './payment-health';

/** provider_status of an intent that was paid with sandbox money while the shop was live. */
export const TEST_PAYMENT_IN_LIVE_MODE = 'refused: test payment in live mode';
/** How far back the administrator is shown such payments. */
const FLAGGED_WINDOW_DAYS = 30;
const FLAGGED_SHOWN = 10;

export interface ProviderKeys {
  secretKey: ResolvedSecret | null;
  /** Flutterwave's webhook secret hash; Paystack signs its webhooks with the secret key. */
  webhookSecretHash: ResolvedSecret | null;
}

/** The adapter for a provider with this secret key; only webhooks need Flutterwave's hash. */
export function paymentAdapter(env: Env, provider: PaymentProviderName, secretKey: string, webhookSecretHash = ''): PaymentProvider {
  return provider === 'flutterwave'
    ? createFlutterwave({ secretKey, webhookSecretHash, baseUrl: env.FLUTTERWAVE_BASE_URL })
    : createPaystack({ secretKey, baseUrl: env.PAYSTACK_BASE_URL });
}

/** The keys a provider's calls use now: each one saved in Payment Settings, else the deployment's secret. */
export async function providerKeys(settings: StoredPaymentSettings, env: Env, provider: PaymentProviderName): Promise<ProviderKeys> {
  const [secretKey, webhookSecretHash] = await Promise.all([
    resolvePaymentSecret(settings, PAYMENT_SECRET_KEY_OF[provider], env),
    provider === 'flutterwave' ? resolvePaymentSecret(settings, 'flutterwaveWebhookHash', env) : null,
  ]);
  return { secretKey, webhookSecretHash };
}

function testKeyInLiveMode(provider: PaymentProviderName, source: ResolvedSecret['source'] | 'entered'): string {
  const where =
    source === 'entered'
      ? 'entered'
      : source === 'settings'
        ? 'saved in Payment Settings'
        : `in the deployment's secrets (${DEPLOYMENT_SECRETS[PAYMENT_SECRET_KEY_OF[provider]]})`;
  return (
    `Live mode takes real money, but the ${PAYMENT_PROVIDER_LABELS[provider]} secret key ${where} is a test key (${TEST_KEY_SHAPES[provider]}). ` +
    `Enter the live key (${LIVE_KEY_SHAPES[provider]}), or choose test mode.`
  );
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
    return { kind: 'missing', message: `Card payments are off: no ${PAYMENT_PROVIDER_LABELS[provider]} secret key is set. Enter it in Payment Settings.` };
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
      total: windowTotal(),
    })
    .from(paymentIntents)
    .innerJoin(users, eq(users.id, paymentIntents.userId))
    .where(
      and(
        eq(paymentIntents.status, 'failed'),
        gt(paymentIntents.createdAt, sql`now() - make_interval(days => ${FLAGGED_WINDOW_DAYS})`),
        eq(paymentIntents.providerStatus, TEST_PAYMENT_IN_LIVE_MODE),
      ),
    )
    .orderBy(desc(paymentIntents.lastCheckedAt))
    .limit(FLAGGED_SHOWN);
  return {
    total: rows[0]?.total ?? 0,
    recent: rows.map(({ total: _total, amountKobo, flaggedAt, ...row }) => ({
      ...row,
      amount: koboToNaira(amountKobo),
      flaggedAt: flaggedAt?.toISOString() ?? null,
    })),
  };
}

/**
 * What is known of a provider's secret key in effect: where it comes from, when the provider last
 * accepted it on a check and last answered a payment call made with it (each null when never, or when
 * the key has changed since), and its refusals since then.
 */
async function keyCheck(env: Env, secretKey: ResolvedSecret | null, health: ProviderHealth | undefined) {
  const stillThatKey = Boolean(secretKey && health?.keyFingerprint && health.keyFingerprint === (await keyFingerprint(env, secretKey.value)));
  return {
    source: secretKey?.source ?? null,
    verifiedAt: stillThatKey ? (health?.verifiedAt ?? null) : null,
    usedAt: stillThatKey ? (health?.usedAt ?? null) : null,
    refusals: health?.refusals ?? null,
  };
}

const wholeNaira = (kobo: string) => Number(BigInt(kobo) / 100n);

/** The administrator's view: which keys are set (never their values), whether they work, what stops payments, and what was refused. */
export async function paymentSettingsView(db: DbOrTx, env: Env) {
  const settings = await getPaymentSettings(db, env);
  const [keys, health, flagged] = await Promise.all([
    Promise.all(PAYMENT_PROVIDERS.map((provider) => providerKeys(settings, env, provider))),
    readPaymentHealth(db),
    flaggedPayments(db),
  ]);
  const keysOf = (provider: PaymentProviderName) => keys[PAYMENT_PROVIDERS.indexOf(provider)];
  const checks = await Promise.all(PAYMENT_PROVIDERS.map((provider) => keyCheck(env, keysOf(provider).secretKey, health[provider])));
  const flags = (has: (name: SecretName) => boolean) => Object.fromEntries(SECRET_NAMES.map((name) => [name, has(name)])) as Record<SecretName, boolean>;
  return {
    provider: settings.provider,
    mode: settings.mode,
    minDeposit: wholeNaira(settings.minDepositKobo),
    maxDeposit: wholeNaira(settings.maxDepositKobo),
    bankTransfer: bankTransferOn(settings),
    configuredKeys: flags((name) => Boolean(settings.secrets[name])),
    deploymentKeys: flags((name) => Boolean(env[DEPLOYMENT_SECRETS[name]])),
    keyChecks: Object.fromEntries(PAYMENT_PROVIDERS.map((provider, i) => [provider, checks[i]])) as Record<PaymentProviderName, (typeof checks)[number]>,
    problem: keysProblem(settings.mode, settings.provider, keysOf(settings.provider))?.message ?? null,
    flaggedPayments: flagged,
  };
}

/** Where a key being checked comes from, which decides what the administrator is told. */
type KeyOrigin = 'entered' | 'fallback' | ResolvedSecret['source'];

/** The provider's verdict on a secret key: null when it accepts it. */
async function askProvider(env: Env, provider: PaymentProviderName, secretKey: string): Promise<PaymentProviderError | null> {
  try {
    await paymentAdapter(env, provider, secretKey).checkKey();
    return null;
  } catch (error) {
    if (error instanceof PaymentProviderError) return error;
    throw error;
  }
}

function keyCheckFailure(provider: PaymentProviderName, origin: KeyOrigin, error: PaymentProviderError): AppError {
  const label = PAYMENT_PROVIDER_LABELS[provider];
  const secret = DEPLOYMENT_SECRETS[PAYMENT_SECRET_KEY_OF[provider]];
  const which = {
    entered: 'this secret key',
    fallback: `the deployment's secret key (${secret})`,
    settings: 'the secret key saved in Payment Settings',
    deployment: `the deployment's secret key (${secret})`,
  }[origin];
  const saving = origin === 'entered' || origin === 'fallback';
  if (error.kind === 'unavailable') {
    return new AppError(
      'unavailable',
      `${label} could not be reached to check ${which} (${error.message}). ${saving ? 'Nothing was saved; try' : 'Try'} again in a moment.`,
    );
  }
  const advice = {
    entered: 'Check you copied the whole key for the right mode.',
    fallback: 'Clearing the saved key would bring it into use, so the saved key was kept.',
    settings: 'Enter a working key.',
    deployment: "Enter a working key here, or replace the deployment's secret.",
  }[origin];
  return invalid(`${label} refused ${which}: ${error.message.replace(/[.\s]+$/, '')}. ${advice}`);
}

/** Every secret key a change brings into use, each checked with its provider: the keys entered, and the deployment's where a saved one is cleared. */
async function checkKeysBroughtIntoUse(env: Env, input: PaymentSettingsInput, keysSet: SecretName[], keysCleared: SecretName[]) {
  const verified: Partial<Record<PaymentProviderName, string>> = {};
  const forgotten: PaymentProviderName[] = [];
  await Promise.all(
    PAYMENT_PROVIDERS.map(async (provider) => {
      const name = PAYMENT_SECRET_KEY_OF[provider];
      const origin = keysSet.includes(name) ? 'entered' : keysCleared.includes(name) ? 'fallback' : null;
      if (!origin) return;
      const secretKey = origin === 'entered' ? input[name] : env[DEPLOYMENT_SECRETS[name]];
      if (!secretKey) {
        forgotten.push(provider);
        return;
      }
      const refusal = await askProvider(env, provider, secretKey);
      if (refusal) throw keyCheckFailure(provider, origin, refusal);
      verified[provider] = await keyFingerprint(env, secretKey);
    }),
  );
  return { verified, forgotten };
}

/**
 * An administrator's "Check now" of the secret key in effect. Accepted, it is marked verified and
 * the refusals counted before are forgotten; refused, that is counted like a refusal at checkout.
 */
export async function checkPaymentKey(db: Db, env: Env, actorId: number, provider: PaymentProviderName) {
  const { secretKey } = await providerKeys(await getPaymentSettings(db, env), env, provider);
  if (!secretKey) throw invalid(`No ${PAYMENT_PROVIDER_LABELS[provider]} secret key is set. Enter one in Payment Settings.`);
  const refusal = await askProvider(env, provider, secretKey.value);
  if (refusal?.kind === 'rejected') await recordProviderRefusal(db, provider, refusal.message);
  if (refusal) throw keyCheckFailure(provider, secretKey.source, refusal);
  await recordKeyChecks(db, actorId, { [provider]: await keyFingerprint(env, secretKey.value) }, []);
  return paymentSettingsView(db, env);
}

/** In live mode no test key is saved, nor left in effect for the chosen provider. */
async function refuseTestKeysInLiveMode(next: StoredPaymentSettings, input: PaymentSettingsInput, env: Env) {
  for (const provider of ['paystack', 'flutterwave'] as const) {
    const entered = input[PAYMENT_SECRET_KEY_OF[provider]];
    if (entered && keyDomain(provider, entered) === 'test') throw invalid(testKeyInLiveMode(provider, 'entered'));
  }
  const { secretKey } = await providerKeys(next, env, next.provider);
  if (secretKey && keyDomain(next.provider, secretKey.value) === 'test') throw invalid(testKeyInLiveMode(next.provider, secretKey.source));
}

/** The settings an audit row names with their old and new values (keys are named, never shown). */
function changedSettings(current: StoredPaymentSettings, next: StoredPaymentSettings) {
  const pairs = {
    provider: [current.provider, next.provider],
    mode: [current.mode, next.mode],
    minDeposit: [wholeNaira(current.minDepositKobo), wholeNaira(next.minDepositKobo)],
    maxDeposit: [wholeNaira(current.maxDepositKobo), wholeNaira(next.maxDepositKobo)],
    bankTransfer: [bankTransferOn(current), bankTransferOn(next)],
  };
  return Object.fromEntries(
    Object.entries(pairs)
      .filter(([, [from, to]]) => from !== to)
      .map(([field, [from, to]]) => [field, { from, to }]),
  );
}

export async function updatePaymentSettings(db: Db, env: Env, actorId: number, input: PaymentSettingsInput) {
  const current = await getPaymentSettings(db, env);
  const secrets = { ...current.secrets };
  const keysSet: SecretName[] = [];
  const keysCleared: SecretName[] = [];
  for (const name of SECRET_NAMES) {
    const value = input[name];
    if (value) {
      secrets[name] = await encryptSecret(env.ENCRYPTION_KEY, value);
      keysSet.push(name);
    } else if (input.clearKeys?.includes(name) && secrets[name]) {
      delete secrets[name];
      keysCleared.push(name);
    }
  }
  const next: StoredPaymentSettings = {
    provider: input.provider,
    mode: input.mode,
    minDepositKobo: String(BigInt(input.minDeposit) * 100n),
    maxDepositKobo: String(BigInt(input.maxDeposit) * 100n),
    secrets,
    bankTransfer: input.bankTransfer ?? current.bankTransfer,
  };
  if (next.mode === 'live') await refuseTestKeysInLiveMode(next, input, env);
  const { verified, forgotten } = await checkKeysBroughtIntoUse(env, input, keysSet, keysCleared);
  // Interactive only because saveSetting and recordKeyChecks run their own statements; an administrator's rare save.
  await db.transaction(async (tx) => {
    await saveSetting(tx, 'payment', next, actorId);
    await recordKeyChecks(tx, actorId, verified, forgotten);
    await recordAudit(tx, {
      actorId,
      action: 'settings.payment.update',
      target: { type: 'settings', id: 'payment' },
      details: { provider: next.provider, mode: next.mode, changes: changedSettings(current, next), keysSet, keysCleared },
    });
  });
  return paymentSettingsView(db, env);
}
