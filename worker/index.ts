import { app } from './app';
import type { Env } from './env';

export default {
  fetch: app.fetch,
  async scheduled(_controller, _env, _ctx) {
    // Scheduled jobs (payment re-verification, order status sync, rates) are added by their areas.
  },
} satisfies ExportedHandler<Env>;
