// The public catalogue (GET services, GET services/categories) answered from a copy in the isolate's
// memory. The copy is stamped with the catalogue version, which triggers move at the commit of every
// change to what the list shows (migration 0008), so each request costs one round trip with a tiny
// statement reading the version; the copy is loaded again only when the isolate has none or the
// version moved, in one statement that reads the version with the services (one snapshot of the
// database). Filtering, ordering and paging in memory answer byte for byte what listServices' SQL
// answers: the copy keeps Postgres' order (category name as the database collates it, then id), and
// names are searched as ILIKE searches them, Postgres' lower() of the name containing lower() of the term.
import { and, asc, eq, sql } from 'drizzle-orm';
import { catalogueVersion, providers, serviceCategories, services } from '../../../drizzle/schema';
import type { Db } from '../../db';
import type { ServiceListQuery } from '../../schemas/catalogue';
import { listCategories, listServices, type ServiceRow, type ServiceView, serviceColumns, toServiceView } from './catalogue';

/**
 * A larger catalogue is answered by listServices' SQL instead: the load's answer stays well under
 * Neon's 10 MB limit for one answer, and the copy under about 30 MB of the isolate's 128 MB.
 */
const MAX_SERVICES = 10_000;
const MAX_TEXT_BYTES = 4_000_000;
/** How long an isolate that found the catalogue too large answers by SQL before it looks again. */
const OVERSIZED_RETRY_MS = 5 * 60_000;
/** A load cut off with its request never says it ended; after this long the isolate loads again. */
const LOAD_TIMEOUT_MS = 10_000;

type CategoryView = Awaited<ReturnType<typeof listCategories>>[number];

interface ListedService {
  row: ServiceRow;
  /** Made when first answered: a load that made all of them would take a third longer. */
  view?: ServiceView;
  /** Postgres' lower() of the name, what ILIKE compares. */
  searchName: string;
}

interface CatalogueSnapshot {
  version: number;
  /** Enabled services of enabled providers, in catalogue order. */
  services: ListedService[];
  categories: CategoryView[];
}

let snapshot: CatalogueSnapshot | undefined;
let oversizedUntil = 0;
let loadStartedAt = 0;

/** The version, and the search term as Postgres lowers it (null without one). */
const versionCheck = (db: Db, search: string | undefined) =>
  db.select({ version: catalogueVersion.version, search: sql<string | null>`lower(${search ?? null}::text)` }).from(catalogueVersion);

/**
 * Every listed service with the version, in catalogue order; only the version's row (no service)
 * when there are none, or when there are too many to hold (`fits` false).
 */
function loadStatement(db: Db) {
  const listed = and(eq(services.enabled, true), eq(providers.enabled, true));
  const size = db.$with('listed_size').as(
    db
      .select({
        count: sql<number>`count(*)`.as('listed_count'),
        textBytes: sql<number>`coalesce(sum(octet_length(${services.name}) + octet_length(${services.description})), 0)`.as('listed_text_bytes'),
      })
      .from(services)
      .innerJoin(providers, eq(providers.id, services.providerId))
      .where(listed),
  );
  const fits = sql<boolean>`(select ${size.count} <= ${MAX_SERVICES} and ${size.textBytes} <= ${MAX_TEXT_BYTES} from ${size})`;
  return (
    db
      .with(size)
      .select({ version: catalogueVersion.version, fits, service: serviceColumns, searchName: sql<string>`lower(${services.name})` })
      .from(services)
      .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
      .innerJoin(providers, eq(providers.id, services.providerId))
      // The version's row comes back even when no service is listed.
      .rightJoin(catalogueVersion, and(listed, fits))
      .orderBy(asc(serviceCategories.name), asc(services.id))
  );
}

function toSnapshot(rows: Awaited<ReturnType<typeof loadStatement>>): CatalogueSnapshot | undefined {
  if (rows[0].fits !== true) return undefined;
  const listed: ListedService[] = [];
  // Categories by name (the order the services come in, names being unique), each with its count.
  const categories = new Map<number, CategoryView>();
  for (const { service, searchName } of rows) {
    if (!service || searchName === null) continue;
    const row = service as ServiceRow;
    listed.push({ row, searchName });
    const category = categories.get(row.categoryId);
    if (category) category.serviceCount += 1;
    else categories.set(row.categoryId, { id: row.categoryId, name: row.category, platform: row.platform, serviceCount: 1 });
  }
  return { version: rows[0].version, services: listed, categories: [...categories.values()] };
}

/**
 * Keeps the copy the rows make, one load at a time: requests that find the copy stale while another
 * loads answer by SQL meanwhile, for a load costs the isolate's one thread far more than that (and a
 * promise shared across requests would leave the others hanging should the loading request be cancelled).
 */
async function reload(rows: Promise<Awaited<ReturnType<typeof loadStatement>>>): Promise<CatalogueSnapshot | undefined> {
  loadStartedAt = Date.now();
  try {
    snapshot = toSnapshot(await rows);
  } finally {
    loadStartedAt = 0;
  }
  if (!snapshot) oversizedUntil = Date.now() + OVERSIZED_RETRY_MS;
  return snapshot;
}

const loading = () => Date.now() - loadStartedAt < LOAD_TIMEOUT_MS;

/** The isolate's copy, current as of this request, with the search term lowered; undefined: answer by SQL. */
async function currentSnapshot(db: Db, search: string | undefined): Promise<{ snapshot: CatalogueSnapshot; search: string | null } | undefined> {
  if (Date.now() < oversizedUntil) return undefined;
  if (!snapshot) {
    if (loading()) return undefined;
    const batch = db.batch([versionCheck(db, search), loadStatement(db)]);
    const loaded = await reload(batch.then(([, rows]) => rows));
    const [[check]] = await batch;
    return loaded && { snapshot: loaded, search: check.search };
  }
  const [check] = await versionCheck(db, search);
  if (check.version === snapshot.version) return { snapshot, search: check.search };
  if (loading()) return undefined;
  const loaded = await reload(loadStatement(db));
  return loaded && { snapshot: loaded, search: check.search };
}

const ID_TEXT = /^\d{1,9}$/;

/** listServices' filter: a name containing the term (or a numeric term naming the id), a category by id or exact name, a platform. */
function matcher(query: ServiceListQuery, loweredSearch: string | null) {
  const searchedId = query.search && ID_TEXT.test(query.search) ? Number(query.search) : undefined;
  const categoryId = query.category && ID_TEXT.test(query.category) ? Number(query.category) : undefined;
  return ({ row, searchName }: ListedService) =>
    (loweredSearch === null || searchName.includes(loweredSearch) || row.id === searchedId) &&
    (!query.category || (categoryId === undefined ? row.category === query.category : row.categoryId === categoryId)) &&
    (!query.platform || row.platform === query.platform);
}

/** GET services: listServices' answer, from the isolate's copy. */
export async function listPublicServices(db: Db, query: ServiceListQuery): Promise<{ data: ServiceView[]; total: number }> {
  const current = await currentSnapshot(db, query.search || undefined);
  if (!current) return listServices(db, query);
  const matching = current.snapshot.services.filter(matcher(query, current.search));
  const start = (query.page - 1) * query.limit;
  const page = matching.slice(start, start + query.limit);
  return { data: page.map((service) => (service.view ??= toServiceView(service.row))), total: matching.length };
}

/** GET services/categories: listCategories' answer, from the isolate's copy. */
export async function listPublicCategories(db: Db): Promise<CategoryView[]> {
  const current = await currentSnapshot(db, undefined);
  return current ? current.snapshot.categories : listCategories(db);
}
