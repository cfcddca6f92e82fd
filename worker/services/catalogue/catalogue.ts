// The catalogue: platforms, categories and services, the public list and the administrators' views of
// them. The administrators' edits are catalogue-edits.ts, imports catalogue-import.ts and the provider
// catalogue sync catalogue-sync.ts; prices are written through pricing.ts behind the margin guard (margin.ts).
import { and, asc, count, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import type { SelectedFieldsFlat } from 'drizzle-orm/pg-core';
import { providers, serviceCategories, services } from '../../../drizzle/schema';
import type { DisabledReason } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { bpsToPercent, formatScaled, koboToNaira } from '../../lib/decimal';
import { notFound } from '../../lib/errors';
import { totalOfPage } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import { PROVIDER_MONEY_SCALE, type SmmService } from '../../providers/smm/types';
import type { AdminServiceListQuery, ServiceListQuery } from '../../schemas/catalogue';
import type { Pagination } from '../../schemas/common';
import { type LinkKind, linkKindOf } from './link-kinds';
import { type CatalogueSettings, getCatalogueSettings } from './margin';

// The cron's order sync knows the catalogue sync as part of the catalogue.

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

// The public list's copies in the isolates (catalogue-snapshot.ts) go stale when the catalogue version
// stays put: migration 0008's triggers move it for any change to services and categories, but for
// providers only on `enabled`. A provider column read here needs its own trigger condition.
export const serviceColumns = {
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
  refillDays: services.refillDays,
  linkKindOverride: services.linkKind,
  averageTimeSeconds: services.averageTimeSeconds,
};

export interface ServiceRow {
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
  refillDays: number | null;
  linkKindOverride: LinkKind | null;
  averageTimeSeconds: number | null;
}

export function toServiceView(row: ServiceRow) {
  const { rateKobo, linkKindOverride, ...rest } = row;
  return { ...rest, linkKind: linkKindOf({ ...row, linkKind: linkKindOverride }), rate: koboToNaira(rateKobo), rateKobo: String(rateKobo) };
}
export type ServiceView = ReturnType<typeof toServiceView>;

const adminServiceColumns = {
  ...serviceColumns,
  providerId: services.providerId,
  providerName: providers.name,
  providerServiceId: services.providerServiceId,
  providerRateMicros: services.providerRateMicros,
  proposedProviderRateMicros: services.proposedProviderRateMicros,
  costKobo: services.costKobo,
  priceMode: services.priceMode,
  markupBps: services.markupBps,
  categoryMarkupBps: serviceCategories.markupBps,
  providerMin: services.providerMin,
  providerMax: services.providerMax,
  maxRefills: services.maxRefills,
  enabled: services.enabled,
  disabledReason: services.disabledReason,
  updatedAt: services.updatedAt,
};

interface AdminServiceRow extends ServiceRow {
  providerId: number;
  providerName: string;
  providerServiceId: string;
  providerRateMicros: bigint;
  proposedProviderRateMicros: bigint | null;
  costKobo: bigint;
  priceMode: 'markup' | 'fixed';
  markupBps: number | null;
  categoryMarkupBps: number | null;
  providerMin: number;
  providerMax: number;
  maxRefills: number;
  enabled: boolean;
  disabledReason: DisabledReason | null;
  updatedAt: Date;
}

function toAdminServiceView(row: AdminServiceRow, settings: CatalogueSettings) {
  const { costKobo, markupBps, categoryMarkupBps, updatedAt, providerRateMicros, proposedProviderRateMicros, ...rest } = row;
  const margin = row.rateKobo - costKobo;
  return {
    ...toServiceView(rest),
    providerId: row.providerId,
    providerName: row.providerName,
    providerServiceId: row.providerServiceId,
    /** The provider's price per 1000 in its currency that the cost is worked out from. */
    providerRate: formatScaled(providerRateMicros, PROVIDER_MONEY_SCALE, 6),
    /** A new provider price the sync held for review (see catalogue-sync.ts); null: none. */
    proposedProviderRate: proposedProviderRateMicros === null ? null : formatScaled(proposedProviderRateMicros, PROVIDER_MONEY_SCALE, 6),
    cost: koboToNaira(costKobo),
    costKobo: String(costKobo),
    /** Margin over cost as a percentage of the cost (null when the cost is 0). */
    marginPercent: costKobo > 0n ? bpsToPercent((margin * 10_000n) / costKobo) : null,
    priceMode: row.priceMode,
    markupPercent: markupBps === null ? null : bpsToPercent(markupBps),
    effectiveMarkupPercent: bpsToPercent(markupBps ?? categoryMarkupBps ?? settings.defaultMarkupBps),
    /** The administrator's choice of link kind; null: decided from the type and category (`linkKind` is the result). */
    linkKindOverride: row.linkKindOverride,
    providerMin: row.providerMin,
    providerMax: row.providerMax,
    /** Refills one order may have, one at a time. */
    maxRefills: row.maxRefills,
    enabled: row.enabled,
    disabledReason: row.disabledReason,
    updated_at: updatedAt.toISOString(),
  };
}

/** Name search (trigram-indexed ILIKE); a number also finds the service with that id. */
function serviceSearch(search: string | undefined): SQL | undefined {
  if (!search) return undefined;
  const byName = ilike(services.name, containsPattern(search));
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
    db
      .select({ id: sql<number>`${services.id}`.as('service_id'), categoryName: sql<string>`${serviceCategories.name}`.as('category_name') })
      .from(services)
      .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
      .innerJoin(providers, eq(providers.id, services.providerId))
      .where(where),
  );
  const page = db.$with('page').as(
    db
      .select()
      .from(matching)
      .orderBy(asc(matching.categoryName), asc(matching.id))
      .limit(query.limit)
      .offset((query.page - 1) * query.limit),
  );
  const rows = await db
    .with(matching, page)
    .select({ row: columns, total: sql<number>`(select count(*) from ${matching})`.mapWith(Number) })
    .from(page)
    .innerJoin(services, eq(services.id, page.id))
    .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
    .innerJoin(providers, eq(providers.id, services.providerId))
    .orderBy(asc(page.categoryName), asc(page.id));
  const total = await totalOfPage(rows, query.page, async () => (await db.with(matching).select({ total: count() }).from(matching))[0].total);
  return { rows: rows.map((row) => row.row), total };
}

/** Enabled services of enabled providers: GET services answers the same from its copy (catalogue-snapshot.ts), or by this when the catalogue is too large to hold. */
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
  const rows = await db
    .select(serviceColumns)
    .from(services)
    .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
    .innerJoin(providers, eq(providers.id, services.providerId))
    .where(and(eq(services.enabled, true), eq(providers.enabled, true)))
    .orderBy(asc(serviceCategories.name), asc(services.id));
  return rows.map(toServiceView);
}

/** Categories that have something to buy, with how many services: GET services/categories answers the same from its copy (catalogue-snapshot.ts). */
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
  const [row] = await db
    .select(adminServiceColumns)
    .from(services)
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

// ---------------------------------------------------------------- categories

/** Categories by name, made when missing (with the platform their name suggests). */
export async function ensureCategories(tx: DbOrTx, names: string[]): Promise<Map<string, { id: number; markupBps: number | null }>> {
  const unique = [...new Set(names)];
  if (unique.length === 0) return new Map();
  await tx
    .insert(serviceCategories)
    .values(unique.map((name) => ({ name, platform: detectPlatform(name) })))
    .onConflictDoNothing();
  const rows = await tx
    .select({ id: serviceCategories.id, name: serviceCategories.name, markupBps: serviceCategories.markupBps })
    .from(serviceCategories)
    .where(inArray(serviceCategories.name, unique));
  return new Map(rows.map((row) => [row.name, { id: row.id, markupBps: row.markupBps }]));
}

export const categoryNameOf = (service: SmmService) => service.category.trim() || 'Other';
