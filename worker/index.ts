import { app } from './app';
import type { Env } from './env';
import { runScheduledJobs } from './scheduled';
import { consumeAdminJobs, consumePaymentEvents } from './services/money';
import { consumeSubmissions } from './services/orders';
import { consumeWebhookDeliveries } from './services/reseller';

export default {
  fetch: app.fetch,
  // Awaited rather than waitUntil: the run then ends when its jobs do, and a local /__scheduled call waits for them.
  async scheduled(_controller, env) {
    await runScheduledJobs(env);
  },
  // One consumer per queue (wrangler.toml): bank transfers tried again, webhooks to resellers, administrators' long jobs, and placed orders sent to their provider.
  queue: (batch, env) => {
    if (batch.queue === 'payment-events') return consumePaymentEvents(batch, env);
    if (batch.queue === 'admin-jobs') return consumeAdminJobs(batch, env);
    if (batch.queue === 'webhook-deliveries') return consumeWebhookDeliveries(batch, env);
    return consumeSubmissions(batch, env);
  },
} satisfies ExportedHandler<Env>;
