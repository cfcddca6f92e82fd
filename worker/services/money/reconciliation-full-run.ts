// The administrators' "Check everything": the full reconciliation reads every wallet and ledger row, seconds on a
// large shop, so it runs on the admin-jobs queue rather than in a request. Starting it is one statement and a message;
// the screen reads the run's state (queued, running, done with its report, or failed) from settings until it is done.
// One run at a time: a start while one is queued or running is that run. Read-only, as the on-demand check is: the
// hourly run alone moves what the next runs read from.
import { sql } from 'drizzle-orm';
import { z } from 'zod';
import type { DbOrTx } from '../../db';
import { ADMIN_JOB_LOST_AFTER_MINUTES, type Env } from '../../env';
import { log } from '../../lib/log';
import { type ReconciliationReport, reconcile } from './reconciliation';

const FULL_RUN_KEY = 'reconciliation_full_run';

export interface FullReconciliationRun {
  state: 'queued' | 'running' | 'done' | 'failed';
  /** When it was asked for, which names the run, and by which administrator. */
  requestedAt: string;
  requestedBy: number;
  startedAt: string | null;
  finishedAt: string | null;
  report: ReconciliationReport | null;
  /** Why it failed, in words. */
  error: string | null;
}

/** The admin-jobs queue's message for a run (env.ts AdminJobMessage), read as outside data. */
export const fullRunMessage = z.object({ kind: z.literal('full-reconciliation'), requestedAt: z.string().min(1).max(40) });

/** The last full run asked for, or null before the first. */
export async function fullReconciliationRun(db: DbOrTx): Promise<FullReconciliationRun | null> {
  const { rows } = await db.execute<{ value: FullReconciliationRun }>(sql`select value from settings where key = ${FULL_RUN_KEY}`);
  return rows[0]?.value ?? null;
}

/**
 * Queues a full run unless one is queued or running (and not lost): then that run is the answer. The run is claimed in
 * one statement, so two administrators starting at once start one run.
 */
export async function startFullReconciliation(db: DbOrTx, env: Env, adminId: number): Promise<FullReconciliationRun> {
  const run: FullReconciliationRun = {
    state: 'queued',
    requestedAt: new Date().toISOString(),
    requestedBy: adminId,
    startedAt: null,
    finishedAt: null,
    report: null,
    error: null,
  };
  const { rows } = await db.execute<{ value: FullReconciliationRun }>(sql`
    insert into settings (key, value) values (${FULL_RUN_KEY}, ${JSON.stringify(run)}::jsonb)
    on conflict (key) do update set value = excluded.value, updated_at = now()
    where settings.value->>'state' not in ('queued', 'running')
      or settings.updated_at < now() - make_interval(mins => ${ADMIN_JOB_LOST_AFTER_MINUTES})
    returning value`);
  if (rows.length === 0) return (await fullReconciliationRun(db)) ?? run;
  try {
    await env.ADMIN_JOBS.send({ kind: 'full-reconciliation', requestedAt: run.requestedAt });
  } catch (error) {
    // The queue's error is the one told; if the database is gone too, the run is found lost after ADMIN_JOB_LOST_AFTER_MINUTES.
    await finish(db, run.requestedAt, { state: 'failed', error: 'The check could not be queued; start it again.' }).catch(() => undefined);
    throw error;
  }
  return rows[0].value;
}

/** Moves the run asked for at `requestedAt` on, if it is still the current one (a newer start replaced a lost run). */
async function finish(db: DbOrTx, requestedAt: string, change: Partial<FullReconciliationRun>): Promise<void> {
  await db.execute(sql`
    update settings set value = value || ${JSON.stringify(change)}::jsonb, updated_at = now()
    where key = ${FULL_RUN_KEY} and value->>'requestedAt' = ${requestedAt}`);
}

/** The queue's job: runs the full reconciliation asked for at `requestedAt`, once, and stores its report or why it failed. */
export async function runFullReconciliation(db: DbOrTx, env: Env, requestedAt: string): Promise<void> {
  // Only a queued run starts: a delivered-again message of a run already under way or over does nothing.
  const started = await db.execute(sql`
    update settings set value = value || ${JSON.stringify({ state: 'running', startedAt: new Date().toISOString() })}::jsonb, updated_at = now()
    where key = ${FULL_RUN_KEY} and value->>'requestedAt' = ${requestedAt} and value->>'state' = 'queued'
    returning key`);
  if (started.rows.length === 0) return;
  try {
    const report = await reconcile(db, env);
    await finish(db, requestedAt, { state: 'done', finishedAt: new Date().toISOString(), report });
  } catch (error) {
    log.error('full reconciliation failed', { requestedAt, error: error instanceof Error ? error.message : String(error) });
    await finish(db, requestedAt, {
      state: 'failed',
      finishedAt: new Date().toISOString(),
      error: 'The check stopped before it was done; start it again.',
    });
  }
}
