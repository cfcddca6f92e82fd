// A listed page and its total in one round trip: every row of the page carries the count of all
// matching rows (a window over the whole match). Only a page past the last has no row to carry it,
// and only then is the total counted apart.
import { sql } from 'drizzle-orm';

/** The count of every row the query matched, as a column of each row it returns. */
export const windowTotal = () => sql<number>`count(*) over ()`.mapWith(Number);

/** The total the page's rows carry, or for an empty page past the first, `countApart()`. */
export async function totalOfPage(rows: ReadonlyArray<{ total: number }>, page: number, countApart: () => Promise<number>): Promise<number> {
  return rows[0]?.total ?? (page > 1 ? countApart() : 0);
}
