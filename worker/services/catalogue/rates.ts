// USD-based exchange rates, cached in the database: the rates service is asked at most once
// an hour (by the cron job, or on first need), and everything else reads the table. A new rate
// is taken only within a band of the last accepted one; outside it the old rate stays and the
// new one waits as a proposal for an administrator (rate-review.ts), since one wrong answer from
// the feed would otherwise reprice the whole catalogue.
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import { auditLog, exchangeRates } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import type { Env } from '../../env';
import { bpsToPercent, formatScaled } from '../../lib/decimal';
import { AppError } from '../../lib/errors';
import { createRatesClient, RATE_SCALE } from '../../providers/rates';
import { recordWarning } from '../oversight';
import { koboAt } from './held-cost';
import { changePercent, getCatalogueSettings } from './margin';
import { applyRateHolds } from './pricing';

const RATE_UNIT = 10n ** BigInt(RATE_SCALE);
/** Cached rates are refreshed when older than this. */
const RATES_MAX_AGE_MS = 60 * 60_000;

export type RatesEnv = Pick<Env, 'RATES_API_URL'>;

const BPS = 10_000n;

/** Rates text as administrators read it: units per USD, up to 6 decimals. */
export const rateText = (perUsdMicros: bigint) => formatScaled(perUsdMicros, RATE_SCALE, RATE_SCALE);

export interface HeldRate {
  currency: string;
  rate: string;
  proposedRate: string;
  changePercent: string | null;
}

/** Whether `next` is within `bandBps` either way of `last`. */
const withinBand = (last: bigint, next: bigint, bandBps: number) => {
  const move = next > last ? next - last : last - next;
  return move * BPS <= last * BigInt(bandBps);
};

/**
 * Asks the rates service and stores what it gives: a currency's first rate, and any rate within
 * the band of the last accepted one, are taken; others are held as proposals (a warning tells the
 * administrators of new ones), unless an administrator already rejected that very rate. When a
 * proposal begins, changes or ends, the services it touches are judged against it in the same
 * transaction: those that would sell under cost at it stop until the review (held-cost.ts).
 */
export async function refreshRates(db: DbOrTx, env: RatesEnv): Promise<{ stored: number; held: HeldRate[]; updatedAt: string }> {
  const latest = await createRatesClient({ baseUrl: env.RATES_API_URL }).latest();
  // Interactive: reads the rates FOR UPDATE, then decides per currency to accept or hold.
  return db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    const last = new Map((await tx.select().from(exchangeRates).orderBy(asc(exchangeRates.currency)).for('update')).map((row) => [row.currency, row]));
    const accepted: Array<typeof exchangeRates.$inferInsert> = [];
    const outOfBand: Array<{ currency: string; proposed: bigint }> = [];
    for (const [currency, perUsdMicros] of Object.entries(latest.rates)) {
      const current = last.get(currency);
      if (!current || withinBand(current.perUsdMicros, perUsdMicros, settings.rateBandBps)) {
        accepted.push({ currency, perUsdMicros, sourceUpdatedAt: latest.updatedAt, proposedPerUsdMicros: null, proposedAt: null });
      } else {
        outOfBand.push({ currency, proposed: perUsdMicros });
      }
    }
    if (accepted.length > 0) {
      await tx
        .insert(exchangeRates)
        .values(accepted)
        .onConflictDoUpdate({
          target: exchangeRates.currency,
          set: {
            perUsdMicros: sql`excluded.per_usd_micros`,
            sourceUpdatedAt: sql`excluded.source_updated_at`,
            fetchedAt: sql`now()`,
            // A rate back within the band ends any proposal: the feed no longer says it.
            proposedPerUsdMicros: null,
            proposedAt: null,
          },
        });
    }
    const rejected = await lastRejected(
      tx,
      outOfBand.map((entry) => entry.currency),
    );
    const held: HeldRate[] = [];
    const heldNow = new Map<string, bigint | null>();
    for (const { currency, proposed } of outOfBand) {
      const current = last.get(currency)!;
      const proposal = rejected.get(currency) === proposed ? null : proposed;
      heldNow.set(currency, proposal);
      await tx
        .update(exchangeRates)
        .set({
          proposedPerUsdMicros: proposal,
          proposedAt: proposal === null ? null : proposal === current.proposedPerUsdMicros ? current.proposedAt : new Date(),
          fetchedAt: new Date(),
        })
        .where(eq(exchangeRates.currency, currency));
      if (proposal === null) continue;
      held.push({
        currency,
        rate: rateText(current.perUsdMicros),
        proposedRate: rateText(proposal),
        changePercent: changePercent(current.perUsdMicros, proposal),
      });
    }
    // Only proposals new since the last refresh are news; one still waiting was told of already.
    const fresh = held.filter((entry) => last.get(entry.currency)!.proposedPerUsdMicros === null);
    if (fresh.length > 0) {
      await recordWarning(tx, {
        kind: 'rate_proposed',
        message: `Exchange rates outside the ±${bpsToPercent(settings.rateBandBps)}% band were held for review, the old rates stay until an administrator accepts them: ${fresh
          .map((entry) => `${entry.currency} ${entry.rate} → ${entry.proposedRate} (${entry.changePercent}%)`)
          .join(', ')}`,
        details: { proposals: fresh },
      });
    }
    // A proposal that began, changed or ended moves what may sell; one still as it was decided that already.
    const proposalMoved = Object.keys(latest.rates).filter(
      (currency) => (last.get(currency)?.proposedPerUsdMicros ?? null) !== (heldNow.get(currency) ?? null),
    );
    await applyRateHolds(tx, proposalMoved, settings, {
      actorId: null,
      cause: 'rate',
      targetType: 'exchange_rate',
      targetId: proposalMoved.length === 1 ? proposalMoved[0] : null,
      details: { held: held.map((entry) => entry.currency), moved: proposalMoved },
    });
    return { stored: accepted.length, held, updatedAt: latest.updatedAt.toISOString() };
  });
}

/** The rate an administrator last rejected per currency, so the feed repeating it asks nobody again. */
async function lastRejected(tx: DbOrTx, currencies: string[]): Promise<Map<string, bigint>> {
  if (currencies.length === 0) return new Map();
  const rows = await tx
    .selectDistinctOn([auditLog.targetId], { currency: auditLog.targetId, details: auditLog.details })
    .from(auditLog)
    .where(and(eq(auditLog.action, 'rate.reject'), inArray(auditLog.targetId, currencies)))
    .orderBy(auditLog.targetId, desc(auditLog.id));
  return new Map(rows.map((row) => [row.currency!, BigInt((row.details as { rejectedMicros: string }).rejectedMicros)]));
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
  const read = async () =>
    new Map((await db.select().from(exchangeRates).where(inArray(exchangeRates.currency, currencies))).map((row) => [row.currency, row.perUsdMicros]));
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
  if (code === 'NGN') return (micros) => koboAt(micros, RATE_UNIT, RATE_UNIT);
  const rates = await perUsd(db, env, ['NGN', code]);
  const ngnPerUsd = rates.get('NGN')!;
  const currencyPerUsd = code === 'USD' ? RATE_UNIT : rates.get(code)!;
  return (micros) => koboAt(micros, ngnPerUsd, currencyPerUsd);
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
