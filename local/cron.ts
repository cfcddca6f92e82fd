// The cron trigger for the local stack. `wrangler dev` runs no crons by itself, and its
// scheduled test endpoint does not reach a Worker that serves static assets, so the stack runs
// the Worker's own scheduled jobs from Node on a timer: order statuses, refunds, held orders,
// catalogue and rates refresh, payment re-verification — as the deployed cron would.
import type { Env } from '../worker/env';
import { runScheduledJobs } from '../worker/scheduled';
import './node-db';

export function startLocalCron(env: Env, intervalMs = 15_000): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    // A slow run is never overlapped by the next one.
    running ??= runScheduledJobs(env)
      .catch((error: unknown) => console.error('[local cron]', error instanceof Error ? error.message : error))
      .finally(() => { running = null; });
  };
  const timer = setInterval(tick, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
