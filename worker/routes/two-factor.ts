// Two-factor sign-in for administrators (optional): status, setup, confirm, turn off.
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { validJson } from '../lib/validation';
import { requireAdmin } from '../middleware/auth';
import { twoFactorCodeSchema } from '../schemas/auth';
import { getSiteSettings } from '../services/settings';
import { disableTwoFactor, enableTwoFactor, startTwoFactorSetup, twoFactorStatus } from '../services/two-factor';

export const twoFactorRoutes = new Hono<AppEnv>()
  .get('/', requireAdmin, async (c) => c.json({ message: 'Two-factor status', data: await twoFactorStatus(c.var.db, c.var.principal.id) }))
  .post('/setup', requireAdmin, async (c) => {
    const { siteName } = await getSiteSettings(c.var.db);
    const data = await startTwoFactorSetup(c.var.db, c.env.ENCRYPTION_KEY, siteName, c.var.principal.id);
    return c.json({ message: 'Scan the code with your authenticator app, then confirm with a code from it.', data });
  })
  .post('/enable', requireAdmin, validJson(twoFactorCodeSchema), async (c) => {
    const { code } = c.req.valid('json');
    await enableTwoFactor(c.var.db, c.env.ENCRYPTION_KEY, c.var.principal.id, code);
    return c.json({ message: 'Two-factor sign-in is on' });
  })
  .post('/disable', requireAdmin, validJson(twoFactorCodeSchema), async (c) => {
    const { code } = c.req.valid('json');
    await disableTwoFactor(c.var.db, c.env.ENCRYPTION_KEY, c.var.principal.id, code);
    return c.json({ message: 'Two-factor sign-in is off' });
  });
