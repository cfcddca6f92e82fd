// Fixed windows counted in Postgres (isolates share no memory), one statement for all of a request's limits.
import { sql } from 'drizzle-orm';
import type { DbOrTx } from '../../db';
import { rateLimited } from '../../lib/errors';

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

/** Every refusal of a limit says when to try again, in the same words. */
export const tooManyAttempts = (seconds: number) => rateLimited(`Too many attempts. Please try again in ${waitWords(Math.max(1, Math.ceil(seconds)))}.`);

/** The keys over their limit, each with the seconds until its window ends. */
export type OverLimit = { key: string; seconds_left: number }[];

/** Counts one hit against each key; its rows are the keys counted (all of them, or those over their limit). */
function hitsStatement(db: DbOrTx, limits: RateLimit[], overOnly: boolean) {
  const wanted = sql.join(
    limits.map(({ key, limit, windowSeconds }) => sql`(${key}::text, ${limit}::int, ${windowSeconds}::int)`),
    sql`, `,
  );
  return db.execute<OverLimit[number] & { hits: number }>(sql`
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
    select counted.key, counted.hits, greatest(1, ceil(extract(epoch from counted.window_start + make_interval(secs => wanted.window_seconds) - now())))::int as seconds_left
    from counted join wanted using (key)
    ${overOnly ? sql`where counted.hits > wanted.hit_limit` : sql``}`);
}

/**
 * Counts one hit against each key, as a statement that can travel in a caller's batch; its rows are the
 * keys over their limit, each with the seconds until its window ends, worked out by the same statement that counted.
 */
export const countHits = (db: DbOrTx, limits: RateLimit[]) => hitsStatement(db, limits, true);

/** Where one counted hit leaves its key: what an answer tells the caller (X-RateLimit-Limit, -Remaining, -Reset). */
export interface Meter {
  limit: number;
  remaining: number;
  /** Seconds until the window ends and the count starts again. */
  resetSeconds: number;
  /** This hit was past the limit. */
  over: boolean;
}

/** Counts one hit against the key and says where that leaves it; refuses nothing (the caller decides, with the meter in hand). */
export async function meterHit(db: DbOrTx, limit: RateLimit): Promise<Meter> {
  const {
    rows: [row],
  } = await hitsStatement(db, [limit], false);
  const hits = Number(row.hits);
  return { limit: limit.limit, remaining: Math.max(0, limit.limit - hits), resetSeconds: Number(row.seconds_left), over: hits > limit.limit };
}

/** Throws 429 saying when to try again (the end of the latest window that is full) if any key is over its limit. */
export function refuseOverLimit(over: OverLimit): void {
  if (over.length > 0) throw tooManyAttempts(Math.max(...over.map((row) => Number(row.seconds_left))));
}

/** Counts one hit against each key; when any is over its limit, throws 429 saying when to try again. */
export async function enforceRateLimits(db: DbOrTx, limits: RateLimit[]): Promise<void> {
  if (limits.length === 0) return;
  refuseOverLimit((await countHits(db, limits)).rows);
}

/** The same limit on each key, in one-minute windows unless told otherwise. */
export function enforceRateLimit(db: DbOrTx, keys: string[], limit: number, windowSeconds = 60): Promise<void> {
  return enforceRateLimits(
    db,
    keys.map((key) => ({ key, limit, windowSeconds })),
  );
}
