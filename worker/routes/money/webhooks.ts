import { Hono } from 'hono';
import { z } from 'zod';
import type { AppEnv } from '../../context';
import { parseWith } from '../../lib/validation';
import { handlePaymentWebhook } from '../../services/money';

const providerParam = z.enum(['paystack', 'flutterwave'], { error: 'Unknown payment provider' });

export const webhookRoutes = new Hono<AppEnv>().post('/:provider', async (c) => {
  const provider = parseWith(providerParam, c.req.param('provider'));
  // The signature covers the exact bytes received, so they are read before any parsing (the app's body limit bounds them).
  const raw = await c.req.arrayBuffer();
  const outcome = await handlePaymentWebhook(c.var.db, c.env, provider, raw, c.req.raw.headers);
  return c.json({ message: outcome === 'processed' ? 'Webhook processed' : 'Webhook ignored' });
});
