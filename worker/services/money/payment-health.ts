// Whether the payment keys work, as far as the shop has seen: when the provider last accepted the
// secret key in effect, and how often it has refused the shop's own calls since. A mistyped or
// revoked key takes card funding down for every customer, so the administrator must hear of it at
// once. Kept as one JSON document in the settings table, apart from the payment settings, so a
// refusal is counted by one statement that never overwrites what an administrator saves.
import { eq, inArray, type SQL, sql } from 'drizzle-orm';
import { settings } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import type { Env } from '../../env';
import { hmacHex } from '../../lib/crypto';
import type { PaymentProviderName } from '../../providers/payments/types';
import { PAYMENT_PROVIDER_LABELS } from '../../schemas/settings';
import { DEFAULT_PAYMENT_SETTINGS } from '../settings';

const HEALTH_KEY = 'payment_health';
/** Refusal reasons are the provider's words; a runaway one is cut short. */
const REASON_MAX = 300;

export interface ProviderRefusals {
  count: number;
  lastError: string;
  lastAt: string;
}

export interface ProviderHealth {
  /** When the provider last accepted a secret key on an administrator's check or save, and which one (a fingerprint, never the key). */
  verifiedAt?: string;
  keyFingerprint?: string;
  /** When the provider last answered a payment call (a checkout started, a payment verified) made with that key. */
  usedAt?: string;
  /** The provider's refusals of the shop's calls since then. */
  refusals?: ProviderRefusals;
}

export type PaymentHealth = Partial<Record<PaymentProviderName, ProviderHealth>>;

/**
 * Names a key without revealing it: keyed with ENCRYPTION_KEY, so the stored value cannot be
 * tried against guesses by someone who reads the database alone.
 */
export async function keyFingerprint(env: Pick<Env, 'ENCRYPTION_KEY'>, secretKey: string): Promise<string> {
  return (await hmacHex(env.ENCRYPTION_KEY, `payment-key:${secretKey.trim()}`)).slice(0, 32);
}

export async function readPaymentHealth(db: DbOrTx): Promise<PaymentHealth> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, HEALTH_KEY));
  return (row?.value ?? {}) as PaymentHealth;
}

/**
 * For the dashboard: the refusals of the provider that takes deposits now, counted since its key
 * was last accepted; null while it has refused nothing.
 */
export async function paymentRefusalAlert(db: DbOrTx) {
  const rows = await db
    .select({ key: settings.key, value: settings.value })
    .from(settings)
    .where(inArray(settings.key, ['payment', HEALTH_KEY]));
  const settingValue = (key: string) => rows.find((row) => row.key === key)?.value as Record<string, unknown> | undefined;
  const provider = (settingValue('payment')?.provider as PaymentProviderName | undefined) ?? DEFAULT_PAYMENT_SETTINGS.provider;
  const health = (settingValue(HEALTH_KEY) ?? {}) as PaymentHealth;
  const refusals = health[provider]?.refusals;
  if (!refusals?.count) return null;
  return { provider, label: PAYMENT_PROVIDER_LABELS[provider], ...refusals, verifiedAt: health[provider]?.verifiedAt ?? null };
}

/**
 * Records keys the provider has just accepted (a fingerprint each) and forgets providers left with
 * no key: either way the refusals counted before no longer describe the key in effect.
 */
export async function recordKeyChecks(db: DbOrTx, actorId: number, verified: Partial<Record<PaymentProviderName, string>>, forgotten: PaymentProviderName[]) {
  if (Object.keys(verified).length === 0 && forgotten.length === 0) return;
  const at = new Date().toISOString();
  const entries = Object.fromEntries(Object.entries(verified).map(([provider, fingerprint]) => [provider, { verifiedAt: at, keyFingerprint: fingerprint }]));
  const value = JSON.stringify(entries);
  await db.execute(sql`
    insert into ${settings} as s (key, value, updated_by) values (${HEALTH_KEY}, ${value}::jsonb, ${actorId})
    on conflict (key) do update
      set value = (s.value - ${`{${forgotten.join(',')}}`}::text[]) || excluded.value, updated_at = now(), updated_by = excluded.updated_by`);
}

/**
 * Counts one refusal of the shop by the provider, keeping the latest reason: one statement, run
 * only after a call has already failed.
 */
export async function recordProviderRefusal(db: DbOrTx, provider: PaymentProviderName, reason: string) {
  const refusal = (count: SQL) =>
    sql`jsonb_build_object('count', ${count}, 'lastError', ${reason.slice(0, REASON_MAX)}::text, 'lastAt', ${new Date().toISOString()}::text)`;
  const first = sql`jsonb_build_object(${provider}::text, jsonb_build_object('refusals', ${refusal(sql`1`)}))`;
  const counted = sql`coalesce((s.value #>> ${`{${provider},refusals,count}`}::text[])::int, 0) + 1`;
  await db.execute(sql`
    insert into ${settings} as s (key, value) values (${HEALTH_KEY}, ${first})
    on conflict (key) do update
      set value = s.value || jsonb_build_object(${provider}::text, coalesce(s.value -> ${provider}::text, '{}'::jsonb) || jsonb_build_object('refusals', ${refusal(counted)})),
        updated_at = now()`);
}

/** How stale the recorded use may grow before a payment call writes it again: one write per provider per interval, not one per payment. */
const USE_RECORD_INTERVAL = '5 minutes';

/**
 * Records that the provider just answered a payment call made with this key: it works, whatever
 * Check now last said. Refusals counted before no longer describe it, and a different key than the
 * one recorded replaces that record. One statement, which writes only when something changes or the
 * last record is older than USE_RECORD_INTERVAL: a plain UPDATE, whose WHERE leaves the row unlocked
 * when there is nothing to write (an upsert's DO UPDATE locks it on every payment), and an INSERT for
 * the first record only.
 */
export async function recordKeyUse(db: DbOrTx, provider: PaymentProviderName, fingerprint: string) {
  const at = new Date().toISOString();
  const fresh = sql`jsonb_build_object('keyFingerprint', ${fingerprint}::text, 'usedAt', ${at}::text)`;
  const path = (field: string) => `{${provider},${field}}`;
  await db.execute(sql`
    with updated as (
      update ${settings} s
      set value = s.value || jsonb_build_object(${provider}::text,
          case when s.value #>> ${path('keyFingerprint')}::text[] = ${fingerprint}::text
            then (s.value -> ${provider}::text) - 'refusals' || jsonb_build_object('usedAt', ${at}::text)
            else ${fresh} end),
        updated_at = now()
      where s.key = ${HEALTH_KEY}
        and (s.value #>> ${path('keyFingerprint')}::text[] is distinct from ${fingerprint}::text
          or s.value #> ${path('refusals')}::text[] is not null
          or coalesce((s.value #>> ${path('usedAt')}::text[])::timestamptz, '-infinity') < now() - ${USE_RECORD_INTERVAL}::interval)
      returning 1
    )
    insert into ${settings} (key, value)
    select ${HEALTH_KEY}, jsonb_build_object(${provider}::text, ${fresh})
    where not exists (select 1 from ${settings} where key = ${HEALTH_KEY})
    on conflict (key) do nothing`);
}
