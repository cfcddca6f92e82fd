// Referrals for administrators: the list, voiding one, and the programme's settings. Mounted under the admin guard.
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { parseWith, validJson, validQuery } from '../../lib/validation';
import { idParam } from '../../schemas/common';
import { adminReferralsQuerySchema, referralSettingsSchema, voidReferralSchema } from '../../schemas/referrals';
import { getReferralSettings, listReferrals, referralSettingsView, updateReferralSettings, voidReferral } from '../../services/referrals';

export const adminReferralRoutes = new Hono<AppEnv>()
  .get('/', validQuery(adminReferralsQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { data, total } = await listReferrals(c.var.db, query);
    return c.json({ message: 'Referrals fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  .get('/settings', async (c) => c.json({ message: 'Referral settings', data: referralSettingsView(await getReferralSettings(c.var.db)) }))
  .put('/settings', validJson(referralSettingsSchema), async (c) =>
    c.json({ message: 'Referral settings saved', data: await updateReferralSettings(c.var.db, c.var.principal.id, c.req.valid('json')) }),
  )
  .post('/:referredUserId/void', validJson(voidReferralSchema), async (c) => {
    const referredUserId = parseWith(idParam('user id'), c.req.param('referredUserId'));
    const { reason } = c.req.valid('json');
    const { voided } = await voidReferral(c.var.db, c.var.principal.id, referredUserId, reason);
    return c.json({ message: voided ? 'Referral voided: no more commissions on this user’s deposits' : 'This referral was already void', data: { voided } });
  });
