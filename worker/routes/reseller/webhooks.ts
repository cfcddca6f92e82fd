// A user's webhook endpoints, under user/ beside their API keys (guarded per route: other areas share the /user prefix).
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validJson } from '../../lib/validation';
import { requireUser } from '../../middleware/auth';
import { createWebhookSchema } from '../../schemas/webhooks';
import { createWebhook, deleteWebhook, listWebhooks, sendTestWebhook } from '../../services/reseller';

export const webhookEndpointRoutes = new Hono<AppEnv>()
  .get('/webhooks', requireUser, async (c) => {
    const { endpoints, deliveries } = await listWebhooks(c.var.db, c.var.principal.id);
    return c.json({ message: 'Webhooks fetched successfully', data: endpoints, deliveries });
  })
  .post('/webhooks', requireUser, validJson(createWebhookSchema), async (c) => {
    const data = await createWebhook(c.var.db, c.env, c.var.principal.id, c.req.valid('json'));
    return c.json({ message: 'Webhook added. Copy its signing secret now: it is shown only once.', data }, 201);
  })
  .post('/webhooks/:id/test', requireUser, async (c) => {
    const data = await sendTestWebhook(c.var.db, c.env, c.var.principal.id, pathId(c, 'Webhook id'));
    return c.json({ message: 'Test event queued: the delivery log below shows how your endpoint answers.', data });
  })
  .delete('/webhooks/:id', requireUser, async (c) => {
    await deleteWebhook(c.var.db, c.var.principal.id, pathId(c, 'Webhook id'));
    return c.json({ message: 'Webhook deleted' });
  });
