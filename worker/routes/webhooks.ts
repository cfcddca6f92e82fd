import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { AppError } from '../lib/errors';
import { MAX_JSON_BYTES } from '../lib/validation';
import { handlePaystackWebhook } from '../services/payments';

export const webhookRoutes = new Hono<AppEnv>().post('/paystack', async (c) => {
  // The signature covers the exact bytes received, so they are read before any parsing.
  const raw = await c.req.arrayBuffer();
  if (raw.byteLength > MAX_JSON_BYTES) throw new AppError('too_large', 'Request body is too large.');
  const outcome = await handlePaystackWebhook(c.var.db, c.env, raw, c.req.raw.headers);
  return c.json({ message: outcome === 'processed' ? 'Webhook processed' : 'Webhook ignored' });
});
