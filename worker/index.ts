import { app } from './app';
import type { Env } from './env';
import { runScheduledJobs } from './scheduled';

export default {
  fetch: app.fetch,
  async scheduled(_controller, env, ctx) {
    ctx.waitUntil(runScheduledJobs(env));
  },
} satisfies ExportedHandler<Env>;
