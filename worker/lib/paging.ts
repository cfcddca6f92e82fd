// A listed page and its total. Small lists carry the total on every row of the page (a window over
// the whole match, one round trip); only a page past the last has no row to carry it, and only then
// is it counted apart. Lists that grow with the shop (the ledger, orders) count no further than
// COUNT_CAP: a window or count(*) over millions of rows reads every one of them on each page, where a
// capped count stops at the cap and the page itself is read from the newest-first index.
import { count, type SQL, sql } from 'drizzle-orm';
import type { PgColumn, PgTable } from 'drizzle-orm/pg-core';
import type { DbOrTx } from '../db';

/** The count of every row the query matched, as a column of each row it returns. */
export const windowTotal = () => sql<number>`count(*) over ()`.mapWith(Number);

/** The total the page's rows carry, or for an empty page past the first, `countApart()`. */
export async function totalOfPage(rows: ReadonlyArray<{ total: number }>, page: number, countApart: () => Promise<number>): Promise<number> {
  return rows[0]?.total ?? (page > 1 ? countApart() : 0);
}

/** How far a growing list counts its matches: past it, the page says "10,000+". */
export const COUNT_CAP = 10_000;

/** A growing list's total: exact up to COUNT_CAP, else COUNT_CAP with `totalCapped`. */
export interface CappedTotal {
  total: number;
  totalCapped: boolean;
}

/** The rows of `table` that `where` matches, counted to one past `cap` at most (to tell "exactly the cap" from "more"). */
export const cappedCountQuery = (db: DbOrTx, table: PgTable, where: SQL | undefined, cap = COUNT_CAP) =>
  db.select({ counted: count() }).from(
    db
      .select({ one: sql`1` })
      .from(table)
      .where(where)
      .limit(cap + 1)
      .as('matching'),
  );

/** A count taken to one past `cap` (cappedCountQuery, or a capped read of one's own) as the total a page shows. */
export const cappedTotal = ([{ counted }]: ReadonlyArray<{ counted: number }>, cap = COUNT_CAP): CappedTotal => ({
  total: Math.min(counted, cap),
  totalCapped: counted > cap,
});

/**
 * The ids of one page of the rows of `id`'s table that `where` matches, in `order`, picked from that table alone (its
 * own indexes): the caller joins only these rows to what it shows, never every match before the sort.
 */
export const pageIdsQuery = (db: DbOrTx, id: PgColumn, where: SQL | undefined, order: SQL[], page: { page: number; limit: number }) =>
  db
    .select({ id })
    .from(id.table)
    .where(where)
    .orderBy(...order)
    .limit(page.limit)
    .offset((page.page - 1) * page.limit);
