// Services into the catalogue from a provider: picked from its live list (with a markup), or
// described row by row in a CSV file. New services are priced through the margin guard
// (margin.ts); existing ones keep their settings unless a CSV row rewrites them.
import { and, eq, inArray, sql } from 'drizzle-orm';
import { services } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import { type CsvRow, CsvSyntaxError, parseCsv } from '../../lib/csv';
import { bpsToPercent, koboToNaira } from '../../lib/decimal';
import { invalid } from '../../lib/errors';
import type { SmmService } from '../../providers/smm/types';
import { type ImportServicesInput, nairaField, percentField } from '../../schemas/catalogue';
import { recordAudit } from '../oversight';
import { categoryNameOf, ensureCategories } from './catalogue';
import { type CatalogueSettings, getCatalogueSettings, guardPrice, priceWithMarkup } from './margin';
import { checkMarkup, effectiveMarkup, repriceServices } from './pricing';
import { getProvider, type ProviderEnv, providerClient } from './providers';
import { koboConverter } from './rates';
import { refillDaysFromName } from './refill-window';

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
  const categories = await ensureCategories(
    tx,
    rows.map((row) => row.categoryName),
  );
  const written = new Map<string, number>();
  for (let start = 0; start < rows.length; start += 500) {
    const values = rows.slice(start, start + 500).map((row) => {
      const category = categories.get(row.categoryName)!;
      const markupBps = row.markupBps ?? null;
      const rateKobo =
        row.rateKobo ??
        guardPrice(
          {
            costKobo: row.costKobo,
            rateKobo: 0n,
            priceMode: 'markup',
            effectiveMarkupBps: effectiveMarkup({ markupBps, categoryMarkupBps: category.markupBps }, settings),
          },
          settings,
        ).rateKobo;
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
        refillDays: refillDaysFromName(row.provider.name),
        enabled: row.enabled ?? true,
        disabledReason: row.enabled === false ? ('admin' as const) : null,
      };
    });
    const insert = tx.insert(services).values(values);
    const excluded = (column: string) => sql.raw(`excluded.${column}`);
    const result = replace
      ? await insert
          .onConflictDoUpdate({
            target: [services.providerId, services.providerServiceId],
            set: Object.fromEntries(
              [
                'name',
                'description',
                'category_id',
                'type',
                'provider_rate_micros',
                'cost_kobo',
                'rate_kobo',
                'price_mode',
                'markup_bps',
                'min',
                'max',
                'provider_min',
                'provider_max',
                'refill',
                'cancel',
                'dripfeed',
                'enabled',
                'disabled_reason',
              ].map((column) => [column.replace(/_(\w)/g, (_m, c: string) => c.toUpperCase()), excluded(column)]),
            ),
          })
          .returning({ id: services.id, providerServiceId: services.providerServiceId })
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
  // Interactive: writes the services, then reads which already existed to answer per service.
  return db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    if (input.markupPercent !== undefined) checkMarkup(input.markupPercent, settings);
    const wanted = [...new Set(input.serviceIds)];
    const found = wanted.flatMap((id) => (byId.has(id) ? [byId.get(id)!] : []));
    const created = await writeServices(
      tx,
      providerId,
      found.map((service) => ({
        provider: service,
        costKobo: toKobo(service.ratePer1000Micros),
        categoryName: categoryNameOf(service),
        markupBps: input.markupPercent,
      })),
      settings,
      false,
    );
    const existing = await tx
      .select({ id: services.id, providerServiceId: services.providerServiceId })
      .from(services)
      .where(and(eq(services.providerId, providerId), inArray(services.providerServiceId, wanted)));
    const ourIdOf = new Map(existing.map((row) => [row.providerServiceId, row.id]));
    const kept = existing.filter((row) => !created.has(row.providerServiceId)).map((row) => row.id);
    if (input.markupPercent !== undefined && kept.length > 0) {
      await tx.update(services).set({ markupBps: input.markupPercent, priceMode: 'markup' }).where(inArray(services.id, kept));
      await repriceServices(tx, inArray(services.id, kept), settings, { actorId, cause: 'rules', targetType: 'provider', targetId: String(providerId) });
    }
    await recordAudit(tx, {
      actorId,
      action: 'service.import',
      target: { type: 'provider', id: providerId },
      details: { serviceIds: wanted, created: created.size, markupPercent: input.markupPercent ?? null },
    });
    return {
      created: created.size,
      results: wanted.map((id) =>
        byId.has(id)
          ? { service: id, ok: true, serviceId: ourIdOf.get(id)!, created: created.has(id) }
          : { service: id, ok: false, error: 'The provider does not list this service' },
      ),
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
  let rows: CsvRow[];
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
    if (!serviceId) {
      fail('service is required');
      continue;
    }
    if (!providerService) {
      fail('The provider does not list this service');
      continue;
    }
    if (seen.has(serviceId)) {
      fail('This service is already in an earlier row');
      continue;
    }
    const parsed = parseCsvRow(cell, providerService, toKobo(providerService.ratePer1000Micros), settings);
    if (typeof parsed === 'string') {
      fail(parsed);
      continue;
    }
    seen.add(serviceId);
    good.push({ row: line, service: parsed });
  }
  // Interactive only because writeServices runs its chunked statements, with which the audit row must commit.
  const written = await db.transaction(async (tx) => {
    const ids = await writeServices(
      tx,
      providerId,
      good.map((entry) => entry.service),
      settings,
      true,
    );
    await recordAudit(tx, {
      actorId,
      action: 'service.csv_import',
      target: { type: 'provider', id: providerId },
      details: { rows: body.length, written: ids.size },
    });
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
