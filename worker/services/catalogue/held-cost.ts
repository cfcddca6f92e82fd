// Costs at the figures held for review. While an exchange rate (rates.ts) or a provider price
// (catalogue-sync.ts) waits for an administrator, prices stay at the last accepted figures; but a
// service whose price would be under its cost at the held figure would sell at a loss for as long
// as the review takes, should the figure be right. Such a service stops selling until the review
// (disabled reason 'held_below_cost'); pricing.ts decides it with every price it writes, and
// accepting or rejecting the figure (price-review.ts) lets it sell again. Here: the conversion
// every cost uses, the cost at the held figures, and the warning naming what was stopped. This
// file imports no other service, so rates.ts and pricing.ts can both use it.
import { eq, ne, type SQL } from 'drizzle-orm';
import { exchangeRates, providers } from '../../../drizzle/schema';
import type { DisabledReason } from '../../../vocabulary';
import type { DbOrTx } from '../../db';
import { ceilDiv, formatNaira, koboToNaira } from '../../lib/decimal';
import { RATE_SCALE } from '../../providers/rates';

import type { WarningInput } from '../oversight';

/** Why a service is off while a figure that would put its price under cost waits for review. */
export const HELD_BELOW_COST = 'held_below_cost' satisfies DisabledReason;

/** One unit per USD at scale 6: the USD's own rate. */
export const RATE_ONE = 10n ** BigInt(RATE_SCALE);
const MICRO_UNIT = 1_000_000n;
const KOBO_PER_NAIRA = 100n;

/**
 * A provider price in micro-units converted to kobo at the given rates (units per USD, scale 6),
 * rounded up since what we pay must never be understated. The one conversion every cost goes
 * through, so a cost at a held rate is exactly the cost accepting that rate would give.
 * Naira to naira passes the same rate twice.
 */
export function koboAt(micros: bigint, ngnPerUsd: bigint, currencyPerUsd: bigint): bigint {
  // kobo = micros / 10^6 × (NGN per USD / currency per USD) × 100
  return ceilDiv(micros * ngnPerUsd * KOBO_PER_NAIRA, currencyPerUsd * MICRO_UNIT);
}

/** A currency's accepted rate and the one held for review, if any. */
export interface RateFigures {
  perUsdMicros: bigint;
  proposedPerUsdMicros: bigint | null;
}

/** Every cached rate with its proposal (a handful of rows). */
export async function readRateFigures(db: DbOrTx): Promise<Map<string, RateFigures>> {
  const rows = await db
    .select({ currency: exchangeRates.currency, perUsdMicros: exchangeRates.perUsdMicros, proposedPerUsdMicros: exchangeRates.proposedPerUsdMicros })
    .from(exchangeRates);
  return new Map(rows.map((row) => [row.currency, row]));
}

/** What of a service its cost depends on. */
export interface CostInputs {
  /** The provider's currency. */
  currency: string;
  providerRateMicros: bigint;
  proposedProviderRateMicros: bigint | null;
}

/**
 * The service's cost in kobo with every figure held for review taken as if accepted (the held
 * provider price, the held naira rate and the held rate of the provider's currency), or null when
 * no held figure touches it (or a rate it needs is not cached, when no cost can be worked out).
 */
export function heldCostKobo(rates: ReadonlyMap<string, RateFigures>, service: CostInputs): bigint | null {
  const micros = service.proposedProviderRateMicros ?? service.providerRateMicros;
  let held = service.proposedProviderRateMicros !== null;
  if (service.currency === 'NGN') return held ? koboAt(micros, RATE_ONE, RATE_ONE) : null;
  const figure = (currency: string): bigint | null => {
    const row = rates.get(currency);
    if (!row) return null;
    if (row.proposedPerUsdMicros !== null) held = true;
    return row.proposedPerUsdMicros ?? row.perUsdMicros;
  };
  const ngnPerUsd = figure('NGN');
  // The USD's rate is 1 by definition, whatever the feed says of it.
  const currencyPerUsd = service.currency === 'USD' ? RATE_ONE : figure(service.currency);
  if (!held || ngnPerUsd === null || currencyPerUsd === null) return null;
  return koboAt(micros, ngnPerUsd, currencyPerUsd);
}

/** Whether a service at `rateKobo` would sell under its cost at the held figures. */
export const belowHeldCost = (rateKobo: bigint, heldKobo: bigint | null): boolean => heldKobo !== null && rateKobo < heldKobo;

/** The providers whose costs a currency's rate moves: those pricing in it, or every one not pricing in naira for the naira. */
export const pricedThrough = (currency: string): SQL => (currency === 'NGN' ? ne(providers.currency, 'NGN') : eq(providers.currency, currency));

/** A service a held figure stopped, as the warning names it. */
export interface HeldStop {
  id: number;
  name: string;
  providerId: number;
  rateKobo: bigint;
  heldCostKobo: bigint;
}

/**
 * One warning naming every service a hold stopped in one run. It is a 'rate_proposed' warning:
 * what lets them sell again is the review on the Pricing tab, where the administrators are sent.
 */
export function heldStopWarning(stopped: HeldStop[]): WarningInput {
  const shown = stopped.slice(0, 20).map((s) => `${s.name} (#${s.id}: ${formatNaira(s.rateKobo)}, cost ${formatNaira(s.heldCostKobo)})`);
  const more = stopped.length > shown.length ? ` and ${stopped.length - shown.length} more` : '';
  const single = stopped.length === 1 ? stopped[0] : null;
  return {
    kind: 'rate_proposed',
    serviceId: single?.id ?? null,
    providerId: single?.providerId ?? null,
    message: `Switched off until the held price is reviewed, since they would sell under cost at it: ${shown.join(', ')}${more}. Accepting the new figure reprices them and rejecting it sells them again at their price.`,
    details: {
      stopped: stopped.map((s) => ({ serviceId: s.id, name: s.name, rate: koboToNaira(s.rateKobo), heldCost: koboToNaira(s.heldCostKobo) })),
    },
  };
}
