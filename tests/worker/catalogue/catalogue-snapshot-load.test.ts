// How the isolate's copy of the public list is loaded (worker/services/catalogue/catalogue-snapshot.ts):
// in chunks that each read the version, starting over when it moves between them, and not at all above
// the cap. Each test loads a copy of its own (a CatalogueCopy with small limits) through the exported
// functions, and watches the statements it sends where the Worker leaves the driver. The catalogue is
// the shared database's, which other test files change at any time: comparisons are taken again when
// the version moved during them, and what a test plants it deletes.
import { neonConfig } from '@neondatabase/serverless';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { providers, serviceCategories, services } from '../../../drizzle/schema';
import { serviceListQuerySchema } from '../../../worker/schemas/catalogue';
import { listCategories, listServices } from '../../../worker/services/catalogue/catalogue';
import { CATALOGUE_COPY_LIMITS, CatalogueCopy, type CatalogueCopyLimits } from '../../../worker/services/catalogue/catalogue-snapshot';
import { unique, withDb } from '../../support/api';
import { catalogueVersionNow, FAKE, newShop } from '../fixtures/shop-fixtures';

const query = (path: string) => serviceListQuerySchema.parse(Object.fromEntries(new URLSearchParams(path)));

/** Every statement of a load's chunks names the chunk's candidates; the first of a pass also sizes the catalogue. */
const isChunk = (statement: string) => statement.includes('chunk_candidates');
const isFirstChunk = (statement: string) => isChunk(statement) && statement.includes('listed_size');

/**
 * The statements sent to the database while fn runs (one a call; a batch's joined). `afterAnswer` runs
 * once each call's answer is in, before the caller sees it; the statements it sends itself go unwatched.
 */
async function statementsOf<T>(fn: () => Promise<T>, afterAnswer?: (statement: string, index: number) => Promise<void>) {
  const saved = neonConfig.fetchFunction;
  const statements: string[] = [];
  let aside = false;
  neonConfig.fetchFunction = async (input: Parameters<typeof fetch>[0], init?: Parameters<typeof fetch>[1]) => {
    if (aside) return fetch(input, init);
    const statement = typeof init?.body === 'string' ? init.body : '';
    const index = statements.push(statement) - 1;
    const response = await fetch(input, init);
    if (afterAnswer) {
      aside = true;
      try {
        await afterAnswer(statement, index);
      } finally {
        aside = false;
      }
    }
    return response;
  };
  try {
    return { result: await fn(), statements };
  } finally {
    neonConfig.fetchFunction = saved;
  }
}

/** fn's result, from a try during which the catalogue stood still (other test files change it at any time). */
async function standingStill<T>(fn: () => Promise<T>): Promise<T> {
  for (let attempt = 0; attempt < 8; attempt++) {
    const before = await catalogueVersionNow();
    const result = await fn();
    if ((await catalogueVersionNow()) === before) return result;
  }
  throw new Error('the catalogue never stood still for one try');
}

/** How many services the public list shows now, and the bytes of their names and descriptions. */
const listedSize = () =>
  withDb(async (db) => {
    const [size] = await db
      .select({
        count: sql<number>`count(*)`.mapWith(Number),
        textBytes: sql<number>`coalesce(sum(2 * octet_length(${services.name}) + octet_length(${services.description})), 0)`.mapWith(Number),
      })
      .from(services)
      .innerJoin(providers, eq(providers.id, services.providerId))
      .where(and(eq(services.enabled, true), eq(providers.enabled, true)));
    return size;
  });

/** A provider of our own with a category of `count` services (descriptions of growing length) named after a token, and a way to delete them all. */
async function plantedCategory(count: number) {
  const shop = await newShop({ serviceIds: [FAKE.igLikes] });
  const token = unique('chunked').toLowerCase();
  const [template] = await withDb((db) => db.select().from(services).where(eq(services.id, shop.serviceIds[FAKE.igLikes])));
  const [category] = await withDb((db) =>
    db
      .insert(serviceCategories)
      .values({ name: unique('Chunked Category '), platform: 'Discord' })
      .returning(),
  );
  const planted = await withDb((db) =>
    db
      .insert(services)
      .values(
        Array.from({ length: count }, (_, i) => ({
          ...template,
          id: undefined,
          createdAt: undefined,
          updatedAt: undefined,
          providerServiceId: `${token}-${i}`,
          name: `${token} service ${i}`,
          description: `${token} ${'described at length '.repeat(i * 20)}`,
          categoryId: category.id,
          rateKobo: template.rateKobo + BigInt(i),
        })),
      )
      .returning({ id: services.id }),
  );
  const remove = () =>
    withDb(async (db) => {
      await db.delete(services).where(eq(services.providerId, shop.providerId));
      await db.delete(providers).where(eq(providers.id, shop.providerId));
      await db.delete(serviceCategories).where(eq(serviceCategories.id, category.id));
    });
  return { token, categoryId: category.id, ids: planted.map((row) => row.id), remove };
}

/** The copy's answers and the SQL's for the same paths (and the categories), read while the catalogue stood still. */
async function answersOfBoth(copy: CatalogueCopy, paths: string[]) {
  const listed: string[] = [];
  const expected: string[] = [];
  for (const path of paths) {
    listed.push(JSON.stringify(await withDb((db) => copy.listServices(db, query(path)))));
    expected.push(JSON.stringify(await withDb((db) => listServices(db, query(path)))));
  }
  listed.push(JSON.stringify(await withDb((db) => copy.listCategories(db))));
  expected.push(JSON.stringify(await withDb((db) => listCategories(db))));
  return { listed, expected };
}

const copyWith = (limits: Partial<CatalogueCopyLimits>) => new CatalogueCopy({ ...CATALOGUE_COPY_LIMITS, ...limits });

describe("loading the isolate's copy of the public list", () => {
  it('answers the same as SQL from a catalogue loaded in several chunks, of rows or of bytes, with one load for concurrent requests', async () => {
    const planted = await plantedCategory(7);
    try {
      const paths = [
        '',
        'limit=100',
        'limit=100&page=2',
        'limit=3&page=2',
        `category=${planted.categoryId}`,
        `search=${planted.token}&limit=2&page=2`,
        `search=${planted.ids[3]}`,
        'platform=Discord',
      ];
      const limitsOf: Array<(size: { count: number; textBytes: number }) => Partial<CatalogueCopyLimits>> = [
        ({ count }) => ({ chunkRows: Math.max(1, Math.floor(count / 4)) }),
        ({ textBytes }) => ({ chunkBytes: Math.ceil(textBytes / 4) }),
      ];
      for (const limitsFor of limitsOf) {
        const tried = await standingStill(async () => {
          const copy = copyWith(limitsFor(await listedSize()));
          // Two requests find no copy at once: one loads it, the other answers by SQL meanwhile.
          const load = await statementsOf(() => withDb((db) => Promise.all([copy.listServices(db, query('')), copy.listServices(db, query(''))])));
          const answers = await answersOfBoth(copy, paths);
          const current = await statementsOf(() => withDb((db) => copy.listServices(db, query('limit=100'))));
          return { load: load.statements, answers, current: current.statements };
        });
        expect(tried.load.filter(isChunk).length).toBeGreaterThanOrEqual(3);
        expect(tried.load.filter(isFirstChunk)).toHaveLength(1);
        expect(tried.answers.listed).toEqual(tried.answers.expected);
        // The copy loaded is the one answering: a request costs the version check alone.
        expect(tried.current).toHaveLength(1);
        expect(tried.current[0]).toContain('catalogue_version');
        expect(tried.current[0]).not.toContain('chunk_candidates');
      }
    } finally {
      await planted.remove();
    }
  });

  it("starts the load over when the version moves between chunks, and answers the new version's catalogue", async () => {
    const planted = await plantedCategory(3);
    try {
      const path = `category=${planted.categoryId}`;
      // Taken again when another test file moved the version too: this test's rename should be the one move.
      const tried = await (async () => {
        for (let attempt = 0; attempt < 8; attempt++) {
          const before = await catalogueVersionNow();
          const renamed = `${planted.token} renamed between chunks ${attempt}`;
          const copy = copyWith({ chunkRows: Math.max(1, Math.floor((await listedSize()).count / 4)), loadAttempts: 10 });
          let movedTo: number | undefined;
          const load = await statementsOf(
            () => withDb((db) => copy.listServices(db, query(path))),
            async (statement) => {
              if (movedTo !== undefined || !isChunk(statement)) return;
              await withDb((db) => db.update(services).set({ name: renamed }).where(eq(services.id, planted.ids[1])));
              movedTo = await catalogueVersionNow();
            },
          );
          const next = await statementsOf(() => withDb((db) => copy.listServices(db, query(path))));
          const expected = await withDb((db) => listServices(db, query(path)));
          if (movedTo === before + 1 && (await catalogueVersionNow()) === movedTo)
            return { renamed, load: load.statements, loaded: load.result, next, expected };
        }
        throw new Error('the catalogue never stood still but for the rename');
      })();
      // The first pass read one chunk at the old version and the next at the new one: the load began again.
      expect(tried.load.filter(isFirstChunk).length).toBeGreaterThanOrEqual(2);
      expect(tried.loaded.data.map((service) => service.name)).toEqual([`${planted.token} service 0`, tried.renamed, `${planted.token} service 2`]);
      expect(JSON.stringify(tried.loaded)).toBe(JSON.stringify(tried.expected));
      // And that copy, of the new version, is installed: the next request costs the version check alone.
      expect(tried.next.statements).toHaveLength(1);
      expect(JSON.stringify(tried.next.result)).toBe(JSON.stringify(tried.expected));
    } finally {
      await planted.remove();
    }
  });

  it('answers by SQL above the cap, of services or of memory, without loading again at each request', async () => {
    const planted = await plantedCategory(2);
    try {
      for (const limits of [{ maxServices: 1 }, { maxCopyBytes: 1 }]) {
        const copy = copyWith(limits);
        const first = await statementsOf(() => withDb((db) => copy.listServices(db, query(''))));
        // The first chunk found the catalogue too large and read no service.
        expect(first.statements.filter(isChunk)).toHaveLength(1);
        const tried = await standingStill(async () => {
          const next = await statementsOf(() => answersOfBoth(copy, ['', `category=${planted.categoryId}`, `search=${planted.token}`]));
          return { answers: next.result, statements: next.statements };
        });
        expect(tried.answers.listed, JSON.stringify(limits)).toEqual(tried.answers.expected);
        // Neither a load nor a version check: listServices' and listCategories' SQL alone.
        expect(tried.statements.filter((statement) => isChunk(statement) || statement.includes('catalogue_version'))).toEqual([]);
      }
    } finally {
      await planted.remove();
    }
  });

  it('answers a request that checked the version while another request began loading a newer copy', async () => {
    const planted = await plantedCategory(3);
    try {
      const path = `category=${planted.categoryId}`;
      const copy = copyWith({});
      await withDb((db) => copy.listServices(db, query(path)));
      await withDb((db) =>
        db
          .update(services)
          .set({ name: `${planted.token} renamed` })
          .where(eq(services.id, planted.ids[1])),
      );
      let other: Promise<unknown> | undefined;
      const checked = await statementsOf(
        () => withDb((db) => copy.listServices(db, query(path))),
        async () => {
          if (other) return;
          // This request's version check has answered; before it reads on, another finds the copy stale and starts loading.
          other = withDb((db) => copy.listServices(db, query(path)));
          await vi.waitFor(() => expect((copy as unknown as { load?: object }).load).toBeDefined(), { interval: 1 });
        },
      );
      const expected = await withDb((db) => listServices(db, query(path)));
      expect(checked.result.data.map((service) => service.name)).toEqual(expected.data.map((service) => service.name));
      expect(checked.result.data[1].name).toBe(`${planted.token} renamed`);
      await other;
    } finally {
      await planted.remove();
    }
  });

  it('installs nothing from a load cut off half-way: the next request loads the whole copy again', async () => {
    const planted = await plantedCategory(3);
    try {
      const copy = copyWith({ chunkRows: Math.max(1, Math.floor((await listedSize()).count / 4)) });
      let chunks = 0;
      const cut = statementsOf(
        () => withDb((db) => copy.listServices(db, query(''))),
        async (statement) => {
          if (isChunk(statement) && ++chunks === 2) throw new Error('cut off');
        },
      );
      await expect(cut).rejects.toThrow();
      const tried = await standingStill(async () => {
        const again = await statementsOf(() => withDb((db) => copy.listServices(db, query(`category=${planted.categoryId}`))));
        const expected = await withDb((db) => listServices(db, query(`category=${planted.categoryId}`)));
        return { again, expected };
      });
      expect(tried.again.statements.filter(isFirstChunk)).toHaveLength(1);
      expect(JSON.stringify(tried.again.result)).toBe(JSON.stringify(tried.expected));
      expect(tried.again.result.total).toBe(3);
    } finally {
      await planted.remove();
    }
  });
});
