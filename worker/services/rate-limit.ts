// Fixed one-minute windows counted in Postgres (isolates share no memory), one statement for all keys.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { rateLimited } from '../lib/errors';

export const AUTH_ATTEMPTS_PER_MINUTE = 10;

/** Counts one hit against each key; throws 429 when any key is over its limit in the current window. */
export async function enforceRateLimit(db: DbOrTx, keys: string[], limit: number, windowSeconds = 60): Promise<void> {
  if (keys.length === 0) return;
  const rows = sql.join(keys.map((key) => sql`(${key}, now(), 1)`), sql`, `);
  const result = await db.execute<{ hits: number }>(sql`
    insert into rate_limits (key, window_start, hits) values ${rows}
    on conflict (key) do update set
      hits = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) then 1 else rate_limits.hits + 1 end,
      window_start = case when rate_limits.window_start < now() - make_interval(secs => ${windowSeconds}) then now() else rate_limits.window_start end
    returning hits`);
  if (result.rows.some((row) => Number(row.hits) > limit)) throw rateLimited();
}
