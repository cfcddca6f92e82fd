// USD-based exchange rates, cached in the database: the rates service is asked at most once
// an hour (by the cron job, or on first need), and everything else reads the table.
import { inArray, sql } from 'drizzle-orm';
import { exchangeRates } from '../../drizzle/schema';
import type { DbOrTx } from '../db';
import type { Env } from '../env';
import { ceilDiv, formatScaled } from '../lib/decimal';
import { AppError } from '../lib/errors';
import { createRatesClient, RATE_SCALE } from '../providers/rates';

const RATE_UNIT = 10n ** BigInt(RATE_SCALE);
/** Provider money arrives at scale 6 (micro-units), the same scale as the rates. */
const MICRO_UNIT = 1_000_000n;
const KOBO_PER_NAIRA = 100n;
/** Cached rates are refreshed when older than this. */
const RATES_MAX_AGE_MS = 60 * 60_000;

export type RatesEnv = Pick<Env, 'RATES_API_URL'>;

/** Asks the rates service and stores every rate it gives; returns how many were stored. */
export async function refreshRates(db: DbOrTx, env: RatesEnv): Promise<{ stored: number; updatedAt: string }> {
  const latest = await createRatesClient({ baseUrl: env.RATES_API_URL }).latest();
  const rows = Object.entries(latest.rates).map(([currency, perUsdMicros]) => ({ currency, perUsdMicros, sourceUpdatedAt: latest.updatedAt }));
  await db
    .insert(exchangeRates)
    .values(rows)
    .onConflictDoUpdate({
      target: exchangeRates.currency,
      set: { perUsdMicros: sql`excluded.per_usd_micros`, sourceUpdatedAt: sql`excluded.source_updated_at`, fetchedAt: sql`now()` },
    });
  return { stored: rows.length, updatedAt: latest.updatedAt.toISOString() };
}

/** Refreshes the cache when it is missing or older than RATES_MAX_AGE_MS. */
export async function refreshRatesIfStale(db: DbOrTx, env: RatesEnv): Promise<{ refreshed: boolean }> {
  const [row] = await db.select({ fetchedAt: sql<Date | null>`max(${exchangeRates.fetchedAt})`.mapWith((v) => (v ? new Date(v) : null)) }).from(exchangeRates);
  if (row?.fetchedAt && Date.now() - row.fetchedAt.getTime() < RATES_MAX_AGE_MS) return { refreshed: false };
  await refreshRates(db, env);
  return { refreshed: true };
}

/** Units per USD (scale 6) of the currencies asked for; fetches once when the cache lacks one. */
async function perUsd(db: DbOrTx, env: RatesEnv, currencies: string[]): Promise<Map<string, bigint>> {
  const read = async () => new Map(
    (await db.select().from(exchangeRates).where(inArray(exchangeRates.currency, currencies))).map((row) => [row.currency, row.perUsdMicros]),
  );
  let rates = await read();
  if (currencies.every((currency) => rates.has(currency) || currency === 'USD')) return rates;
  await refreshRates(db, env);
  rates = await read();
  const missing = currencies.find((currency) => !rates.has(currency) && currency !== 'USD');
  if (missing) throw new AppError('unavailable', `No exchange rate for ${missing} yet`);
  return rates;
}

/**
 * Converts prices in micro-units of `currency` into NGN kobo, rounding up to the kobo:
 * what we pay must never be understated. Returns a converter so a catalogue converts with one rate.
 */
export async function koboConverter(db: DbOrTx, env: RatesEnv, currency: string): Promise<(micros: bigint) => bigint> {
  const code = currency.toUpperCase();
  if (code === 'NGN') return (micros) => ceilDiv(micros * KOBO_PER_NAIRA, MICRO_UNIT);
  const rates = await perUsd(db, env, ['NGN', code]);
  const ngnPerUsd = rates.get('NGN')!;
  const currencyPerUsd = code === 'USD' ? RATE_UNIT : rates.get(code)!;
  // kobo = micros / 10^6 × (NGN per USD / currency per USD) × 100
  return (micros) => ceilDiv(micros * ngnPerUsd * KOBO_PER_NAIRA, currencyPerUsd * MICRO_UNIT);
}

/** The cached rates for the SPA's currency display: decimal text per currency, USD-based. */
export async function listRates(db: DbOrTx, env: RatesEnv): Promise<{ base: 'USD'; updatedAt: string | null; rates: Record<string, string> }> {
  let rows = await db.select().from(exchangeRates);
  if (rows.length === 0) {
    await refreshRates(db, env);
    rows = await db.select().from(exchangeRates);
  }
  const updatedAt = rows.reduce<Date | null>((latest, row) => (!latest || row.sourceUpdatedAt > latest ? row.sourceUpdatedAt : latest), null);
  return {
    base: 'USD',
    updatedAt: updatedAt?.toISOString() ?? null,
    rates: Object.fromEntries(rows.map((row) => [row.currency, formatScaled(row.perUsdMicros, RATE_SCALE, RATE_SCALE).replace(/\.?0+$/, '')])),
  };
}
