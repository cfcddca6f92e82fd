// The public catalogue (GET services, GET services/categories) answered from a copy in the isolate's
// memory. The copy is stamped with the catalogue version, which triggers move at the commit of every
// change to what the list shows (migration 0008), so each request costs one round trip with a tiny
// statement reading the version; the copy is loaded again only when the isolate has none or the
// version moved. Filtering, ordering and paging in memory answer byte for byte what listServices' SQL
// answers: the copy keeps Postgres' order (category name as the database collates it, then id), and
// names are searched as ILIKE searches them, Postgres' lower() of the name containing lower() of the term.
//
// A load reads the services in chunks, keyset pages in catalogue order, so no statement's answer grows
// past a few MB (Neon caps one answer at 10 MB) however large the catalogue. Each chunk's statement
// reads the version with its services (one snapshot of the database each): chunks that all read the
// same version together read one committed catalogue, for every change to it moves the version. When
// the version moved between chunks the load starts over, a few times at most; then the request answers
// by SQL. The copy is installed only once its last chunk is read: a load cut off half-way leaves none.
import { and, asc, eq, type SQLWrapper, sql } from 'drizzle-orm';
import { catalogueVersion, providers, serviceCategories, services } from '../../../drizzle/schema';
import type { Db } from '../../db';
import type { ServiceListQuery } from '../../schemas/catalogue';
import { listCategories, listServices, type ServiceRow, type ServiceView, serviceColumns, toServiceView } from './catalogue';

export interface CatalogueCopyLimits {
  /** Most services one load statement reads. */
  chunkRows: number;
  /** Most bytes of answer one load statement reads, as estimated by answerBytes (its first service is read whatever its size). */
  chunkBytes: number;
  /** A catalogue with more services is answered by SQL: it bounds the CPU of filtering the copy at each request, and a load's time. */
  maxServices: number;
  /** A catalogue whose copy would take more of the isolate's memory (as estimated by heldBytes) is answered by SQL. */
  maxCopyBytes: number;
  /** Loads started over when the version moved between chunks, before the request answers by SQL. */
  loadAttempts: number;
}

/**
 * Memory: measured in V8 (Node's, the engine workerd runs) over 50,000 services, a service in the copy
 * holds about 300 bytes besides its texts (its row, the boxed bigint rate, the copy's entry, the
 * array's slot; category names, platforms and types held once), and its texts as V8 holds them: one
 * byte a character when all are Latin-1, else two a UTF-16 unit; the name twice (the name, and
 * Postgres' lower() of it for searches). Names of 60 ASCII characters and descriptions of 300 make
 * 320 + 2 × 60 + 300 ≈ 740 bytes a service: 37 MB for 50,000. The caps (60,000 services, 48 MB) leave
 * the isolate's 128 MB room for a load beside the copy (a stale copy is let go when a load starts; one
 * chunk's answer of a few MB is parsed at a time) and for requests. Views are made for the page
 * answered alone: kept, each would hold about 790 bytes more.
 *
 * Chunks: measured over 50,000 such services, a load is 9 statements answering 3.6 MB each (the
 * 4 MB estimated by answerBytes), 2.4 s against a local database.
 */
export const CATALOGUE_COPY_LIMITS: Readonly<CatalogueCopyLimits> = {
  chunkRows: 10_000,
  chunkBytes: 4_000_000,
  maxServices: 60_000,
  maxCopyBytes: 48_000_000,
  loadAttempts: 3,
};
/** Bytes the copy holds for a service besides its texts (measured about 300). */
const SERVICE_HELD_BYTES = 320;
/** Bytes of a load's answer for a service besides its texts: the other columns as JSON. */
const SERVICE_ANSWER_BYTES = 200;
/** How long an isolate that found the catalogue too large answers by SQL before it looks again. */
const OVERSIZED_RETRY_MS = 5 * 60_000;
/** A load cut off with its request never says it ended; this long after its last chunk the isolate loads again. */
const LOAD_TIMEOUT_MS = 10_000;

type CategoryView = Awaited<ReturnType<typeof listCategories>>[number];

interface ListedService {
  row: ServiceRow;
  /** Postgres' lower() of the name, what ILIKE compares (the name itself when they are the same). */
  searchName: string;
}

interface CatalogueSnapshot {
  version: number;
  /** Enabled services of enabled providers, in catalogue order. */
  services: ListedService[];
  categories: CategoryView[];
}

/** The version, and the search term as Postgres lowers it (null without one). */
const versionCheck = (db: Db, search: string | undefined) =>
  db.select({ version: catalogueVersion.version, search: sql<string | null>`lower(${search ?? null}::text)` }).from(catalogueVersion);

const listed = () => and(eq(services.enabled, true), eq(providers.enabled, true));

/** Bytes V8 holds a text in: Latin-1 throughout, one a character; else two a UTF-16 unit (at most a third of the UTF-8 bytes beyond one a character being characters beyond the BMP, two units each). */
const heldBytes = (text: SQLWrapper) =>
  sql`case when ${text} ~ '[^\\u0001-\\u00ff]' then 2 * (char_length(${text}) + (octet_length(${text}) - char_length(${text})) / 3) else char_length(${text}) end`;

/** Bytes of a service in a load's answer: its name twice (and lower() of it), its description, the rest. */
const answerBytes = sql<number>`${SERVICE_ANSWER_BYTES} + 2 * octet_length(${services.name}) + octet_length(${services.description})`;

/** Where a chunk starts: after the last service of the chunk before. */
interface ChunkStart {
  category: string;
  id: number;
}

/**
 * One chunk of the load: the services after `after` in catalogue order, at most chunkRows of them and
 * chunkBytes of answer, each with the version; only the version's row when none is left. `candidates`
 * is how many services the chunk looked at (one beyond chunkRows at most): more than it answered, and
 * some are left. The first chunk also says whether the catalogue `fits` the copy, and lowers the search term.
 */
function chunkStatement(db: Db, limits: CatalogueCopyLimits, after: ChunkStart | undefined, search: string | undefined) {
  const candidates = db.$with('chunk_candidates').as(
    db
      .select({
        id: sql<number>`${services.id}`.as('candidate_id'),
        categoryName: sql<string>`${serviceCategories.name}`.as('candidate_category_name'),
        bytes: sql<number>`${answerBytes}`.as('candidate_bytes'),
      })
      .from(services)
      .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
      .innerJoin(providers, eq(providers.id, services.providerId))
      .where(
        and(
          listed(),
          // The key compared as the ORDER BY compares it: the category name in the column's collation, then the id.
          after && sql`(${serviceCategories.name}, ${services.id}) > (${after.category}::text, ${after.id}::integer)`,
        ),
      )
      .orderBy(asc(serviceCategories.name), asc(services.id))
      .limit(limits.chunkRows + 1),
  );
  const chunk = db.$with('chunk').as(
    db
      .select({
        id: sql<number>`${candidates.id}`.as('chunk_id'),
        categoryName: sql<string>`${candidates.categoryName}`.as('chunk_category_name'),
        position: sql<number>`row_number() over (order by ${candidates.categoryName}, ${candidates.id})`.as('chunk_position'),
        bytesBefore: sql<number>`sum(${candidates.bytes}) over (order by ${candidates.categoryName}, ${candidates.id}) - ${candidates.bytes}`.as(
          'chunk_bytes_before',
        ),
      })
      .from(candidates),
  );
  const size = db.$with('listed_size').as(
    db
      .select({
        count: sql<number>`count(*)`.as('listed_count'),
        heldBytes: sql<number>`coalesce(sum(${SERVICE_HELD_BYTES} + 2 * ${heldBytes(services.name)} + ${heldBytes(services.description)}), 0)`.as(
          'listed_held_bytes',
        ),
      })
      .from(services)
      .innerJoin(providers, eq(providers.id, services.providerId))
      .where(listed()),
  );
  const fits = after
    ? sql<boolean | null>`null::boolean`
    : sql<boolean | null>`(select ${size.count} <= ${limits.maxServices} and ${size.heldBytes} <= ${limits.maxCopyBytes} from ${size})`;
  const answered = and(sql`${chunk.position} <= ${limits.chunkRows}`, sql`${chunk.bytesBefore} < ${limits.chunkBytes}`, after ? undefined : fits);
  const statement = after ? db.with(candidates, chunk) : db.with(candidates, chunk, size);
  return (
    statement
      .select({
        version: catalogueVersion.version,
        fits,
        search: sql<string | null>`lower(${after ? null : (search ?? null)}::text)`,
        candidates: sql<number>`(select count(*) from ${candidates})`.mapWith(Number),
        service: serviceColumns,
        searchName: sql<string>`lower(${services.name})`,
      })
      .from(chunk)
      .innerJoin(services, eq(services.id, chunk.id))
      .innerJoin(serviceCategories, eq(serviceCategories.id, services.categoryId))
      .innerJoin(providers, eq(providers.id, services.providerId))
      // The version's row comes back even when no service is.
      .rightJoin(catalogueVersion, answered)
      .orderBy(asc(chunk.categoryName), asc(chunk.id))
  );
}

type ChunkRows = Awaited<ReturnType<typeof chunkStatement>>;

/** A copy being read chunk by chunk, kept compact: each category's name and platform, and each type, held once. */
class SnapshotBuilder {
  readonly services: ListedService[] = [];
  /** Categories in the order the services come in (by name, names being unique), each with its count. */
  private readonly categories = new Map<number, CategoryView>();
  private readonly types = new Map<string, string>();

  /** Adds a chunk's services; the number added. */
  add(rows: ChunkRows): number {
    let added = 0;
    for (const { service, searchName } of rows) {
      if (!service || searchName === null) continue;
      const row = service as ServiceRow;
      let category = this.categories.get(row.categoryId);
      if (category) category.serviceCount += 1;
      else {
        category = { id: row.categoryId, name: row.category, platform: row.platform, serviceCount: 1 };
        this.categories.set(row.categoryId, category);
      }
      row.category = category.name;
      row.platform = category.platform;
      const type = this.types.get(row.type);
      if (type === undefined) this.types.set(row.type, row.type);
      else row.type = type;
      this.services.push({ row, searchName: searchName === row.name ? row.name : searchName });
      added += 1;
    }
    return added;
  }

  done(version: number): CatalogueSnapshot {
    return { version, services: this.services, categories: [...this.categories.values()] };
  }
}

type Current = { snapshot: CatalogueSnapshot; search: string | null };
/** What one pass of a load came to. */
type Pass = Current | 'oversized' | 'moved';

/**
 * The public list of an isolate, from its copy of the catalogue. One load at a time: requests that find
 * the copy stale while another loads answer by SQL meanwhile, for a load costs the isolate's one thread
 * far more than that (and a promise shared across requests would leave the others hanging should the
 * loading request be cancelled).
 */
export class CatalogueCopy {
  private snapshot: CatalogueSnapshot | undefined;
  private oversizedUntil = 0;
  /** The load under way, and when it last read a chunk. */
  private load: { lastChunkAt: number } | undefined;

  constructor(private readonly limits: CatalogueCopyLimits = CATALOGUE_COPY_LIMITS) {}

  /** GET services: listServices' answer, from the copy. */
  async listServices(db: Db, query: ServiceListQuery): Promise<{ data: ServiceView[]; total: number }> {
    const current = await this.current(db, query.search || undefined);
    if (!current) return listServices(db, query);
    const matching = current.snapshot.services.filter(matcher(query, current.search));
    const start = (query.page - 1) * query.limit;
    // Views are made for the page alone: kept for every service, they would take more memory than the copy.
    return { data: matching.slice(start, start + query.limit).map((service) => toServiceView(service.row)), total: matching.length };
  }

  /** GET services/categories: listCategories' answer, from the copy. */
  async listCategories(db: Db): Promise<CategoryView[]> {
    const current = await this.current(db, undefined);
    return current ? current.snapshot.categories : listCategories(db);
  }

  private loading() {
    return this.load !== undefined && Date.now() - this.load.lastChunkAt < LOAD_TIMEOUT_MS;
  }

  /** The copy, current as of this request, with the search term lowered; undefined: answer by SQL. */
  private async current(db: Db, search: string | undefined): Promise<Current | undefined> {
    if (Date.now() < this.oversizedUntil) return undefined;
    // Held here: a load another request starts while this one awaits lets the isolate's copy go.
    const snapshot = this.snapshot;
    if (!snapshot) return this.loading() ? undefined : this.reload(db, search);
    const [check] = await versionCheck(db, search);
    if (check.version === snapshot.version) return { snapshot, search: check.search };
    if (this.loading()) return undefined;
    const loaded = await this.reload(db, undefined);
    return loaded && { snapshot: loaded.snapshot, search: check.search };
  }

  /** Loads the copy again (starting over while the version moves under it) and installs it; undefined: answer by SQL. */
  private async reload(db: Db, search: string | undefined): Promise<Current | undefined> {
    const load = { lastChunkAt: Date.now() };
    this.load = load;
    // A stale copy answers nothing any more: let it go before the new one takes its room.
    this.snapshot = undefined;
    try {
      for (let attempt = 0; attempt < this.limits.loadAttempts; attempt++) {
        const pass = await this.loadPass(db, search, load);
        if (pass === 'moved') continue;
        if (pass === 'oversized') {
          this.oversizedUntil = Date.now() + OVERSIZED_RETRY_MS;
          return undefined;
        }
        this.install(pass.snapshot);
        return pass;
      }
      return undefined;
    } finally {
      if (this.load === load) this.load = undefined;
    }
  }

  /** A load that outlived its timeout may finish after a newer one: the newer version stays. */
  private install(loaded: CatalogueSnapshot) {
    if (!this.snapshot || this.snapshot.version <= loaded.version) this.snapshot = loaded;
  }

  /** Reads every chunk at one version: the copy, or 'moved' when a chunk read another version than the first. */
  private async loadPass(db: Db, search: string | undefined, load: { lastChunkAt: number }): Promise<Pass> {
    const builder = new SnapshotBuilder();
    let first: { version: number; search: string | null } | undefined;
    let after: ChunkStart | undefined;
    for (;;) {
      const rows = await chunkStatement(db, this.limits, after, search);
      load.lastChunkAt = Date.now();
      const [head] = rows;
      if (!first) {
        if (head.fits !== true) return 'oversized';
        first = { version: head.version, search: head.search };
      } else if (head.version !== first.version) return 'moved';
      const added = builder.add(rows);
      // More services than the first chunk counted: the keyset went wrong; never hold more than the cap.
      if (builder.services.length > this.limits.maxServices) return 'moved';
      if (head.candidates <= added) return { snapshot: builder.done(first.version), search: first.search };
      const last = builder.services[builder.services.length - 1].row;
      after = { category: last.category, id: last.id };
    }
  }
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

/** The isolate's copy. */
const isolateCopy = new CatalogueCopy();

/** GET services: listServices' answer, from the isolate's copy. */
export const listPublicServices = (db: Db, query: ServiceListQuery) => isolateCopy.listServices(db, query);

/** GET services/categories: listCategories' answer, from the isolate's copy. */
export const listPublicCategories = (db: Db) => isolateCopy.listCategories(db);
