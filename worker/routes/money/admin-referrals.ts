// Referrals for administrators: the list, voiding one, and the programme's settings. Mounted under the admin guard.
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validJson, validQuery } from '../../lib/validation';
import { listPage } from '../../schemas/common';
import { adminReferralsQuerySchema, referralSettingsSchema, voidReferralSchema } from '../../schemas/referrals';
import { getReferralSettings, listReferrals, referralSettingsView, updateReferralSettings, voidReferral } from '../../services/money';

export const adminReferralRoutes = new Hono<AppEnv>()
  .get('/', validQuery(adminReferralsQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Referrals fetched successfully', query, await listReferrals(c.var.db, query)));
  })
  .get('/settings', async (c) => c.json({ message: 'Referral settings', data: referralSettingsView(await getReferralSettings(c.var.db)) }))
  .put('/settings', validJson(referralSettingsSchema), async (c) =>
    c.json({ message: 'Referral settings saved', data: await updateReferralSettings(c.var.db, c.var.principal.id, c.req.valid('json')) }),
  )
  .post('/:referredUserId/void', validJson(voidReferralSchema), async (c) => {
    const referredUserId = pathId(c, 'user id', 'referredUserId');
    const { reason } = c.req.valid('json');
    const { voided } = await voidReferral(c.var.db, c.var.principal.id, referredUserId, reason);
    return c.json({ message: voided ? 'Referral voided: no more commissions on this user’s deposits' : 'This referral was already void', data: { voided } });
  });
