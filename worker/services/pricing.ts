// Price writes behind the margin guard (margin.ts). A service's price is always worked out from a
// cost at the last *accepted* exchange rate and the last *accepted* provider price: a rate outside
// its band (rates.ts) or a provider price the sync does not believe (providerPriceSuspect) is held
// for an administrator, so no answer we do not trust moves a price, and the guard's floor is never
// under the cost at the last good rate. Every price the system moves by itself is written to the
// audit log, one row per run with each service's before and after.
import { asc, eq, type SQL, sql } from 'drizzle-orm';
import type { SelectedFields } from 'drizzle-orm/pg-core';
import { serviceCategories, services } from '../../drizzle/schema';
import type { DbOrTx } from '../db';
import { koboToNaira } from '../lib/decimal';
import { invalid } from '../lib/errors';
import type { DisabledReason, PriceChange } from '../schemas/catalogue';
import { type AuditTargetType, recordAudit } from './audit';
import { bpsToPercent, type CatalogueSettings, guardPrice, recordWarning, type WarningInput } from './margin';

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
        message: `${state.name}: disabled, its price ₦${koboToNaira(state.rateKobo)} is below cost ₦${koboToNaira(costKobo)} plus the minimum margin`,
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
        message: `${state.name}: price raised from ₦${koboToNaira(state.rateKobo)} to ₦${koboToNaira(outcome.rateKobo)} to keep the minimum margin over cost ₦${koboToNaira(costKobo)}`,
      },
    };
  }
  return { rateKobo: outcome.rateKobo, enabled: state.enabled, disabledReason: state.disabledReason, warning: null };
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
 * Re-runs pricing and the guard on the services `where` selects: at their current cost (after a
 * markup or margin change), or, given `costOf`, at the cost of their accepted provider price
 * converted afresh (after an exchange rate was accepted). Returns how many services changed.
 */
export async function repriceServices(
  tx: DbOrTx,
  where: SQL | undefined,
  settings: CatalogueSettings,
  audit: PriceAudit,
  costOf?: (service: { providerId: number; providerRateMicros: bigint }) => bigint,
): Promise<number> {
  const states = await selectPriceStates(tx, { providerRateMicros: services.providerRateMicros })
    .where(where)
    .orderBy(asc(services.id))
    .for('no key update', { of: services });
  const records: Array<Record<string, unknown>> = [];
  const changes: PriceChange[] = [];
  const warnings: WarningInput[] = [];
  for (const state of states) {
    const costKobo = costOf ? costOf(state) : state.costKobo;
    const review = reviewPrice(state, costKobo, settings);
    if (review.warning) warnings.push(review.warning);
    const change = priceChange(state, { costKobo, rateKobo: review.rateKobo, enabled: review.enabled });
    if (!change) continue;
    changes.push(change);
    records.push({ id: state.id, cost_kobo: costKobo, rate_kobo: review.rateKobo, enabled: review.enabled, disabled_reason: review.disabledReason });
  }
  await updateServicesFromRecords(tx, { ...PRICE_COLUMNS, cost_kobo: 'bigint' }, records);
  for (const warning of warnings) await recordWarning(tx, warning);
  await auditPriceChanges(tx, audit, changes);
  return records.length;
}
