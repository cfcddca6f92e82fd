// The cron trigger's jobs. Each runs on its own so one failing job never stops the others,
// and each is safe to run concurrently with itself (they claim work with conditional updates).
import { type Db, openDatabase } from './db';
import type { Env } from './env';
import { log } from './lib/log';
import { forgetQuietSignInFailures } from './services/accounts';
import { checkProviderBalances } from './services/catalogue';
import { foldDashboardDays } from './services/dashboard';
import { forgetOldLedgerExports, hourlyReconciliation, releaseReferralCommissions, reverifyPendingDeposits } from './services/money';

import { checkLowBalances, sendNotificationEmails, writeApiOrderDigests } from './services/notifications';
import { runSmmSync } from './services/orders';
import { runRetention } from './services/oversight';
import { dispatchWebhooks } from './services/reseller';

export type ScheduledJob = (db: Db, env: Env) => Promise<unknown>;

export const scheduledJobs: Record<string, ScheduledJob> = {
  reverifyPendingDeposits,
  runSmmSync,
  // After the sync, which reads the balance with each catalogue it refreshes: only the others are asked here.
  checkProviderBalances,
  releaseReferralCommissions,
  hourlyReconciliation,
  forgetQuietSignInFailures,
  // After the jobs that make events, so what they told goes out in the same run.
  checkLowBalances,
  writeApiOrderDigests,
  sendNotificationEmails,
  dispatchWebhooks,
  foldDashboardDays,
  // Housekeeping: ledger exports a day old, with their files in R2; last, old rate-limit windows, ended sessions,
  // expired links, read notifications and sent mail, in bounded batches.
  forgetOldLedgerExports: (db, env) => forgetOldLedgerExports(db, env.EXPORT_FILES),
  runRetention,
};

export async function runScheduledJobs(env: Env): Promise<Record<string, unknown>> {
  // As a request's: each job's one-shot statements over HTTP, one Pool for the run once a job needs a transaction.
  const { db, close } = openDatabase(env);
  const results: Record<string, unknown> = {};
  try {
    for (const [name, job] of Object.entries(scheduledJobs)) {
      try {
        results[name] = await job(db, env);
      } catch (error) {
        results[name] = { error: error instanceof Error ? error.message : String(error) };
        log.error('scheduled job failed', { job: name, error: results[name] });
      }
    }
  } finally {
    await close();
  }
  log.info('scheduled jobs ran', { results });
  return results;
}
