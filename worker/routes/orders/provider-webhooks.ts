// Webhooks from an upstream panel that is a shop like ours (services/orders/provider-webhooks.ts): public, because the
// panel calls it; trusted only through the signature over the exact bytes received, so the body is read as text first.
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId } from '../../lib/validation';
import { receiveProviderWebhook } from '../../services/orders';

export const providerWebhookRoutes = new Hono<AppEnv>().post('/:id', async (c) => {
  const id = pathId(c, 'provider id');
  const raw = await c.req.text();
  const outcome = await receiveProviderWebhook(c.var.db, c.env, id, raw, c.req.header('x-webhook-signature') ?? null);
  return c.json({ message: outcome.event === 'ignored' ? 'Webhook ignored' : 'Webhook processed' });
});
