// Data that ages: the cron forgets rows that only grow and that nothing reads once their time is over, a
// bounded amount per run (oldest first, by the indexes of migration 0016), so one run stays short however far behind it is.
// Never touched here: the audit log, the ledger (wallet_transactions), payments, orders and everything about money,
// which are kept forever. Finished reseller webhook deliveries are forgotten by their own cron job (dispatchWebhooks),
// and quiet wrong-password counts by forgetQuietSignInFailures.
import { type SQL, sql } from 'drizzle-orm';
import type { Db } from '../../db';
import { log } from '../../lib/log';

/**
 * How long each kind of row is kept past the moment it stopped mattering, and why. Each is an SQL interval
 * (the cut-off is worked out by the database's clock, the same clock that wrote the rows).
 */
export const RETENTION = {
  /**
   * A rate-limit row counts one fixed window; the longest window in use is a day (ten confirmation links a day),
   * and a row whose window has ended starts again from nothing at its next hit. Two days past its window's start
   * is past the end of every window, with a day's margin.
   */
  rateLimitWindow: sql`interval '2 days'`,
  /**
   * A session lasts 30 days from its sign-in (REFRESH_TOKEN_TTL_DAYS) and a revoked one ends sooner, so a session is
   * over 30 days after it was made. Its refresh tokens (one per refresh, kept while it lives so that a used one coming
   * back ends the session) are forgotten a week after that: a used token is then only an old "invalid" answer.
   */
  sessionLifetime: sql`interval '30 days'`,
  endedSessionTokens: sql`interval '7 days'`,
  /**
   * Ended sessions are also what the shop knows of an account's devices and addresses (a sign-in from elsewhere is
   * emailed to the owner; under a flood of guesses only known ones may try): kept 90 days past their expiry, and the
   * account's newest session is never forgotten, so an account that has signed in is never taken for a new one
   * (whose first sign-in is not reported).
   */
  endedSession: sql`interval '90 days'`,
  /** Password-reset, invitation and confirmation links live 30 minutes to 3 days; a week past expiry, for support to see why one failed. */
  expiredLink: sql`interval '7 days'`,
  /** Read notifications older than this leave the bell's history; unread ones, and any not yet emailed, stay. */
  readNotification: sql`interval '90 days'`,
  /** The outbox is a record of mail sent: a month is enough to answer "did you email me?". Unsent mail stays. */
  sentEmail: sql`interval '30 days'`,
} as const;

export interface RetentionBounds {
  /** Rows deleted by one statement. */
  batchSize: number;
  /** Statements per table per run: a run deletes at most batchSize × maxBatches rows of each table. */
  maxBatches: number;
}

/** A thousand rows a statement, five statements a table: at most a few dozen short statements a run. */
export const RETENTION_BOUNDS: RetentionBounds = { batchSize: 1000, maxBatches: 5 };

/** How often the cron (every 2 minutes) really does the work: enough to forget 5,000 rows of each table every 10 minutes. */
const RUN_EVERY = sql`interval '10 minutes'`;
const LAST_RUN_KEY = 'retention';

/**
 * One delete statement per table: at most `limit` rows, oldest first, found through an index. Each repeats its
 * condition outside the subquery, so a row changed meanwhile (a rate-limit window started again) is left alone.
 */
const statements = {
  rateLimits: (limit: number) => sql`
    delete from rate_limits where key in (
      select key from rate_limits where window_start < now() - ${RETENTION.rateLimitWindow} order by window_start limit ${limit})
    and window_start < now() - ${RETENTION.rateLimitWindow}`,
  // Found by the token's age (a token is never older than its session, so its session expired by then), checked on the session.
  refreshTokens: (limit: number) => sql`
    delete from refresh_tokens where token_hash in (
      select t.token_hash from refresh_tokens t join sessions s on s.id = t.session_id
      where t.created_at < now() - ${RETENTION.sessionLifetime} - ${RETENTION.endedSessionTokens}
        and s.expires_at < now() - ${RETENTION.endedSessionTokens}
      order by t.created_at limit ${limit})`,
  // Only sessions whose tokens are gone (so the cascade deletes nothing more), and never an account's newest.
  sessions: (limit: number) => sql`
    delete from sessions where id in (
      select s.id from sessions s
      where s.expires_at < now() - ${RETENTION.endedSession}
        and exists (select 1 from sessions n where n.user_id = s.user_id and n.created_at > s.created_at)
        and not exists (select 1 from refresh_tokens t where t.session_id = s.id)
      order by s.expires_at limit ${limit})
    and expires_at < now() - ${RETENTION.endedSession}`,
  passwordResets: (limit: number) => sql`
    delete from password_resets where token_hash in (
      select token_hash from password_resets where expires_at < now() - ${RETENTION.expiredLink} order by expires_at limit ${limit})`,
  emailVerifications: (limit: number) => sql`
    delete from email_verifications where token_hash in (
      select token_hash from email_verifications where expires_at < now() - ${RETENTION.expiredLink} order by expires_at limit ${limit})`,
  notifications: (limit: number) => sql`
    delete from notifications where id in (
      select id from notifications
      where read_at is not null and created_at < now() - ${RETENTION.readNotification} and email_state <> 'pending'
      order by created_at limit ${limit})
    and read_at is not null and email_state <> 'pending'`,
  emailOutbox: (limit: number) => sql`
    delete from email_outbox where id in (
      select id from email_outbox where sent_at is not null and sent_at < now() - ${RETENTION.sentEmail} order by sent_at limit ${limit})`,
} satisfies Record<string, (limit: number) => SQL>;

export type RetentionTable = keyof typeof statements;
export type RetentionCounts = Record<RetentionTable, number>;

/**
 * Forgets what has aged out of every table above, each in at most `maxBatches` statements of `batchSize` rows
 * (a table stops early once a statement finds fewer than a batch). Refresh tokens before sessions, which wait
 * for theirs. Says how many rows of each table went; a table that fails is logged and the others still run.
 */
export async function forgetAgedData(db: Db, bounds: RetentionBounds = RETENTION_BOUNDS): Promise<RetentionCounts> {
  const counts = {} as RetentionCounts;
  for (const [table, statement] of Object.entries(statements) as [RetentionTable, (limit: number) => SQL][]) {
    counts[table] = 0;
    try {
      for (let batch = 0; batch < bounds.maxBatches; batch += 1) {
        const deleted = (await db.execute(statement(bounds.batchSize))).rowCount ?? 0;
        counts[table] += deleted;
        if (deleted < bounds.batchSize) break;
      }
    } catch (error) {
      log.error('retention failed', { table, error: error instanceof Error ? error.message : String(error) });
    }
  }
  return counts;
}

/**
 * Cron: forgetAgedData at most once every 10 minutes, however often the cron fires. The run is claimed first
 * (one statement that moves the last run's time only when it is due), so two overlapping crons do not both run.
 */
export async function runRetention(db: Db): Promise<{ ran: false } | { ran: true; forgotten: RetentionCounts }> {
  const { rows: claimed } = await db.execute(sql`
    insert into settings (key, value) values (${LAST_RUN_KEY}, ${JSON.stringify({ startedAt: new Date().toISOString() })}::jsonb)
    on conflict (key) do update set value = excluded.value, updated_at = now()
    where settings.updated_at < now() - ${RUN_EVERY}
    returning key`);
  if (claimed.length === 0) return { ran: false };
  const forgotten = await forgetAgedData(db);
  log.info('retention ran', { forgotten });
  return { ran: true, forgotten };
}
