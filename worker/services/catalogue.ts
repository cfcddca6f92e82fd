// The catalogue: categories and services, the public list, and the administrators' tools —
// import from a provider, CSV import, edits, bulk actions, markups — and the provider catalogue
// sync that keeps costs, ranges and availability current behind the margin guard (margin.ts).
import { and, asc, count, eq, ilike, inArray, or, sql, type SQL } from 'drizzle-orm';
import type { SelectedFieldsFlat } from 'drizzle-orm/pg-core';
import { auditLog, providers, serviceCategories, services } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import { CsvSyntaxError, parseCsv } from '../lib/csv';
import { koboToNaira } from '../lib/decimal';
import { conflict, invalid, notFound } from '../lib/errors';
import { isUniqueViolation } from '../lib/db-errors';
import type { SmmService } from '../providers/smm/types';
import type {
  AdminServiceListQuery, BulkServicesInput, CatalogueSettingsInput, ImportServicesInput, ServiceListQuery, UpdateCategoryInput, UpdateServiceInput,
} from '../schemas/catalogue';
import type { Pagination } from '../schemas/common';
import { nairaField, percentField } from '../schemas/catalogue';
import {
  bpsToPercent, getCatalogueSettings, guardPrice, priceWithMarkup, recordWarning, saveCatalogueSettings, type CatalogueSettings, type WarningInput,
} from './margin';
import { getProvider, providerClient, type ProviderEnv } from './providers';
import { koboConverter } from './rates';

// ---------------------------------------------------------------- platforms

/** Platforms recognised in category and service names, with the hosts their links live on. */
export const PLATFORMS: ReadonlyArray<{ name: string; pattern: RegExp; hosts: string[] }> = [
  { name: 'Instagram', pattern: /instagram|\big\b/i, hosts: ['instagram.com', 'instagr.am'] },
  { name: 'TikTok', pattern: /tik\s?tok/i, hosts: ['tiktok.com'] },
  { name: 'YouTube', pattern: /youtube|\byt\b/i, hosts: ['youtube.com', 'youtu.be'] },
  { name: 'X', pattern: /twitter|\bx\b/i, hosts: ['x.com', 'twitter.com'] },
  { name: 'Facebook', pattern: /facebook|\bfb\b/i, hosts: ['facebook.com', 'fb.com', 'fb.watch'] },
  { name: 'Telegram', pattern: /telegram/i, hosts: ['t.me', 'telegram.me', 'telegram.org'] },
  { name: 'Spotify', pattern: /spotify/i, hosts: ['spotify.com', 'spotify.link'] },
  { name: 'Threads', pattern: /threads/i, hosts: ['threads.net', 'threads.com'] },
  { name: 'LinkedIn', pattern: /linkedin/i, hosts: ['linkedin.com'] },
  { name: 'Twitch', pattern: /twitch/i, hosts: ['twitch.tv'] },
  { name: 'Discord', pattern: /discord/i, hosts: ['discord.gg', 'discord.com'] },
  { name: 'SoundCloud', pattern: /soundcloud/i, hosts: ['soundcloud.com'] },
  { name: 'Snapchat', pattern: /snapchat/i, hosts: ['snapchat.com'] },
];
const OTHER_PLATFORM = 'Other';

export function detectPlatform(...texts: string[]): string {
  for (const text of texts) {
    const platform = PLATFORMS.find((candidate) => candidate.pattern.test(text));
    if (platform) return platform.name;
  }
  return OTHER_PLATFORM;
}

// ---------------------------------------------------------------- views

const serviceColumns = {
  id: services.id,
  name: services.name,
  description: services.description,
  platform: serviceCategories.platform,
  categoryId: services.categoryId,
  category: serviceCategories.name,
  type: services.type,
  rateKobo: services.rateKobo,
  min: services.min,
  max: services.max,
  refill: services.refill,
  cancel: services.cancel,
  dripfeed: services.dripfeed,
  averageTimeSeconds: services.averageTimeSeconds,
};

interface ServiceRow {
  id: number;
  name: string;
  description: string;
  platform: string;
  categoryId: number;
  category: string;
  type: string;
  rateKobo: bigint;
  min: number;
  max: number;
  refill: boolean;
  cancel: boolean;
  dripfeed: boolean;
  averageTimeSeconds: number | null;
}

export function toServiceView(row: ServiceRow) {
  const { rateKobo, ...rest } = row;
  return { ...rest, rate: koboToNaira(rateKobo), rateKobo: String(rateKobo) };
}
export type ServiceView = ReturnType<typeof toServiceView>;

const adminServiceColumns = {
  ...serviceColumns,
  providerId: services.providerId,
  providerName: providers.name,
  providerServiceId: services.providerServiceId,
  costKobo: services.costKobo,
  priceMode: services.priceMode,
  markupBps: services.markupBps,
  categoryMarkupBps: serviceCategories.markupBps,
  providerMin: services.providerMin,
  providerMax: services.providerMax,
  enabled: services.enabled,
  disabledReason: services.disabledReason,
  updatedAt: services.updatedAt,
};

interface AdminServiceRow extends ServiceRow {
  providerId: number;
  providerName: string;
  providerServiceId: string;
  costKobo: bigint;
  priceMode: 'markup' | 'fixed';
  markupBps: number | null;
  categoryMarkupBps: number | null;
  providerMin: number;
  providerMax: number;
  enabled: boolean;
  disabledReason: string | null;
  updatedAt: Date;
}

function toAdminServiceView(row: AdminServiceRow, settings: CatalogueSettings) {
  const { costKobo, markupBps, categoryMarkupBps, updatedAt, ...rest } = row;
  const margin = row.rateKobo - costKobo;
  return {
    ...toServiceView(rest),
    providerId: row.providerId,
    providerName: row.providerName,
    providerServiceId: row.providerServiceId,
    cost: koboToNaira(costKobo),
    costKobo: String(costKobo),
    /** Margin over cost as a percentage of the cost (null when the cost is 0). */
    marginPercent: costKobo > 0n ? bpsToPercent((margin * 10_000n) / costKobo) : null,
    priceMode: row.priceMode,
    markupPercent: markupBps === null ? null : bpsToPercent(markupBps),
    effectiveMarkupPercent: bpsToPercent(markupBps ?? categoryMarkupBps ?? settings.defaultMarkupBps),
    providerMin: row.providerMin,
    providerMax: row.providerMax,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    updated_at: updatedAt.toISOString(),
  };
}

const likeTerm = (search: string) => `%${search.replace(/[\\%_]/g, (m) => `\\${m}`)}%`;

/** Name search (trigram-indexed ILIKE); a number also finds the service with that id. */
function serviceSearch(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const byName = ilike(services.name, likeTerm(search));
  return /^\d{1,9}$/.test(search) ? or(byName, eq(services.id, Number(search))) : byName;
}

/** A category filter by id (what the SPA sends from the category list) or by exact name. */
function categoryFilter(category: string | undefined): SQL | undefined {
  if (!category) return undefined;
  return /^\d{1,9}$/.test(category) ? eq(services.categoryId, Number(category)) : eq(serviceCategories.name, category);
}

/**
 * One page of services in catalogue order (category name, then id) and the number of services
 * the filter matches, in one statement. Only the ids and sort keys of the matching services are
 * sorted and counted (the `matching` CTE); the wide rows (descriptions) are read for the page
 * alone. Sorting and counting every matching row with all its columns (count(*) over ()) made a
 * deep page of 5,000 services cost several times the first.
 */
async function serviceListPage<TColumns extends SelectedFieldsFlat>(db: Db, columns: TColumns, where: SQL | undefined, query: Pagination) {
  const matching = db.$with('matching').as(
    db.select({ id: sql<number>`${services.id}`.as('service_id'), categoryName: sql<string>`${serviceCategories.name}`.as('category_name') })
      .from(services)
      .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
      .innerJoin(providers, eq(providers.id, services.providerId))
      .where(where),
  );
  const page = db.$with('page').as(
    db.select().from(matching).orderBy(asc(matching.categoryName), asc(matching.id)).limit(query.limit).offset((query.page - 1) * query.limit),
  );
  const rows = await db.with(matching, page)
    .select({ row: columns, total: sql<number>`(select count(*) from ${matching})`.mapWith(Number) })
    .from(page)
    .innerJoin(services, eq(services.id, page.id))
    .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
    .innerJoin(providers, eq(providers.id, services.providerId))
    .orderBy(asc(page.categoryName), asc(page.id));
  // Past the last page no row carries the total.
  const total = rows[0]?.total ?? (query.page > 1 ? (await db.with(matching).select({ total: sql<number>`count(*)`.mapWith(Number) }).from(matching))[0].total : 0);
  return { rows: rows.map((row) => row.row), total };
}

/** GET services: enabled services of enabled providers. */
export async function listServices(db: Db, query: ServiceListQuery): Promise<{ data: ServiceView[]; total: number }> {
  const where = and(
    eq(services.enabled, true),
    eq(providers.enabled, true),
    serviceSearch(query.search),
    categoryFilter(query.category),
    query.platform ? eq(serviceCategories.platform, query.platform) : undefined,
  );
  const { rows, total } = await serviceListPage(db, serviceColumns, where, query);
  return { data: rows.map(toServiceView), total };
}

/** Every service on sale, in catalogue order: the reseller API's `services`, which the protocol does not page. */
export async function listAllServices(db: DbOrTx): Promise<ServiceView[]> {
  const rows = await db.select(serviceColumns).from(services)
    .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
    .innerJoin(providers, eq(providers.id, services.providerId))
    .where(and(eq(services.enabled, true), eq(providers.enabled, true)))
    .orderBy(asc(serviceCategories.name), asc(services.id));
  return rows.map(toServiceView);
}

/** GET services/categories: categories that have something to buy, with how many services. */
export async function listCategories(db: Db) {
  const rows = await db
    .select({ id: serviceCategories.id, name: serviceCategories.name, platform: serviceCategories.platform, serviceCount: count(services.id) })
    .from(serviceCategories)
    .innerJoin(services, and(eq(services.categoryId, serviceCategories.id), eq(services.enabled, true)))
    .innerJoin(providers, and(eq(providers.id, services.providerId), eq(providers.enabled, true)))
    .groupBy(serviceCategories.id)
    .orderBy(asc(serviceCategories.name));
  return rows;
}

export async function adminListServices(db: Db, query: AdminServiceListQuery) {
  const where = and(
    serviceSearch(query.search),
    categoryFilter(query.category),
    query.platform ? eq(serviceCategories.platform, query.platform) : undefined,
    query.providerId ? eq(services.providerId, query.providerId) : undefined,
    query.enabled === undefined ? undefined : eq(services.enabled, query.enabled),
  );
  const [settings, { rows, total }] = await Promise.all([getCatalogueSettings(db), serviceListPage(db, adminServiceColumns, where, query)]);
  return { data: rows.map((row) => toAdminServiceView(row, settings)), total };
}

export async function adminService(db: DbOrTx, id: number) {
  const [row] = await db.select(adminServiceColumns).from(services)
    .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
    .innerJoin(providers, eq(providers.id, services.providerId))
    .where(eq(services.id, id));
  if (!row) throw notFound('Service not found');
  return toAdminServiceView(row, await getCatalogueSettings(db));
}

export async function adminListCategories(db: Db) {
  const rows = await db
    .select({
      id: serviceCategories.id,
      name: serviceCategories.name,
      platform: serviceCategories.platform,
      markupBps: serviceCategories.markupBps,
      serviceCount: count(services.id),
    })
    .from(serviceCategories)
    .leftJoin(services, eq(services.categoryId, serviceCategories.id))
    .groupBy(serviceCategories.id)
    .orderBy(asc(serviceCategories.name));
  return rows.map(({ markupBps, ...row }) => ({ ...row, markupPercent: markupBps === null ? null : bpsToPercent(markupBps) }));
}

// ---------------------------------------------------------------- pricing state and writes

/** What the guard needs to know of a service, and what it may change. */
interface PriceState {
  id: number;
  name: string;
  costKobo: bigint;
  rateKobo: bigint;
  priceMode: 'markup' | 'fixed';
  markupBps: number | null;
  categoryMarkupBps: number | null;
  enabled: boolean;
  disabledReason: string | null;
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

const effectiveMarkup = (state: Pick<PriceState, 'markupBps' | 'categoryMarkupBps'>, settings: CatalogueSettings) =>
  state.markupBps ?? state.categoryMarkupBps ?? settings.defaultMarkupBps;

interface PriceReview {
  rateKobo: bigint;
  enabled: boolean;
  disabledReason: string | null;
  warning: WarningInput | null;
}

/** Runs the margin guard on a service for a cost, returning its new price and state and what to tell the administrators. */
function reviewPrice(state: PriceState, costKobo: bigint, settings: CatalogueSettings): PriceReview {
  const outcome = guardPrice({ costKobo, rateKobo: state.rateKobo, priceMode: state.priceMode, effectiveMarkupBps: effectiveMarkup(state, settings) }, settings);
  const details = { cost: koboToNaira(costKobo), previousCost: koboToNaira(state.costKobo), previousRate: koboToNaira(state.rateKobo), minMarginPercent: bpsToPercent(settings.minMarginBps) };
  if (outcome.action === 'disabled' && state.enabled) {
    return {
      rateKobo: state.rateKobo,
      enabled: false,
      disabledReason: 'margin',
      warning: {
        kind: 'margin_disabled', serviceId: state.id, providerId: state.providerId, details,
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
        kind: 'margin_repriced', serviceId: state.id, providerId: state.providerId, details: { ...details, rate: koboToNaira(outcome.rateKobo) },
        message: `${state.name}: price raised from ₦${koboToNaira(state.rateKobo)} to ₦${koboToNaira(outcome.rateKobo)} to keep the minimum margin over cost ₦${koboToNaira(costKobo)}`,
      },
    };
  }
  return { rateKobo: outcome.rateKobo, enabled: state.enabled, disabledReason: state.disabledReason, warning: null };
}

type ColumnTypes = Record<string, 'int' | 'bigint' | 'text' | 'boolean'>;

/**
 * Updates many services in one statement from records keyed by column name (one round trip
 * however many rows). bigints travel as JSON strings and are read back by Postgres exactly.
 */
async function updateServicesFromRecords(tx: DbOrTx, columns: ColumnTypes, records: Array<Record<string, unknown>>): Promise<void> {
  const names = Object.keys(columns);
  const definition = sql.raw(['id int', ...names.map((name) => `${name} ${columns[name]}`)].join(', '));
  const assignments = sql.raw([...names.map((name) => `${name} = v.${name}`), 'updated_at = now()'].join(', '));
  for (let start = 0; start < records.length; start += 1000) {
    const chunk = records.slice(start, start + 1000);
    const json = JSON.stringify(chunk, (_key, value) => (typeof value === 'bigint' ? value.toString() : value));
    await tx.execute(sql`update ${services} as s set ${assignments} from jsonb_to_recordset(${json}::jsonb) as v(${definition}) where s.id = v.id`);
  }
}

const PRICE_COLUMNS: ColumnTypes = { rate_kobo: 'bigint', enabled: 'boolean', disabled_reason: 'text' };

/** Re-runs pricing and the guard on the services `where` selects, at their current cost (after a markup or margin change). */
async function repriceServices(tx: DbOrTx, where: SQL | undefined, settings: CatalogueSettings): Promise<number> {
  const states = await tx.select(priceStateColumns).from(services).innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId)).where(where);
  const records: Array<Record<string, unknown>> = [];
  const warnings: WarningInput[] = [];
  for (const state of states) {
    const review = reviewPrice(state, state.costKobo, settings);
    if (review.warning) warnings.push(review.warning);
    if (review.rateKobo !== state.rateKobo || review.enabled !== state.enabled) {
      records.push({ id: state.id, rate_kobo: review.rateKobo, enabled: review.enabled, disabled_reason: review.disabledReason });
    }
  }
  await updateServicesFromRecords(tx, PRICE_COLUMNS, records);
  for (const warning of warnings) await recordWarning(tx, warning);
  return records.length;
}

function checkMarkup(markupBps: number | null, settings: CatalogueSettings): void {
  if (markupBps !== null && markupBps < settings.minMarginBps) {
    throw invalid(`Markup must be at least the minimum margin (${bpsToPercent(settings.minMarginBps)}%)`);
  }
}

/** Categories by name, made when missing (with the platform their name suggests). */
async function ensureCategories(tx: DbOrTx, names: string[]): Promise<Map<string, { id: number; markupBps: number | null }>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return new Map();
  await tx.insert(serviceCategories).values(unique.map((name) => ({ name, platform: detectPlatform(name) }))).onConflictDoNothing();
  const rows = await tx.select({ id: serviceCategories.id, name: serviceCategories.name, markupBps: serviceCategories.markupBps })
    .from(serviceCategories).where(inArray(serviceCategories.name, unique));
  return new Map(rows.map((row) => [row.name, { id: row.id, markupBps: row.markupBps }]));
}

const categoryNameOf = (service: SmmService) => service.category.trim() || 'Other';

// ---------------------------------------------------------------- administrators' edits

export async function updateService(db: Db, actorId: number, id: number, input: UpdateServiceInput) {
  await db.transaction(async (tx) => {
    const [current] = await tx
      .select({ ...priceStateColumns, min: services.min, max: services.max, providerMin: services.providerMin, providerMax: services.providerMax, categoryId: services.categoryId })
      .from(services).innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
      .where(eq(services.id, id)).for('update', { of: services });
    if (!current) throw notFound('Service not found');
    const settings = await getCatalogueSettings(tx);
    const category = input.category ? (await ensureCategories(tx, [input.category])).get(input.category)! : { id: current.categoryId, markupBps: current.categoryMarkupBps };

    const next: PriceState = { ...current, categoryMarkupBps: category.markupBps };
    if (input.rate !== undefined) {
      next.priceMode = 'fixed';
      next.rateKobo = BigInt(input.rate);
    } else if (input.markupPercent !== undefined) {
      checkMarkup(input.markupPercent, settings);
      next.priceMode = 'markup';
      next.markupBps = input.markupPercent;
    }
    if (next.priceMode === 'markup') next.rateKobo = priceWithMarkup(current.costKobo, effectiveMarkup(next, settings));
    const floor = priceWithMarkup(current.costKobo, settings.minMarginBps);
    if (next.rateKobo < floor) throw invalid(`Price must be at least ₦${koboToNaira(floor)} (cost ₦${koboToNaira(current.costKobo)} plus the minimum margin)`);

    const min = input.min ?? current.min;
    const max = input.max ?? current.max;
    if (min < current.providerMin) throw invalid(`min must be at least the provider's minimum (${current.providerMin})`);
    if (max > current.providerMax) throw invalid(`max must be at most the provider's maximum (${current.providerMax})`);
    if (min > max) throw invalid('min cannot be more than max');

    const enabled = input.enabled ?? current.enabled;
    await tx.update(services).set({
      name: input.name,
      description: input.description,
      categoryId: category.id,
      priceMode: next.priceMode,
      markupBps: next.markupBps,
      rateKobo: next.rateKobo,
      min,
      max,
      enabled,
      disabledReason: enabled ? null : input.enabled === false ? 'admin' : current.disabledReason,
      updatedAt: new Date(),
    }).where(eq(services.id, id));
    await tx.insert(auditLog).values({ actorId, action: 'service.update', targetType: 'service', targetId: String(id), details: { ...input, rateKobo: String(next.rateKobo), previousRateKobo: String(current.rateKobo) } });
  });
  return adminService(db, id);
}

export async function bulkUpdateServices(db: Db, actorId: number, input: BulkServicesInput): Promise<{ updated: number; skipped: number[] }> {
  return db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    const selected = inArray(services.id, input.ids);
    let updated = 0;
    const skipped: number[] = [];
    if (input.action === 'disable') {
      updated = (await tx.update(services).set({ enabled: false, disabledReason: 'admin', updatedAt: new Date() }).where(selected).returning({ id: services.id })).length;
    } else if (input.action === 'enable') {
      // A fixed price under the margin floor stays off until its price is raised.
      const states = await tx.select(priceStateColumns).from(services).innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId)).where(selected);
      const allowed = states.filter((state) => {
        const ok = guardPrice({ ...state, effectiveMarkupBps: effectiveMarkup(state, settings) }, settings).action !== 'disabled';
        if (!ok) skipped.push(state.id);
        return ok;
      });
      if (allowed.length > 0) {
        updated = (await tx.update(services).set({ enabled: true, disabledReason: null, updatedAt: new Date() })
          .where(inArray(services.id, allowed.map((state) => state.id))).returning({ id: services.id })).length;
      }
    } else {
      const markupBps = input.markupPercent ?? null;
      checkMarkup(markupBps, settings);
      updated = (await tx.update(services).set({ markupBps, priceMode: 'markup', updatedAt: new Date() }).where(selected).returning({ id: services.id })).length;
      await repriceServices(tx, selected, settings);
    }
    await tx.insert(auditLog).values({ actorId, action: `service.bulk_${input.action}`, targetType: 'service', details: { ids: input.ids, markupPercent: input.markupPercent ?? null, skipped } });
    return { updated, skipped };
  });
}

export async function updateCategory(db: Db, actorId: number, id: number, input: UpdateCategoryInput) {
  await db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    if (input.markupPercent !== undefined) checkMarkup(input.markupPercent, settings);
    const [row] = await tx.select({ id: serviceCategories.id }).from(serviceCategories).where(eq(serviceCategories.id, id)).for('update');
    if (!row) throw notFound('Category not found');
    if (input.name !== undefined || input.platform !== undefined || input.markupPercent !== undefined) {
      await tx.update(serviceCategories).set({ name: input.name, platform: input.platform, markupBps: input.markupPercent }).where(eq(serviceCategories.id, id))
        .catch((error: unknown) => {
          throw isUniqueViolation(error, 'service_categories_name_key') ? conflict('A category with this name already exists') : error;
        });
    }
    if (input.markupPercent !== undefined) await repriceServices(tx, eq(services.categoryId, id), settings);
    await tx.insert(auditLog).values({ actorId, action: 'category.update', targetType: 'category', targetId: String(id), details: input });
  });
  return (await adminListCategories(db)).find((category) => category.id === id)!;
}

/** Global markup, minimum margin and guard action; every price is re-checked against them. */
export async function updateCatalogueSettings(db: Db, actorId: number, input: CatalogueSettingsInput) {
  return db.transaction(async (tx) => {
    const current = await getCatalogueSettings(tx);
    if (input.defaultMarkupBps !== undefined && input.defaultMarkupBps < (input.minMarginBps ?? current.minMarginBps)) {
      throw invalid(`The default markup must be at least the minimum margin (${bpsToPercent(input.minMarginBps ?? current.minMarginBps)}%)`);
    }
    const next = await saveCatalogueSettings(tx, actorId, input);
    const repriced = await repriceServices(tx, undefined, next);
    return { ...catalogueSettingsView(next), repriced };
  });
}

export function catalogueSettingsView(settings: CatalogueSettings) {
  return {
    defaultMarkupPercent: bpsToPercent(settings.defaultMarkupBps),
    minMarginPercent: bpsToPercent(settings.minMarginBps),
    marginGuardAction: settings.marginGuardAction,
  };
}

// ---------------------------------------------------------------- imports

interface NewService {
  provider: SmmService;
  costKobo: bigint;
  categoryName: string;
  name?: string;
  description?: string;
  /** Fixed price; absent = markup pricing. */
  rateKobo?: bigint;
  markupBps?: number | null;
  min?: number;
  max?: number;
  enabled?: boolean;
}

/**
 * Inserts (or, with `replace`, rewrites) services in chunked multi-row statements.
 * Returns our id per provider service id for the rows written.
 */
async function writeServices(tx: DbOrTx, providerId: number, rows: NewService[], settings: CatalogueSettings, replace: boolean): Promise<Map<string, number>> {
  const categories = await ensureCategories(tx, rows.map((row) => row.categoryName));
  const written = new Map<string, number>();
  for (let start = 0; start < rows.length; start += 500) {
    const values = rows.slice(start, start + 500).map((row) => {
      const category = categories.get(row.categoryName)!;
      const markupBps = row.markupBps ?? null;
      const rateKobo = row.rateKobo ?? guardPrice({
        costKobo: row.costKobo, rateKobo: 0n, priceMode: 'markup', effectiveMarkupBps: effectiveMarkup({ markupBps, categoryMarkupBps: category.markupBps }, settings),
      }, settings).rateKobo;
      return {
        providerId,
        providerServiceId: row.provider.id,
        name: row.name ?? row.provider.name,
        description: row.description ?? '',
        categoryId: category.id,
        type: row.provider.type,
        providerRateMicros: row.provider.ratePer1000Micros,
        costKobo: row.costKobo,
        rateKobo,
        priceMode: row.rateKobo === undefined ? ('markup' as const) : ('fixed' as const),
        markupBps,
        min: row.min ?? row.provider.min,
        max: row.max ?? row.provider.max,
        providerMin: row.provider.min,
        providerMax: row.provider.max,
        refill: row.provider.refill,
        cancel: row.provider.cancel,
        dripfeed: row.provider.dripfeed,
        enabled: row.enabled ?? true,
        disabledReason: row.enabled === false ? 'admin' : null,
      };
    });
    const insert = tx.insert(services).values(values);
    const excluded = (column: string) => sql.raw(`excluded.${column}`);
    const result = replace
      ? await insert.onConflictDoUpdate({
        target: [services.providerId, services.providerServiceId],
        set: Object.fromEntries([
          'name', 'description', 'category_id', 'type', 'provider_rate_micros', 'cost_kobo', 'rate_kobo', 'price_mode', 'markup_bps',
          'min', 'max', 'provider_min', 'provider_max', 'refill', 'cancel', 'dripfeed', 'enabled', 'disabled_reason',
        ].map((column) => [column.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase()), excluded(column)])),
      }).returning({ id: services.id, providerServiceId: services.providerServiceId })
      : await insert.onConflictDoNothing().returning({ id: services.id, providerServiceId: services.providerServiceId });
    for (const row of result) written.set(row.providerServiceId, row.id);
  }
  return written;
}

/** Imports the picked services of a provider; ones already imported keep their settings (the markup, when given, is applied to them too). */
export async function importFromProvider(db: Db, env: ProviderEnv, actorId: number | null, providerId: number, input: ImportServicesInput) {
  const provider = await getProvider(db, providerId);
  const client = await providerClient(env, provider);
  const [catalogue, toKobo] = await Promise.all([client.services(), koboConverter(db, env, provider.currency)]);
  const byId = new Map(catalogue.services.map((service) => [service.id, service]));
  return db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    if (input.markupPercent !== undefined) checkMarkup(input.markupPercent, settings);
    const wanted = [...new Set(input.serviceIds)];
    const found = wanted.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    const created = await writeServices(tx, providerId, found.map((service) => ({
      provider: service, costKobo: toKobo(service.ratePer1000Micros), categoryName: categoryNameOf(service), markupBps: input.markupPercent,
    })), settings, false);
    const existing = await tx.select({ id: services.id, providerServiceId: services.providerServiceId }).from(services)
      .where(and(eq(services.providerId, providerId), inArray(services.providerServiceId, wanted)));
    const ourIdOf = new Map(existing.map((row) => [row.providerServiceId, row.id]));
    const kept = existing.filter((row) => !created.has(row.providerServiceId)).map((row) => row.id);
    if (input.markupPercent !== undefined && kept.length > 0) {
      await tx.update(services).set({ markupBps: input.markupPercent, priceMode: 'markup' }).where(inArray(services.id, kept));
      await repriceServices(tx, inArray(services.id, kept), settings);
    }
    await tx.insert(auditLog).values({ actorId, action: 'service.import', targetType: 'provider', targetId: String(providerId), details: { serviceIds: wanted, created: created.size, markupPercent: input.markupPercent ?? null } });
    return {
      created: created.size,
      results: wanted.map((id) => (byId.has(id)
        ? { service: id, ok: true, serviceId: ourIdOf.get(id)!, created: created.has(id) }
        : { service: id, ok: false, error: 'The provider does not list this service' })),
    };
  });
}

/**
 * The CSV import (multipart field `user_file`). The first row names the columns (any order, any case):
 *   service      the provider's service id (required)
 *   name         our name (default: the provider's)
 *   category     our category, made when new (default: the provider's)
 *   description  text shown to buyers
 *   rate         a fixed price in naira per 1000, e.g. 2500.00 (blank = markup pricing)
 *   markup       a markup percentage, e.g. 60 (blank = the category's or the global markup)
 *   min, max     within the provider's range (default: the provider's)
 *   enabled      1/0, true/false, yes/no (default: enabled)
 * Each row sets its service as described (creating or rewriting it); rows are checked one by one
 * and answered one by one, and only good rows are written.
 */
const CSV_MAX_ROWS = 5000;
const CSV_COLUMNS = ['service', 'name', 'category', 'description', 'rate', 'markup', 'min', 'max', 'enabled'] as const;
type CsvColumn = (typeof CSV_COLUMNS)[number];

export async function importServicesCsv(db: Db, env: ProviderEnv, actorId: number, providerId: number, text: string) {
  let rows;
  try {
    rows = parseCsv(text);
  } catch (error) {
    if (error instanceof CsvSyntaxError) throw invalid(error.message);
    throw error;
  }
  const [header, ...body] = rows;
  if (!header) throw invalid('The file is empty');
  const columns = header.fields.map((name) => name.trim().toLowerCase());
  const unknown = columns.filter((name) => !(CSV_COLUMNS as readonly string[]).includes(name));
  if (unknown.length > 0) throw invalid(`Unknown column ${unknown[0]}; the columns are ${CSV_COLUMNS.join(', ')}`);
  if (!columns.includes('service')) throw invalid('The file needs a service column (the provider service id)');
  if (body.length === 0) throw invalid('The file has no rows');
  if (body.length > CSV_MAX_ROWS) throw invalid(`At most ${CSV_MAX_ROWS} rows at a time`);

  const provider = await getProvider(db, providerId);
  const client = await providerClient(env, provider);
  const [catalogue, toKobo, settings] = await Promise.all([client.services(), koboConverter(db, env, provider.currency), getCatalogueSettings(db)]);
  const byId = new Map(catalogue.services.map((service) => [service.id, service]));

  const results: Array<{ row: number; service: string; ok: boolean; serviceId?: number; error?: string }> = [];
  const good: Array<{ row: number; service: NewService }> = [];
  const seen = new Set<string>();
  for (const { line, fields } of body) {
    const cell = (name: CsvColumn) => {
      const index = columns.indexOf(name);
      return index < 0 ? '' : (fields[index] ?? '').trim();
    };
    const serviceId = cell('service');
    const fail = (error: string) => results.push({ row: line, service: serviceId, ok: false, error });
    const providerService = byId.get(serviceId);
    if (!serviceId) { fail('service is required'); continue; }
    if (!providerService) { fail('The provider does not list this service'); continue; }
    if (seen.has(serviceId)) { fail('This service is already in an earlier row'); continue; }
    const parsed = parseCsvRow(cell, providerService, toKobo(providerService.ratePer1000Micros), settings);
    if (typeof parsed === 'string') { fail(parsed); continue; }
    seen.add(serviceId);
    good.push({ row: line, service: parsed });
  }
  const written = await db.transaction(async (tx) => {
    const ids = await writeServices(tx, providerId, good.map((entry) => entry.service), settings, true);
    await tx.insert(auditLog).values({ actorId, action: 'service.csv_import', targetType: 'provider', targetId: String(providerId), details: { rows: body.length, written: ids.size } });
    return ids;
  });
  for (const entry of good) results.push({ row: entry.row, service: entry.service.provider.id, ok: true, serviceId: written.get(entry.service.provider.id) });
  results.sort((a, b) => a.row - b.row);
  return { imported: written.size, failed: results.length - good.length, results };
}

const WHOLE = /^\d{1,10}$/;
const TRUE_WORDS = ['1', 'true', 'yes', 'y'];
const FALSE_WORDS = ['0', 'false', 'no', 'n'];

/** One CSV row to a service, or the reason it cannot be one. */
function parseCsvRow(cell: (name: CsvColumn) => string, provider: SmmService, costKobo: bigint, settings: CatalogueSettings): NewService | string {
  const service: NewService = { provider, costKobo, categoryName: cell('category') || categoryNameOf(provider) };
  if (cell('name')) service.name = cell('name').slice(0, 300);
  if (cell('description')) service.description = cell('description').slice(0, 5000);
  if (cell('rate') && cell('markup')) return 'Give either rate or markup, not both';
  if (cell('rate')) {
    const rate = nairaField('rate').safeParse(cell('rate'));
    if (!rate.success) return rate.error.issues[0].message;
    const floor = priceWithMarkup(costKobo, settings.minMarginBps);
    if (BigInt(rate.data) < floor) return `rate must be at least ${koboToNaira(floor)} (cost ${koboToNaira(costKobo)} plus the minimum margin)`;
    service.rateKobo = BigInt(rate.data);
  }
  if (cell('markup')) {
    const markup = percentField('markup').safeParse(cell('markup'));
    if (!markup.success) return markup.error.issues[0].message;
    if (markup.data < settings.minMarginBps) return `markup must be at least the minimum margin (${bpsToPercent(settings.minMarginBps)}%)`;
    service.markupBps = markup.data;
  }
  for (const bound of ['min', 'max'] as const) {
    const value = cell(bound);
    if (!value) continue;
    if (!WHOLE.test(value)) return `${bound} must be a whole number`;
    service[bound] = Number(value);
  }
  const min = service.min ?? provider.min;
  const max = service.max ?? provider.max;
  if (min < Math.max(provider.min, 1)) return `min must be at least the provider's minimum (${Math.max(provider.min, 1)})`;
  if (max > provider.max) return `max must be at most the provider's maximum (${provider.max})`;
  if (min > max) return 'min cannot be more than max';
  const enabled = cell('enabled').toLowerCase();
  if (enabled) {
    if (TRUE_WORDS.includes(enabled)) service.enabled = true;
    else if (FALSE_WORDS.includes(enabled)) service.enabled = false;
    else return 'enabled must be 1 or 0';
  }
  return service;
}

// ---------------------------------------------------------------- provider catalogue sync

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
};

export interface CatalogueSyncResult {
  providerId: number;
  checked: number;
  updated: number;
  repriced: number;
  disabled: number;
  missing: number;
  restored: number;
  unreadable: number;
}

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
  const result: CatalogueSyncResult = { providerId, checked: 0, updated: 0, repriced: 0, disabled: 0, missing: 0, restored: 0, unreadable: catalogue.unreadable.length };

  await db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    const ours = await tx
      .select({
        ...priceStateColumns, providerServiceId: services.providerServiceId, type: services.type, providerRateMicros: services.providerRateMicros,
        min: services.min, max: services.max, providerMin: services.providerMin, providerMax: services.providerMax,
        refill: services.refill, cancel: services.cancel, dripfeed: services.dripfeed,
      })
      .from(services).innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
      .where(eq(services.providerId, providerId))
      .for('update', { of: services });
    const records: Array<Record<string, unknown>> = [];
    const warnings: WarningInput[] = [];
    for (const current of ours) {
      result.checked += 1;
      const offer = live.get(current.providerServiceId);
      if (!offer) {
        if (current.enabled) {
          result.missing += 1;
          records.push({ ...syncRecord(current), enabled: false, disabled_reason: 'provider_missing' });
          warnings.push({ kind: 'service_missing', serviceId: current.id, providerId, message: `${current.name}: the provider no longer lists service ${current.providerServiceId}; it was switched off` });
        }
        continue;
      }
      const costKobo = toKobo(offer.ratePer1000Micros);
      const returning = !current.enabled && current.disabledReason === 'provider_missing';
      const review = reviewPrice({ ...current, enabled: current.enabled || returning, disabledReason: returning ? null : current.disabledReason }, costKobo, settings);
      if (review.warning) {
        warnings.push(review.warning);
        if (review.warning.kind === 'margin_repriced') result.repriced += 1;
        else result.disabled += 1;
      }
      if (returning && review.enabled) result.restored += 1;
      const min = Math.min(Math.max(current.min, offer.min, 1), offer.max);
      const next = {
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
      };
      if (JSON.stringify(next, bigintText) !== JSON.stringify(syncRecord(current), bigintText)) records.push(next);
    }
    result.updated = records.length;
    await updateServicesFromRecords(tx, SYNC_COLUMNS, records);
    for (const warning of warnings) await recordWarning(tx, warning);
    await tx.update(providers).set({ catalogueSyncedAt: new Date(), lastError: null }).where(eq(providers.id, providerId));
  });
  return result;
}

const bigintText = (_key: string, value: unknown) => (typeof value === 'bigint' ? value.toString() : value);

/** A service's synced columns as they are now, in the record shape of SYNC_COLUMNS (keys in the same order). */
function syncRecord(current: PriceState & {
  type: string; providerRateMicros: bigint; min: number; max: number; providerMin: number; providerMax: number; refill: boolean; cancel: boolean; dripfeed: boolean;
}) {
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
  };
}
