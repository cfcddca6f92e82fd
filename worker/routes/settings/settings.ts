import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validJson } from '../../lib/validation';
import {
  PAYMENT_PROVIDER_LABELS,
  paymentKeyCheckSchema,
  paymentSettingsSchema,
  resellerApiSettingsSchema,
  securitySettingsSchema,
  siteSettingsSchema,
} from '../../schemas/settings';
import { checkPaymentKey, paymentSettingsView, updatePaymentSettings } from '../../services/money';
import {
  getPublicSettings,
  getResellerApiSettings,
  getSecuritySettings,
  getSiteSettings,
  updateResellerApiSettings,
  updateSecuritySettings,
  updateSiteSettings,
} from '../../services/settings';

export const publicSettingsRoutes = new Hono<AppEnv>().get('/public', async (c) => c.json(await getPublicSettings(c.var.db, c.env)));

export const adminSettingsRoutes = new Hono<AppEnv>()
  .get('/site', async (c) => c.json({ message: 'Site settings', data: await getSiteSettings(c.var.db) }))
  .put('/site', validJson(siteSettingsSchema), async (c) => {
    const data = await updateSiteSettings(c.var.db, c.var.principal.id, c.req.valid('json'));
    return c.json({ message: 'Site settings saved', data });
  })
  .get('/payment', async (c) => c.json({ message: 'Payment settings', data: await paymentSettingsView(c.var.db, c.env) }))
  .put('/payment', validJson(paymentSettingsSchema), async (c) => {
    const data = await updatePaymentSettings(c.var.db, c.env, c.var.principal.id, c.req.valid('json'));
    return c.json({ message: 'Payment settings saved', data });
  })
  .post('/payment/check', validJson(paymentKeyCheckSchema), async (c) => {
    const { provider } = c.req.valid('json');
    const data = await checkPaymentKey(c.var.db, c.env, c.var.principal.id, provider);
    return c.json({ message: `${PAYMENT_PROVIDER_LABELS[provider]} accepted the secret key`, data });
  })
  .get('/security', async (c) => c.json({ message: 'Security settings', data: await getSecuritySettings(c.var.db, c.env) }))
  .put('/security', validJson(securitySettingsSchema), async (c) => {
    const data = await updateSecuritySettings(c.var.db, c.var.principal.id, c.req.valid('json'));
    return c.json({ message: 'Security settings saved', data });
  })
  .get('/reseller-api', async (c) => c.json({ message: 'Reseller API settings', data: await getResellerApiSettings(c.var.db) }))
  .put('/reseller-api', validJson(resellerApiSettingsSchema), async (c) => {
    const data = await updateResellerApiSettings(c.var.db, c.var.principal.id, c.req.valid('json'));
    return c.json({ message: 'Reseller API settings saved', data });
  });
