// The cron trigger for the local stack. `wrangler dev` runs no crons by itself; started with
// --test-scheduled it runs the Worker's `scheduled` handler when /__scheduled is fetched, inside
// workerd with every binding (the submissions queue included), as the deployed cron trigger would:
// payment re-verification, order statuses and refunds, held orders, catalogue and rates refresh.
const CRON = '*/2 * * * *';

export function startLocalCron(shopUrl: string, intervalMs = 15_000): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    // A slow run is never overlapped by the next one.
    running ??= fetch(`${shopUrl}/__scheduled?cron=${encodeURIComponent(CRON)}`)
      .then(async (response) => {
        if (!response.ok) throw new Error(`/__scheduled answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
      })
      .catch((error: unknown) => console.error('[local cron]', error instanceof Error ? error.message : error))
      .finally(() => {
        running = null;
      });
  };
  const timer = setInterval(tick, intervalMs);
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}
