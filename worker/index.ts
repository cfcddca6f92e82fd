import { app } from './app';
import type { Env } from './env';
import { runScheduledJobs } from './scheduled';
import { consumeSubmissions } from './services/order-submissions';

export default {
  fetch: app.fetch,
  // Awaited rather than waitUntil: the run then ends when its jobs do, and a local /__scheduled call waits for them.
  async scheduled(_controller, env) {
    await runScheduledJobs(env);
  },
  queue: consumeSubmissions,
} satisfies ExportedHandler<Env>;
