// What administrators decide about prices the system held back instead of believing: exchange
// rates outside their band (rates.ts) and provider prices the catalogue sync found odd
// (catalogue-sync.ts). Accepting reprices at once through the margin guard, audited with every
// service's before and after; rejecting a rate keeps the old one. Either decision lets the services
// the held figure had stopped (held-cost.ts) sell again, unless another held figure still says no.
// Each decision names the value the administrator saw, so a proposal that changed in the meantime
// is never decided blind.
import { and, asc, count, eq, inArray, isNotNull, isNull, or } from 'drizzle-orm';
import { catalogueWarnings, exchangeRates, providers, services } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import { bpsToPercent, formatScaled, koboToNaira, parseDecimalExact } from '../../lib/decimal';
import { conflict, notFound } from '../../lib/errors';
import { RATE_SCALE } from '../../providers/rates';
import { PROVIDER_MONEY_SCALE } from '../../providers/smm/types';
import type { ProviderPriceAcceptInput, RateReviewInput } from '../../schemas/catalogue';
import type { Pagination } from '../../schemas/common';
import { recordAudit, recordWarning } from '../oversight';

import { adminService } from './catalogue';
import { PROVIDER_PRICE_REASON } from './catalogue-sync';
import { heldCostKobo, heldStopWarning, pricedThrough, readRateFigures } from './held-cost';
import { changePercent, getCatalogueSettings } from './margin';
import { applyRateHolds, priceChange, repriceServices, reviewPrice, reviewUnderHolds, selectPriceStates } from './pricing';
import type { ProviderEnv } from './providers';
import { koboConverter, type RatesEnv, rateText } from './rates';

// ---------------------------------------------------------------- exchange rates

type RateRow = typeof exchangeRates.$inferSelect;

function toRateView(row: RateRow) {
  return {
    currency: row.currency,
    rate: rateText(row.perUsdMicros),
    proposedRate: row.proposedPerUsdMicros === null ? null : rateText(row.proposedPerUsdMicros),
    changePercent: row.proposedPerUsdMicros === null ? null : changePercent(row.perUsdMicros, row.proposedPerUsdMicros),
    proposedAt: row.proposedAt?.toISOString() ?? null,
    updatedAt: row.sourceUpdatedAt.toISOString(),
    fetchedAt: row.fetchedAt.toISOString(),
  };
}

/** The rates prices depend on (the naira and the providers' currencies) and every rate held for review. */
export async function listRateReview(db: Db) {
  const [settings, inUse] = await Promise.all([getCatalogueSettings(db), db.selectDistinct({ currency: providers.currency }).from(providers)]);
  const currencies = ['NGN', ...inUse.map((row) => row.currency)];
  const rows = await db
    .select()
    .from(exchangeRates)
    .where(or(inArray(exchangeRates.currency, currencies), isNotNull(exchangeRates.proposedPerUsdMicros)))
    .orderBy(asc(exchangeRates.currency));
  return { bandPercent: bpsToPercent(settings.rateBandBps), rates: rows.map(toRateView) };
}

/** The currency's row with the proposal the administrator saw, locked for the decision. */
async function heldRate(tx: DbOrTx, currency: string, shown: string): Promise<RateRow & { proposedPerUsdMicros: bigint }> {
  const [row] = await tx.select().from(exchangeRates).where(eq(exchangeRates.currency, currency)).for('update');
  if (!row) throw notFound(`No exchange rate for ${currency}`);
  if (row.proposedPerUsdMicros === null) throw conflict(`No new ${currency} rate is waiting for review`);
  if (parseDecimalExact(shown, RATE_SCALE) !== row.proposedPerUsdMicros) {
    throw conflict(`The proposed ${currency} rate is now ${rateText(row.proposedPerUsdMicros)}; look at it again`);
  }
  return { ...row, proposedPerUsdMicros: row.proposedPerUsdMicros };
}

/**
 * Takes a held rate as the accepted one and reprices at once every service it affects: those of
 * providers pricing in that currency, or of every provider not pricing in naira when it is the naira.
 * Those it had stopped sell again at their new price, unless the guard or another held figure says no.
 */
export async function acceptRate(db: Db, env: RatesEnv, actorId: number, currency: string, input: RateReviewInput) {
  // Interactive: checks the held rate is the one reviewed, then reprices with it.
  return db.transaction(async (tx) => {
    const row = await heldRate(tx, currency, input.rate);
    const change = {
      currency,
      before: rateText(row.perUsdMicros),
      after: rateText(row.proposedPerUsdMicros),
      changePercent: changePercent(row.perUsdMicros, row.proposedPerUsdMicros),
    };
    const [accepted] = await tx
      .update(exchangeRates)
      .set({ perUsdMicros: row.proposedPerUsdMicros, sourceUpdatedAt: row.proposedAt ?? new Date(), proposedPerUsdMicros: null, proposedAt: null })
      .where(eq(exchangeRates.currency, currency))
      .returning();
    await recordAudit(tx, { actorId, action: 'rate.accept', target: { type: 'exchange_rate', id: currency }, details: change });

    const settings = await getCatalogueSettings(tx);
    const affected = await tx.select({ id: providers.id, currency: providers.currency }).from(providers).where(pricedThrough(currency));
    const converters = new Map<number, (micros: bigint) => bigint>();
    for (const provider of affected) converters.set(provider.id, await koboConverter(tx, env, provider.currency));
    // One pass over all of them (locking in id order) and one audit row for the acceptance.
    const repriced =
      affected.length === 0
        ? 0
        : await repriceServices(
            tx,
            inArray(services.providerId, [...converters.keys()]),
            settings,
            { actorId, cause: 'rate', targetType: 'exchange_rate', targetId: currency, details: { rate: change } },
            (service) => converters.get(service.providerId)!(service.providerRateMicros),
          );
    return { ...toRateView(accepted), repriced };
  });
}

/**
 * Drops a held rate: the old one stays, the services it had stopped sell again at their price
 * (unless another held figure still says no), and the feed repeating this very rate asks nobody again.
 */
export async function rejectRate(db: Db, actorId: number, currency: string, input: RateReviewInput) {
  // Interactive: clears the held rate only if it is the one reviewed.
  return db.transaction(async (tx) => {
    const row = await heldRate(tx, currency, input.rate);
    const [kept] = await tx.update(exchangeRates).set({ proposedPerUsdMicros: null, proposedAt: null }).where(eq(exchangeRates.currency, currency)).returning();
    const details = {
      currency,
      rate: rateText(row.perUsdMicros),
      rejectedRate: rateText(row.proposedPerUsdMicros),
      rejectedMicros: String(row.proposedPerUsdMicros),
    };
    await recordAudit(tx, { actorId, action: 'rate.reject', target: { type: 'exchange_rate', id: currency }, details });
    const settings = await getCatalogueSettings(tx);
    await applyRateHolds(tx, [currency], settings, { actorId, cause: 'rate', targetType: 'exchange_rate', targetId: currency, details: { rejected: details } });
    return toRateView(kept);
  });
}

// ---------------------------------------------------------------- provider prices

const providerMoney = (micros: bigint) => formatScaled(micros, PROVIDER_MONEY_SCALE, 6);

/** A held price's service, beyond its price state. */
const heldColumns = {
  providerName: providers.name,
  currency: providers.currency,
  providerRateMicros: services.providerRateMicros,
  proposedProviderRateMicros: services.proposedProviderRateMicros,
};

const isHeld = or(isNotNull(services.proposedProviderRateMicros), eq(services.disabledReason, PROVIDER_PRICE_REASON));

/**
 * Services whose new provider price is held (or came without one), with what accepting it would
 * make of the cost and price at today's accepted rate.
 */
export async function listHeldProviderPrices(db: Db, env: ProviderEnv, query: Pagination) {
  const [settings, rows, [{ total }]] = await Promise.all([
    getCatalogueSettings(db),
    selectPriceStates(db, heldColumns)
      .innerJoin(providers, eq(providers.id, services.providerId))
      .where(isHeld)
      .orderBy(asc(services.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(services).where(isHeld),
  ]);
  const converters = new Map<string, (micros: bigint) => bigint>();
  for (const currency of new Set(rows.map((row) => row.currency))) converters.set(currency, await koboConverter(db, env, currency));
  const data = rows.map((row) => {
    const proposed = row.proposedProviderRateMicros;
    const newCostKobo = proposed === null ? null : converters.get(row.currency)!(proposed);
    const newRateKobo = newCostKobo === null ? null : reviewPrice({ ...row, enabled: true, disabledReason: null }, newCostKobo, settings).rateKobo;
    return {
      serviceId: row.id,
      name: row.name,
      providerId: row.providerId,
      providerName: row.providerName,
      currency: row.currency,
      providerRate: providerMoney(row.providerRateMicros),
      /** null: the provider gave no readable price; there is nothing to accept until it does. */
      proposedProviderRate: proposed === null ? null : providerMoney(proposed),
      changePercent: proposed === null ? null : changePercent(row.providerRateMicros, proposed),
      cost: koboToNaira(row.costKobo),
      rate: koboToNaira(row.rateKobo),
      newCost: newCostKobo === null ? null : koboToNaira(newCostKobo),
      newRate: newRateKobo === null ? null : koboToNaira(newRateKobo),
      enabled: row.enabled,
      disabledReason: row.disabledReason,
    };
  });
  return { data, total };
}

/**
 * Takes a held provider price as the service's own: the cost follows at the accepted rate and the
 * price through the guard, and a service the held price switched off is switched back on unless
 * `enable` is false (it then stays off as the administrator's choice).
 */
export async function acceptProviderPrice(db: Db, env: ProviderEnv, actorId: number, serviceId: number, input: ProviderPriceAcceptInput) {
  // Interactive: reads the held price under the service's row lock, then decides.
  await db.transaction(async (tx) => {
    const [state] = await selectPriceStates(tx, heldColumns)
      .innerJoin(providers, eq(providers.id, services.providerId))
      .where(eq(services.id, serviceId))
      .for('no key update', { of: services });
    if (!state) throw notFound('Service not found');
    const proposed = state.proposedProviderRateMicros;
    if (proposed === null) throw conflict('No new provider price is held for this service');
    if (parseDecimalExact(input.providerRate, PROVIDER_MONEY_SCALE) !== proposed) {
      throw conflict(`The held provider price is now ${providerMoney(proposed)} ${state.currency}; look at it again`);
    }
    const settings = await getCatalogueSettings(tx);
    const costKobo = (await koboConverter(tx, env, state.currency))(proposed);
    const heldOff = state.disabledReason === PROVIDER_PRICE_REASON;
    const reopen = heldOff && input.enable !== false;
    // The price is accepted, but a rate held meanwhile may still put the service under cost.
    const heldKobo = heldCostKobo(await readRateFigures(tx), { currency: state.currency, providerRateMicros: proposed, proposedProviderRateMicros: null });
    const review = reviewUnderHolds(
      { ...state, enabled: state.enabled || reopen, disabledReason: reopen ? null : heldOff ? 'admin' : state.disabledReason },
      costKobo,
      heldKobo,
      settings,
    );
    await tx
      .update(services)
      .set({
        providerRateMicros: proposed,
        proposedProviderRateMicros: null,
        costKobo,
        rateKobo: review.rateKobo,
        enabled: review.enabled,
        disabledReason: review.disabledReason,
        updatedAt: new Date(),
      })
      .where(eq(services.id, serviceId));
    if (review.warning) await recordWarning(tx, review.warning);
    if (review.stopped) await recordWarning(tx, heldStopWarning([{ ...state, rateKobo: review.rateKobo, heldCostKobo: heldKobo! }]));
    // The warnings about this price are answered.
    await tx
      .update(catalogueWarnings)
      .set({ acknowledgedAt: new Date(), acknowledgedBy: actorId })
      .where(and(eq(catalogueWarnings.serviceId, serviceId), eq(catalogueWarnings.kind, 'provider_price_suspect'), isNull(catalogueWarnings.acknowledgedAt)));
    await recordAudit(tx, {
      actorId,
      action: 'service.provider_price_accept',
      target: { type: 'service', id: serviceId },
      details: {
        currency: state.currency,
        providerRate: { before: providerMoney(state.providerRateMicros), after: providerMoney(proposed) },
        change: priceChange(state, { costKobo, rateKobo: review.rateKobo, enabled: review.enabled }),
      },
    });
  });
  return adminService(db, serviceId);
}
