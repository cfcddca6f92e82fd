// Fixed windows counted in Postgres (isolates share no memory), one statement for all of a request's limits.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../db';
import { rateLimited } from '../lib/errors';

export interface RateLimit {
  key: string;
  /** Hits allowed in one window. */
  limit: number;
  windowSeconds: number;
}

function waitWords(seconds: number): string {
  if (seconds >= 120) return `${Math.ceil(seconds / 60)} minutes`;
  return seconds === 1 ? '1 second' : `${seconds} seconds`;
}

/**
 * Counts one hit against each key; when any is over its limit, throws 429 saying when to try again
 * (the end of the latest window that is full), worked out by the same statement that counted.
 */
export async function enforceRateLimits(db: DbOrTx, limits: RateLimit[]): Promise<void> {
  if (limits.length === 0) return;
  const wanted = sql.join(
    limits.map(({ key, limit, windowSeconds }) => sql`(${key}::text, ${limit}::int, ${windowSeconds}::int)`),
    sql`, `,
  );
  const result = await db.execute<{ seconds_left: number | null }>(sql`
    with wanted (key, hit_limit, window_seconds) as (values ${wanted}),
    counted as (
      insert into rate_limits as r (key, window_start, hits)
      select key, now(), 1 from wanted
      on conflict (key) do update set (window_start, hits) = (
        select case when r.window_start > now() - make_interval(secs => w.window_seconds) then r.window_start else now() end,
               case when r.window_start > now() - make_interval(secs => w.window_seconds) then r.hits + 1 else 1 end
        from wanted w where w.key = excluded.key)
      returning r.key, r.window_start, r.hits
    )
    select max(greatest(1, ceil(extract(epoch from counted.window_start + make_interval(secs => wanted.window_seconds) - now()))))::int as seconds_left
    from counted join wanted using (key)
    where counted.hits > wanted.hit_limit`);
  const secondsLeft = result.rows[0]?.seconds_left;
  if (secondsLeft != null) throw rateLimited(`Too many attempts. Please try again in ${waitWords(Number(secondsLeft))}.`);
}

/** Forgets the hits counted on `key`, as when the person the limit protects has proved who they are. */
export async function forgetRateLimit(db: DbOrTx, key: string): Promise<void> {
  await db.execute(sql`delete from rate_limits where key = ${key}`);
}

/** The same limit on each key, in one-minute windows unless told otherwise. */
export function enforceRateLimit(db: DbOrTx, keys: string[], limit: number, windowSeconds = 60): Promise<void> {
  return enforceRateLimits(
    db,
    keys.map((key) => ({ key, limit, windowSeconds })),
  );
}
