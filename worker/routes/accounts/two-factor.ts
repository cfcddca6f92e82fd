// Two-factor sign-in for administrators: status, setup, confirm (answering the recovery codes), new recovery
// codes, turn off. Reachable by an administrator the site asks to set it up before anything else.
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validJson } from '../../lib/validation';
import { requireAdminDuringTwoFactorSetup } from '../../middleware/auth';
import { twoFactorCodeSchema } from '../../schemas/auth';
import { disableTwoFactor, enableTwoFactor, regenerateRecoveryCodes, startTwoFactorSetup, twoFactorStatus } from '../../services/accounts';
import { getSiteSettings } from '../../services/settings';

const SAVE_THE_CODES = 'Keep these recovery codes somewhere safe: each signs you in once without your phone, and they are shown only now.';

export const twoFactorRoutes = new Hono<AppEnv>()
  .use(requireAdminDuringTwoFactorSetup)
  .get('/', async (c) => c.json({ message: 'Two-factor status', data: await twoFactorStatus(c.var.db, c.env, c.var.principal.id) }))
  .post('/setup', async (c) => {
    const { siteName } = await getSiteSettings(c.var.db);
    const data = await startTwoFactorSetup(c.var.db, c.env.ENCRYPTION_KEY, siteName, c.var.principal.id);
    return c.json({ message: 'Scan the code with your authenticator app, then confirm with a code from it.', data });
  })
  .post('/enable', validJson(twoFactorCodeSchema), async (c) => {
    const { code } = c.req.valid('json');
    const recoveryCodes = await enableTwoFactor(c.var.db, c.env.ENCRYPTION_KEY, c.var.principal.id, code);
    return c.json({ message: `Two-factor sign-in is on. ${SAVE_THE_CODES}`, data: { recoveryCodes } });
  })
  .post('/recovery-codes', validJson(twoFactorCodeSchema), async (c) => {
    const { code } = c.req.valid('json');
    const recoveryCodes = await regenerateRecoveryCodes(c.var.db, c.env.ENCRYPTION_KEY, c.var.principal.id, code);
    return c.json({ message: `New recovery codes made; the old ones no longer work. ${SAVE_THE_CODES}`, data: { recoveryCodes } });
  })
  .post('/disable', validJson(twoFactorCodeSchema), async (c) => {
    const { code } = c.req.valid('json');
    await disableTwoFactor(c.var.db, c.env.ENCRYPTION_KEY, c.var.principal.id, code);
    return c.json({ message: 'Two-factor sign-in is off' });
  });
