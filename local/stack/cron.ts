// The cron trigger for the local stack. Locally no cron fires by itself; Miniflare runs the Worker's
// `scheduled` handler when scheduledUrl is fetched (local/stack/worker-runtime.ts), inside workerd with
// every binding (the submissions queue included), as the deployed cron trigger would: payment
// re-verification, order statuses and refunds, held orders, catalogue and rates refresh. The answer
// comes when the jobs end: 200, or 500 when the handler threw.
const CRON = '*/2 * * * *';

export const scheduledUrl = (shopUrl: string) => `${shopUrl}/__scheduled?cron=${encodeURIComponent(CRON)}`;

export function startLocalCron(shopUrl: string, intervalMs = 15_000): { stop(): Promise<void> } {
  let running: Promise<unknown> | null = null;
  const tick = () => {
    // A slow run is never overlapped by the next one.
    running ??= fetch(scheduledUrl(shopUrl))
      .then(async (response) => {
        if (!response.ok) throw new Error(`The scheduled run answered ${response.status}: ${(await response.text()).slice(0, 200)}`);
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
