// Prices and the margin guard. A service's cost is the provider's price converted to kobo
// (rounded up); its price is the cost plus a markup (the service's, else its category's, else
// the global one) or a fixed price an administrator set. The guard keeps every price at least
// cost × (1 + minimum margin): when a cost rises past that, a markup price follows it up and a
// fixed price is raised or the service switched off (the catalogue setting), and the
// administrators get a warning to read. Markups and margins are basis points (1% = 100).
import { and, count, desc, eq, isNotNull, isNull, sql } from 'drizzle-orm';
import { catalogueWarnings, settings } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import { ceilDiv, formatScaled } from '../lib/decimal';
import { notFound } from '../lib/errors';
import type { CatalogueSettingsInput, WarningListQuery } from '../schemas/catalogue';
import { recordAudit } from './audit';

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
  const next = { ...(await getCatalogueSettings(tx)), ...input };
  await tx
    .insert(settings)
    .values({ key: SETTINGS_KEY, value: next, updatedBy: actorId })
    .onConflictDoUpdate({ target: settings.key, set: { value: next, updatedAt: new Date(), updatedBy: actorId } });
  await recordAudit(tx, { actorId, action: 'catalogue.settings', target: { type: 'settings', id: SETTINGS_KEY }, details: next });
  return next;
}

export const bpsToPercent = (bps: number | bigint): string => formatScaled(BigInt(bps), 2, 2);

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

// ---------------------------------------------------------------- warnings

type WarningKind = (typeof catalogueWarnings.$inferInsert)['kind'];

export interface WarningInput {
  kind: WarningKind;
  message: string;
  providerId?: number | null;
  serviceId?: number | null;
  orderId?: number | null;
  details?: Record<string, unknown>;
}

export async function recordWarning(db: DbOrTx, warning: WarningInput): Promise<void> {
  await db.insert(catalogueWarnings).values({ ...warning, details: warning.details ?? {} });
}

/**
 * Records a warning unless one of the same kind for the same provider (and order, if it names one)
 * is still unread: for alerts that repeat every run.
 */
export async function recordWarningOnce(db: DbOrTx, warning: WarningInput & { providerId: number }): Promise<void> {
  const orderId = warning.orderId ?? null;
  await db.execute(sql`
    insert into ${catalogueWarnings} (kind, provider_id, order_id, message, details)
    select ${warning.kind}, ${warning.providerId}, ${orderId}::int, ${warning.message}, ${JSON.stringify(warning.details ?? {})}::jsonb
    where not exists (
      select 1 from ${catalogueWarnings}
      where kind = ${warning.kind} and provider_id = ${warning.providerId} and order_id is not distinct from ${orderId}::int and acknowledged_at is null
    )`);
}

export async function listWarnings(db: Db, query: WarningListQuery) {
  const where = and(
    query.kind ? eq(catalogueWarnings.kind, query.kind) : undefined,
    query.acknowledged === undefined ? undefined : query.acknowledged ? isNotNull(catalogueWarnings.acknowledgedAt) : isNull(catalogueWarnings.acknowledgedAt),
  );
  const [rows, [{ total }]] = await Promise.all([
    db
      .select()
      .from(catalogueWarnings)
      .where(where)
      .orderBy(desc(catalogueWarnings.createdAt), desc(catalogueWarnings.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
    db.select({ total: count() }).from(catalogueWarnings).where(where),
  ]);
  return {
    data: rows.map((row) => ({
      id: row.id,
      kind: row.kind,
      providerId: row.providerId,
      serviceId: row.serviceId,
      orderId: row.orderId,
      message: row.message,
      details: row.details,
      created_at: row.createdAt.toISOString(),
      acknowledged_at: row.acknowledgedAt?.toISOString() ?? null,
    })),
    total,
  };
}

export async function acknowledgeWarning(db: Db, actorId: number, id: number): Promise<void> {
  const [row] = await db
    .update(catalogueWarnings)
    .set({ acknowledgedAt: sql`coalesce(${catalogueWarnings.acknowledgedAt}, now())`, acknowledgedBy: actorId })
    .where(eq(catalogueWarnings.id, id))
    .returning({ id: catalogueWarnings.id });
  if (!row) throw notFound('Warning not found');
}
