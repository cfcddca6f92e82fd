// Prices and the margin guard. A service's cost is the provider's price converted to kobo
// (rounded up); its price is the cost plus a markup (the service's, else its category's, else
// the global one) or a fixed price an administrator set. The guard keeps every price at least
// cost × (1 + minimum margin): when a cost rises past that, a markup price follows it up and a
// fixed price is raised or the service switched off (the catalogue setting), and the
// administrators get a warning to read. Markups and margins are basis points (1% = 100).
import { eq } from 'drizzle-orm';
import { settings } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import { bpsToPercent, ceilDiv } from '../../lib/decimal';
import type { CatalogueSettingsInput } from '../../schemas/catalogue';
import { fieldChanges, recordAudit } from '../oversight';

const BPS = 10_000n;
const SETTINGS_KEY = 'catalogue';

export interface CatalogueSettings {
  /** Markup of services whose category and own markup are unset. */
  defaultMarkupBps: number;
  /** The least margin over cost any price may have. */
  minMarginBps: number;
  /** What the guard does to a fixed-price service whose cost came too close: raise its price or switch it off. */
  marginGuardAction: 'reprice' | 'disable';
  /**
   * How far either way a new exchange rate may move from the last accepted one and still be taken
   * without an administrator: a broken rates feed must not reprice the whole catalogue.
   */
  rateBandBps: number;
  /**
   * How many times higher or lower than the last one (basis points: 30_000 = 3×) a provider's new
   * price may be before the sync holds it for an administrator instead of repricing with it.
   */
  providerPriceFactorBps: number;
}

const DEFAULT_CATALOGUE_SETTINGS: CatalogueSettings = {
  defaultMarkupBps: 5_000,
  minMarginBps: 1_000,
  marginGuardAction: 'reprice',
  rateBandBps: 1_000,
  providerPriceFactorBps: 30_000,
};

export async function getCatalogueSettings(db: DbOrTx): Promise<CatalogueSettings> {
  const [row] = await db.select({ value: settings.value }).from(settings).where(eq(settings.key, SETTINGS_KEY));
  return { ...DEFAULT_CATALOGUE_SETTINGS, ...(row?.value as Partial<CatalogueSettings> | undefined) };
}

/** Writes the settings (audited); the caller reprices what the change affects in the same transaction. */
export async function saveCatalogueSettings(tx: DbOrTx, actorId: number | null, input: CatalogueSettingsInput): Promise<CatalogueSettings> {
  const before = await getCatalogueSettings(tx);
  const next = { ...before, ...input };
  await tx
    .insert(settings)
    .values({ key: SETTINGS_KEY, value: next, updatedBy: actorId })
    .onConflictDoUpdate({ target: settings.key, set: { value: next, updatedAt: new Date(), updatedBy: actorId } });
  await recordAudit(tx, {
    actorId,
    action: 'catalogue.settings',
    target: { type: 'settings', id: SETTINGS_KEY },
    details: { ...next, changes: fieldChanges(before, next) },
  });
  return next;
}

/** The move from `before` to `after` as a signed percentage of `before` ("+50.00", "-33.33"); null from 0. */
export function changePercent(before: bigint, after: bigint): string | null {
  if (before === 0n) return null;
  const bps = ((after - before) * BPS) / before;
  return `${bps > 0n ? '+' : ''}${bpsToPercent(bps)}`;
}

/** cost × (1 + bps), rounded up to the kobo; never below 1 kobo, since a price of 0 would give the service away. */
export function priceWithMarkup(costKobo: bigint, markupBps: number): bigint {
  const price = ceilDiv(costKobo * (BPS + BigInt(markupBps)), BPS);
  return price > 0n ? price : 1n;
}

export interface PricedService {
  costKobo: bigint;
  rateKobo: bigint;
  priceMode: 'markup' | 'fixed';
  /** The markup that applies: the service's, else its category's, else the global one. */
  effectiveMarkupBps: number;
}

export type GuardOutcome = { action: 'none'; rateKobo: bigint } | { action: 'repriced'; rateKobo: bigint } | { action: 'disabled'; rateKobo: bigint };

/**
 * The price a service should have for its (possibly new) cost. A markup price follows the
 * cost (up or down) and is only a guard action when the markup itself is below the minimum
 * margin; a fixed price is left alone unless it is under the floor.
 */
export function guardPrice(service: PricedService, settings: CatalogueSettings): GuardOutcome {
  const floor = priceWithMarkup(service.costKobo, settings.minMarginBps);
  if (service.priceMode === 'markup') {
    const price = priceWithMarkup(service.costKobo, service.effectiveMarkupBps);
    return price >= floor ? { action: 'none', rateKobo: price } : { action: 'repriced', rateKobo: floor };
  }
  if (service.rateKobo >= floor) return { action: 'none', rateKobo: service.rateKobo };
  return settings.marginGuardAction === 'disable' ? { action: 'disabled', rateKobo: service.rateKobo } : { action: 'repriced', rateKobo: floor };
}
