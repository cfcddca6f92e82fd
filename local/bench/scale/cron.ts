// One timed run of the scheduled jobs through the Worker's scheduled handler, with what there was to do before and after.
import http from 'node:http';
import pg from 'pg';
import { scheduledUrl } from '../../stack/cron';
import type { RunningStack } from '../../stack/stack';
import { untilDatabaseQuiet } from '../database-quiet';
import { QUIET_MS } from './measure';
import { CRON_TIMEOUT_S } from './settings';

export interface CronResult {
  ms: number;
  /** false: still running when CRON_TIMEOUT_S ran out (ms is then that bound, and `after` what it had done). */
  finished: boolean;
  status: number;
  roundTrips: number;
  statements: number;
  httpCalls: number;
  connections: number;
  /** What there was to do, and what was left after the run. */
  before: Record<string, number>;
  after: Record<string, number>;
}

/** What the jobs have to do (counted since `since` for what they did): the before and after of a run. */
async function cronWork(databaseUrl: string, since: Date): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(
      `select
      (select count(*) from orders where submission = 'accepted' and status in ('Pending', 'In progress', 'Processing')) as "openOrders",
      (select count(*) from orders where submission = 'accepted' and status in ('Pending', 'In progress', 'Processing') and last_synced_at >= $1) as "openOrdersSyncedInRun",
      (select count(*) from services) as services,
      (select count(*) from services where updated_at >= $1) as "servicesUpdatedInRun",
      (select count(*) from payment_intents where status = 'pending') as "pendingDeposits",
      (select count(*) from notifications where email_state = 'pending') as "notificationsToEmail",
      (select count(*) from referral_commissions where released_at is null and release_at <= now()) as "commissionsDue"`,
      [since],
    );
    return Object.fromEntries(Object.entries(rows[0]).map(([key, value]) => [key, Number(value)]));
  } finally {
    await client.end();
  }
}

/** One run of every scheduled job through the Worker's scheduled handler, the catalogue sync made due first. */
export async function runCron(stack: RunningStack): Promise<CronResult> {
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  await client.query(`update providers set catalogue_synced_at = null`);
  await client.end();
  const since = new Date();
  const before = await cronWork(stack.databaseUrl, since);
  await untilDatabaseQuiet(stack, QUIET_MS);
  const traffic = stack.databaseTraffic();
  const started = performance.now();
  // Bounded, so a run that would take longer than a deployed cron may run cannot eat the bench: what it did by then is reported.
  let status = 0;
  let finished = true;
  try {
    // node:http rather than fetch, whose client gives up on an answer after 300 s whatever the signal says.
    status = await new Promise<number>((resolve, reject) => {
      const request = http.get(scheduledUrl(stack.url), (response) => {
        response.resume();
        response.on('end', () => resolve(response.statusCode ?? 0));
        response.on('error', reject);
      });
      request.setTimeout(CRON_TIMEOUT_S * 1000, () => request.destroy(new Error('cron run timed out')));
      request.on('error', reject);
    });
  } catch {
    finished = false;
  }
  const ms = performance.now() - started;
  const now = stack.databaseTraffic();
  if (finished) await untilDatabaseQuiet(stack, 1000);
  return {
    ms,
    finished,
    status,
    roundTrips: now.roundTrips - traffic.roundTrips,
    statements: now.statements - traffic.statements,
    httpCalls: now.httpCalls - traffic.httpCalls,
    connections: now.connections - traffic.connections,
    before,
    after: await cronWork(stack.databaseUrl, since),
  };
}
