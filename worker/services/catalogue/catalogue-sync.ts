// The provider catalogue sync: keeps our services' provider prices, costs, ranges and flags in step
// with the provider's live list, through the margin guard. A provider price the sync does not
// believe (missing, 0, or too far from the last one: pricing.ts) moves no money: the service keeps
// its cost and price, is switched off and the price is held for an administrator to accept. While
// an exchange rate is held for review, a service whose new price would be under its cost at the
// held rate stops selling until the review (held-cost.ts).
import { asc, eq } from 'drizzle-orm';
import { providers, services } from '../../../drizzle/schema';
import type { Db } from '../../db';
import { formatNaira, formatScaled, koboToNaira, parseDecimal } from '../../lib/decimal';
import { isRecord } from '../../providers/http';
import { PROVIDER_MONEY_SCALE, type SmmService, type SmmServiceCatalogue } from '../../providers/smm/types';
import type { PriceChange } from '../../schemas/catalogue';
import { recordWarnings, type WarningInput } from '../oversight';
import { HELD_BELOW_COST, type HeldStop, heldCostKobo, heldStopWarning, type RateFigures, readRateFigures } from './held-cost';
import { type CatalogueSettings, changePercent, getCatalogueSettings } from './margin';
import {
  auditPriceChanges,
  type ColumnTypes,
  PRICE_COLUMNS,
  type PriceState,
  priceChange,
  providerPriceSuspect,
  reviewUnderHolds,
  selectPriceStates,
  updateServicesFromRecords,
} from './pricing';
import { getProvider, type ProviderEnv, providerClient } from './providers';
import { koboConverter } from './rates';
import { refillDaysFromName } from './refill-window';

const SYNC_COLUMNS: ColumnTypes = {
  ...PRICE_COLUMNS,
  type: 'text',
  provider_rate_micros: 'bigint',
  cost_kobo: 'bigint',
  min: 'int',
  max: 'int',
  provider_min: 'int',
  provider_max: 'int',
  refill: 'boolean',
  cancel: 'boolean',
  dripfeed: 'boolean',
  refill_days: 'int',
  proposed_provider_rate_micros: 'bigint',
};

export interface CatalogueSyncResult {
  providerId: number;
  checked: number;
  updated: number;
  repriced: number;
  disabled: number;
  missing: number;
  restored: number;
  /** Services whose new provider price was held for review (and that were switched off for it). */
  held: number;
  /** Services switched off since their price would be under cost at an exchange rate held for review. */
  stopped: number;
  unreadable: number;
}

/** What the sync's decisions need beyond the service: the rules, the rates as held, and where to put what it tells. */
interface SyncContext {
  settings: CatalogueSettings;
  currency: string;
  rates: ReadonlyMap<string, RateFigures>;
  warnings: WarningInput[];
  stopped: HeldStop[];
  result: CatalogueSyncResult;
}

/** Why a service is off while its provider price waits for an administrator. */
export const PROVIDER_PRICE_REASON = 'provider_price';

type SyncState = PriceState & {
  providerServiceId: string;
  type: string;
  providerRateMicros: bigint;
  min: number;
  max: number;
  providerMin: number;
  providerMax: number;
  refill: boolean;
  cancel: boolean;
  dripfeed: boolean;
  refillDays: number | null;
  refillDaysByAdmin: boolean;
  proposedProviderRateMicros: bigint | null;
};
type SyncRecord = ReturnType<typeof syncRecord>;

/**
 * Brings a provider's services up to date with its live catalogue: provider price and cost,
 * ranges (ours kept inside the provider's), flags; the margin guard on every new cost;
 * services gone from the provider switched off, and switched back on when they return.
 */
export async function syncProviderCatalogue(db: Db, env: ProviderEnv, providerId: number): Promise<CatalogueSyncResult> {
  const provider = await getProvider(db, providerId);
  const client = await providerClient(env, provider);
  const [catalogue, toKobo] = await Promise.all([client.services(), koboConverter(db, env, provider.currency)]);
  const live = new Map(catalogue.services.map((service) => [service.id, service]));
  const priceless = pricelessIds(catalogue.unreadable);
  const result: CatalogueSyncResult = {
    providerId,
    checked: 0,
    updated: 0,
    repriced: 0,
    disabled: 0,
    missing: 0,
    restored: 0,
    held: 0,
    stopped: 0,
    unreadable: catalogue.unreadable.length,
  };

  // Interactive: locks our copy of the provider's services, then decides per service what changed.
  await db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    const ours: SyncState[] = await selectPriceStates(tx, {
      providerServiceId: services.providerServiceId,
      type: services.type,
      providerRateMicros: services.providerRateMicros,
      min: services.min,
      max: services.max,
      providerMin: services.providerMin,
      providerMax: services.providerMax,
      refill: services.refill,
      cancel: services.cancel,
      dripfeed: services.dripfeed,
      refillDays: services.refillDays,
      refillDaysByAdmin: services.refillDaysByAdmin,
      proposedProviderRateMicros: services.proposedProviderRateMicros,
    })
      .where(eq(services.providerId, providerId))
      // Locked in id order, as every repricing locks, so two of them never wait on each other; a
      // no-key-update lock lets orders for these services be placed meanwhile.
      .orderBy(asc(services.id))
      .for('no key update', { of: services });
    // Read once the services are locked: a hold committed meanwhile is seen here, or waits for these locks and decides after.
    const context: SyncContext = { settings, currency: provider.currency, rates: await readRateFigures(tx), warnings: [], stopped: [], result };
    const { warnings } = context;
    const records: SyncRecord[] = [];
    const changes: PriceChange[] = [];
    for (const current of ours) {
      result.checked += 1;
      const offer = live.get(current.providerServiceId);
      const was = syncRecord(current);
      let next: SyncRecord;
      let note: string | undefined;
      if (!offer && !priceless.has(current.providerServiceId)) {
        // Off for a hold only, it would sell again after the review: it must not while it is gone.
        if (!current.enabled && current.disabledReason !== HELD_BELOW_COST) continue;
        result.missing += 1;
        next = { ...was, enabled: false, disabled_reason: 'provider_missing' };
        note = 'gone from the provider';
        warnings.push({
          kind: 'service_missing',
          serviceId: current.id,
          providerId,
          message: `${current.name}: the provider no longer lists service ${current.providerServiceId}; it was switched off`,
        });
      } else if (providerPriceSuspect(current.providerRateMicros, offer?.ratePer1000Micros ?? null, settings.providerPriceFactorBps)) {
        const proposed = offer?.ratePer1000Micros ?? null;
        next = heldRecord(current, proposed);
        // Already held at this price: the administrators were told when it first came.
        if (sameRecord(next, was)) continue;
        result.held += 1;
        note = 'provider price held for review';
        warnings.push(suspectWarning(current, proposed, provider.currency, settings));
      } else {
        next = offerRecord(current, offer!, toKobo(offer!.ratePer1000Micros), context);
      }
      if (sameRecord(next, was)) continue;
      records.push(next);
      const change = priceChange(current, { costKobo: next.cost_kobo, rateKobo: next.rate_kobo, enabled: next.enabled }, note);
      if (change) changes.push(change);
    }
    result.updated = records.length;
    result.stopped = context.stopped.length;
    if (context.stopped.length > 0) warnings.push(heldStopWarning(context.stopped));
    await updateServicesFromRecords(tx, SYNC_COLUMNS, records);
    // One INSERT for them all (chunked): a provider repricing its whole catalogue would otherwise cost thousands of round trips.
    await recordWarnings(tx, warnings);
    await auditPriceChanges(tx, { actorId: null, cause: 'sync', targetType: 'provider', targetId: String(providerId) }, changes);
    await tx.update(providers).set({ catalogueSyncedAt: new Date(), lastError: null }).where(eq(providers.id, providerId));
  });
  return result;
}

/**
 * A service at a believable provider price: the new cost through the guard and the holds, and the
 * provider's ranges and flags.
 */
function offerRecord(current: SyncState, offer: SmmService, costKobo: bigint, context: SyncContext): SyncRecord {
  const { result } = context;
  // Off only for being gone or for an odd price, it comes back now that its price is believable again.
  const returning = !current.enabled && (current.disabledReason === 'provider_missing' || current.disabledReason === PROVIDER_PRICE_REASON);
  // Judged at the price it would sell at from now: the provider's new one, at the rates as held.
  const heldKobo = heldCostKobo(context.rates, { currency: context.currency, providerRateMicros: offer.ratePer1000Micros, proposedProviderRateMicros: null });
  const review = reviewUnderHolds(
    { ...current, enabled: current.enabled || returning, disabledReason: returning ? null : current.disabledReason },
    costKobo,
    heldKobo,
    context.settings,
  );
  if (review.warning) {
    context.warnings.push(review.warning);
    if (review.warning.kind === 'margin_repriced') result.repriced += 1;
    else result.disabled += 1;
  }
  if (review.stopped) context.stopped.push({ ...current, rateKobo: review.rateKobo, heldCostKobo: heldKobo! });
  if ((returning || review.reopened) && review.enabled) result.restored += 1;
  const min = Math.min(Math.max(current.min, offer.min, 1), offer.max);
  return {
    id: current.id,
    rate_kobo: review.rateKobo,
    enabled: review.enabled,
    disabled_reason: review.disabledReason,
    type: offer.type,
    provider_rate_micros: offer.ratePer1000Micros,
    cost_kobo: costKobo,
    min,
    max: Math.max(Math.min(current.max, offer.max), min),
    provider_min: offer.min,
    provider_max: offer.max,
    refill: offer.refill,
    cancel: offer.cancel,
    dripfeed: offer.dripfeed,
    // A window an administrator set (cleared included) or an earlier sync read stays; services without one get the name's.
    refill_days: current.refillDaysByAdmin ? current.refillDays : (current.refillDays ?? refillDaysFromName(offer.name)),
    proposed_provider_rate_micros: null,
  };
}

/**
 * A service whose provider price is not believed: everything as it was (an answer we do not
 * understand changes nothing), the price held, and the service off unless something else
 * (an administrator, the guard) already had it off.
 */
function heldRecord(current: SyncState, proposed: bigint | null): SyncRecord {
  // Off for being gone or for a held rate, it must now wait for this price's own acceptance.
  const takeOff = current.enabled || current.disabledReason === 'provider_missing' || current.disabledReason === HELD_BELOW_COST;
  return {
    ...syncRecord(current),
    enabled: false,
    disabled_reason: takeOff ? PROVIDER_PRICE_REASON : current.disabledReason,
    proposed_provider_rate_micros: proposed,
  };
}

const providerMoney = (micros: bigint) => formatScaled(micros, PROVIDER_MONEY_SCALE, 6);

function suspectWarning(current: SyncState, proposed: bigint | null, currency: string, settings: CatalogueSettings): WarningInput {
  const last = `${providerMoney(current.providerRateMicros)} ${currency}`;
  const problem =
    proposed === null
      ? 'gave no readable price'
      : proposed === 0n
        ? 'now asks 0'
        : `now asks ${providerMoney(proposed)} ${currency} (${changePercent(current.providerRateMicros, proposed)}%, more than ${formatScaled(BigInt(settings.providerPriceFactorBps), 4, 2)}× away)`;
  return {
    kind: 'provider_price_suspect',
    serviceId: current.id,
    providerId: current.providerId,
    message: `${current.name}: the provider ${problem}, was ${last} per 1000; the price ${formatNaira(current.rateKobo)} was kept and the service switched off until an administrator accepts the new provider price`,
    details: {
      providerRate: providerMoney(current.providerRateMicros),
      proposedProviderRate: proposed === null ? null : providerMoney(proposed),
      currency,
      rate: koboToNaira(current.rateKobo),
      cost: koboToNaira(current.costKobo),
    },
  };
}

/** Ids of entries the provider listed with no readable price (left out of the catalogue's services). */
function pricelessIds(unreadable: SmmServiceCatalogue['unreadable']): Set<string> {
  const ids = new Set<string>();
  for (const { entry } of unreadable) {
    if (!isRecord(entry)) continue;
    const id =
      typeof entry.service === 'number' && Number.isSafeInteger(entry.service)
        ? String(entry.service)
        : typeof entry.service === 'string'
          ? entry.service.trim()
          : '';
    if (id !== '' && !readablePrice(entry.rate)) ids.add(id);
  }
  return ids;
}

function readablePrice(rate: unknown): boolean {
  if (typeof rate !== 'string' && typeof rate !== 'number') return false;
  try {
    return parseDecimal(rate, PROVIDER_MONEY_SCALE) >= 0n;
  } catch {
    return false;
  }
}

const bigintText = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);
const sameRecord = (a: SyncRecord, b: SyncRecord) => JSON.stringify(a, bigintText) === JSON.stringify(b, bigintText);

/** A service's synced columns as they are now, in the record shape of SYNC_COLUMNS (keys in the same order). */
function syncRecord(current: SyncState) {
  return {
    id: current.id,
    rate_kobo: current.rateKobo,
    enabled: current.enabled,
    disabled_reason: current.disabledReason,
    type: current.type,
    provider_rate_micros: current.providerRateMicros,
    cost_kobo: current.costKobo,
    min: current.min,
    max: current.max,
    provider_min: current.providerMin,
    provider_max: current.providerMax,
    refill: current.refill,
    cancel: current.cancel,
    dripfeed: current.dripfeed,
    refill_days: current.refillDays,
    proposed_provider_rate_micros: current.proposedProviderRateMicros,
  };
}
