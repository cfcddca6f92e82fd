// Price writes behind the margin guard (margin.ts). A service's price is always worked out from a
// cost at the last *accepted* exchange rate and the last *accepted* provider price: a rate outside
// its band (rates.ts) or a provider price the sync does not believe (providerPriceSuspect) is held
// for an administrator, so no answer we do not trust moves a price, and the guard's floor is never
// under the cost at the last good rate. While such a figure is held, a service whose price would be
// under its cost at that figure stops selling until the review (held-cost.ts). Every price the
// system moves by itself is written to the audit log, one row per run with each service's before and after.
import { and, asc, eq, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { providers, serviceCategories, services } from '../../../drizzle/schema';
import type { DisabledReason } from '../../../vocabulary';
import type { DbOrTx } from '../../db';
import { bpsToPercent, formatNaira, koboToNaira } from '../../lib/decimal';
import { invalid } from '../../lib/errors';
import type { PriceChange } from '../../schemas/catalogue';
import { type AuditTargetType, recordAudit, recordWarning, type WarningInput } from '../oversight';

import { belowHeldCost, HELD_BELOW_COST, type HeldStop, heldCostKobo, heldStopWarning, pricedThrough, readRateFigures } from './held-cost';
import { type CatalogueSettings, guardPrice } from './margin';

const BPS = 10_000n;

/** What the guard needs to know of a service, and what it may change. */
export interface PriceState {
  id: number;
  name: string;
  costKobo: bigint;
  rateKobo: bigint;
  priceMode: 'markup' | 'fixed';
  markupBps: number | null;
  categoryMarkupBps: number | null;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  providerId: number;
}

const priceStateColumns = {
  id: services.id,
  name: services.name,
  costKobo: services.costKobo,
  rateKobo: services.rateKobo,
  priceMode: services.priceMode,
  markupBps: services.markupBps,
  categoryMarkupBps: serviceCategories.markupBps,
  enabled: services.enabled,
  disabledReason: services.disabledReason,
  providerId: services.providerId,
};

/** Services with their price state and the `extra` columns asked for; the state's category markup comes from the category's row. */
export const selectPriceStates = <E extends SelectedFields>(db: DbOrTx, extra: E) =>
  db
    .select({ ...priceStateColumns, ...extra })
    .from(services)
    .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId));

export const effectiveMarkup = (state: Pick<PriceState, 'markupBps' | 'categoryMarkupBps'>, settings: CatalogueSettings) =>
  state.markupBps ?? state.categoryMarkupBps ?? settings.defaultMarkupBps;

export interface PriceReview {
  rateKobo: bigint;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  warning: WarningInput | null;
}

/** Runs the margin guard on a service for a cost, returning its new price and state and what to tell the administrators. */
export function reviewPrice(state: PriceState, costKobo: bigint, settings: CatalogueSettings): PriceReview {
  const outcome = guardPrice(
    { costKobo, rateKobo: state.rateKobo, priceMode: state.priceMode, effectiveMarkupBps: effectiveMarkup(state, settings) },
    settings,
  );
  const details = {
    cost: koboToNaira(costKobo),
    previousCost: koboToNaira(state.costKobo),
    previousRate: koboToNaira(state.rateKobo),
    minMarginPercent: bpsToPercent(settings.minMarginBps),
  };
  if (outcome.action === 'disabled' && state.enabled) {
    return {
      rateKobo: state.rateKobo,
      enabled: false,
      disabledReason: 'margin',
      warning: {
        kind: 'margin_disabled',
        serviceId: state.id,
        providerId: state.providerId,
        details,
        message: `${state.name}: disabled, its price ${formatNaira(state.rateKobo)} is below cost ${formatNaira(costKobo)} plus the minimum margin`,
      },
    };
  }
  if (outcome.action === 'repriced' && outcome.rateKobo !== state.rateKobo) {
    return {
      rateKobo: outcome.rateKobo,
      enabled: state.enabled,
      disabledReason: state.disabledReason,
      warning: {
        kind: 'margin_repriced',
        serviceId: state.id,
        providerId: state.providerId,
        details: { ...details, rate: koboToNaira(outcome.rateKobo) },
        message: `${state.name}: price raised from ${formatNaira(state.rateKobo)} to ${formatNaira(outcome.rateKobo)} to keep the minimum margin over cost ${formatNaira(costKobo)}`,
      },
    };
  }
  return { rateKobo: outcome.rateKobo, enabled: state.enabled, disabledReason: state.disabledReason, warning: null };
}

export interface HeldReview extends PriceReview {
  /** Newly off for its price being under the cost at a held figure. */
  stopped: boolean;
  /** Off for a held figure before, on sale again now. */
  reopened: boolean;
}

/**
 * reviewPrice, with the figures held for review: a service off only for a held figure is judged
 * as if on (the hold may have ended, or its price moved), and one that would then be on sale at a
 * price under `heldKobo` (its cost at the held figures, null when none touches it) is off until
 * the review. The hold decides on the price the guard gives, so a markup price that rises with an
 * accepted cost is judged at its new figure.
 */
export function reviewUnderHolds(state: PriceState, costKobo: bigint, heldKobo: bigint | null, settings: CatalogueSettings): HeldReview {
  const wasHeld = !state.enabled && state.disabledReason === HELD_BELOW_COST;
  const review = reviewPrice(wasHeld ? { ...state, enabled: true, disabledReason: null } : state, costKobo, settings);
  if (review.enabled && belowHeldCost(review.rateKobo, heldKobo)) {
    return { ...review, enabled: false, disabledReason: HELD_BELOW_COST, stopped: !wasHeld, reopened: false };
  }
  return { ...review, stopped: false, reopened: wasHeld && review.enabled };
}

export function checkMarkup(markupBps: number | null, settings: CatalogueSettings): void {
  if (markupBps !== null && markupBps < settings.minMarginBps) {
    throw invalid(`Markup must be at least the minimum margin (${bpsToPercent(settings.minMarginBps)}%)`);
  }
}

/**
 * Whether a provider's new price per 1000 is too odd to price with: missing (null), 0, or more
 * than the factor above or below the last one. An unchanged price is never odd (an administrator
 * may have accepted it), and from a last price of 0 any real price is believable.
 */
export function providerPriceSuspect(last: bigint, next: bigint | null, factorBps: number): boolean {
  if (next === null) return true;
  if (next === last) return false;
  if (next === 0n) return true;
  if (last === 0n) return false;
  const factor = BigInt(factorBps);
  return next * BPS > last * factor || next * factor < last * BPS;
}

// ---------------------------------------------------------------- writes

export type ColumnTypes = Record<string, 'int' | 'bigint' | 'text' | 'boolean'>;

/**
 * Updates many services in one statement from records keyed by column name (one round trip
 * however many rows). bigints travel as JSON strings and are read back by Postgres exactly.
 */
export async function updateServicesFromRecords(tx: DbOrTx, columns: ColumnTypes, records: Array<Record<string, unknown>>): Promise<void> {
  const names = Object.keys(columns);
  const definition = sql.raw(['id int', ...names.map((name) => `${name} ${columns[name]}`)].join(', '));
  const assignments = sql.raw([...names.map((name) => `${name} = v.${name}`), 'updated_at = now()'].join(', '));
  for (let start = 0; start < records.length; start += 1000) {
    const chunk = records.slice(start, start + 1000);
    const json = JSON.stringify(chunk, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
    await tx.execute(sql`update ${services} as s set ${assignments} from jsonb_to_recordset(${json}::jsonb) as v(${definition}) where s.id = v.id`);
  }
}

export const PRICE_COLUMNS: ColumnTypes = { rate_kobo: 'bigint', enabled: 'boolean', disabled_reason: 'text' };

// ---------------------------------------------------------------- audit

/** The change from `before` to `after`, or null when cost, price and availability are all as they were. */
export function priceChange(
  before: Pick<PriceState, 'id' | 'name' | 'costKobo' | 'rateKobo' | 'enabled'>,
  after: { costKobo: bigint; rateKobo: bigint; enabled: boolean },
  note?: string,
): PriceChange | null {
  if (after.costKobo === before.costKobo && after.rateKobo === before.rateKobo && after.enabled === before.enabled) return null;
  const point = (p: { costKobo: bigint; rateKobo: bigint; enabled: boolean }) => ({
    cost: koboToNaira(p.costKobo),
    rate: koboToNaira(p.rateKobo),
    enabled: p.enabled,
  });
  return { serviceId: before.id, name: before.name, before: point(before), after: point(after), ...(note && { note }) };
}

/** What moved the prices: a provider's catalogue sync, an accepted exchange rate or provider price, or changed pricing rules. */
export type RepriceCause = 'sync' | 'rate' | 'provider_price' | 'rules';

export interface PriceAudit {
  actorId: number | null;
  cause: RepriceCause;
  targetType: AuditTargetType;
  targetId: string | null;
  /** More about the run (the rate accepted, ...). */
  details?: Record<string, unknown>;
}

/** One audit row for a run's price moves (none when nothing moved). */
export async function auditPriceChanges(tx: DbOrTx, audit: PriceAudit, changes: PriceChange[]): Promise<void> {
  if (changes.length === 0) return;
  await recordAudit(tx, {
    actorId: audit.actorId,
    action: 'catalogue.reprice',
    target: { type: audit.targetType, id: audit.targetId },
    details: { cause: audit.cause, ...audit.details, services: changes.length, changes },
  });
}

// ---------------------------------------------------------------- repricing

/**
 * Re-runs pricing, the guard and the holds on the services `where` selects: at their current cost
 * (after a markup or margin change, or a hold that began or ended), or, given `costOf`, at the
 * cost of their accepted provider price converted afresh (after an exchange rate was accepted).
 * Returns how many services changed.
 */
export async function repriceServices(
  tx: DbOrTx,
  where: SQL | undefined,
  settings: CatalogueSettings,
  audit: PriceAudit,
  costOf?: (service: { providerId: number; providerRateMicros: bigint }) => bigint,
): Promise<number> {
  const states = await selectPriceStates(tx, {
    providerRateMicros: services.providerRateMicros,
    proposedProviderRateMicros: services.proposedProviderRateMicros,
    currency: providers.currency,
  })
    .innerJoin(providers, eq(providers.id, services.providerId))
    .where(where)
    .orderBy(asc(services.id))
    .for('no key update', { of: services });
  // Read once the services are locked: a hold committed meanwhile is seen here, or waits for these locks and decides after.
  const rates = await readRateFigures(tx);
  const records: Array<Record<string, unknown>> = [];
  const changes: PriceChange[] = [];
  const warnings: WarningInput[] = [];
  const stopped: HeldStop[] = [];
  for (const state of states) {
    const costKobo = costOf ? costOf(state) : state.costKobo;
    const held = heldCostKobo(rates, state);
    const review = reviewUnderHolds(state, costKobo, held, settings);
    if (review.warning) warnings.push(review.warning);
    if (review.stopped) stopped.push({ ...state, rateKobo: review.rateKobo, heldCostKobo: held! });
    const change = priceChange(state, { costKobo, rateKobo: review.rateKobo, enabled: review.enabled });
    // A service off for a hold that the guard now keeps off changes only its reason, which is still written.
    if (!change && review.disabledReason === state.disabledReason) continue;
    if (change) changes.push(change);
    records.push({ id: state.id, cost_kobo: costKobo, rate_kobo: review.rateKobo, enabled: review.enabled, disabled_reason: review.disabledReason });
  }
  await updateServicesFromRecords(tx, { ...PRICE_COLUMNS, cost_kobo: 'bigint' }, records);
  if (stopped.length > 0) warnings.push(heldStopWarning(stopped));
  for (const warning of warnings) await recordWarning(tx, warning);
  await auditPriceChanges(tx, audit, changes);
  return records.length;
}

/**
 * After a held rate began, changed or ended (or was rejected): stops what would sell under cost at
 * the held figures and lets sell again what no longer would, at today's accepted costs and prices.
 * Only services on sale or off for a hold can change, so only those are read.
 */
export async function applyRateHolds(tx: DbOrTx, currencies: string[], settings: CatalogueSettings, audit: PriceAudit): Promise<number> {
  if (currencies.length === 0) return 0;
  const affected = await tx
    .select({ id: providers.id })
    .from(providers)
    .where(or(...currencies.map(pricedThrough)));
  if (affected.length === 0) return 0;
  return repriceServices(
    tx,
    and(
      inArray(
        services.providerId,
        affected.map((provider) => provider.id),
      ),
      or(eq(services.enabled, true), eq(services.disabledReason, HELD_BELOW_COST)),
    ),
    settings,
    audit,
  );
}
