// A user's referral link and what it earned, under user/ (guarded per route: other areas share the /user prefix).
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { requireUser } from '../../middleware/auth';
import { referralSummary } from '../../services/money';

export const referralRoutes = new Hono<AppEnv>().get('/referrals', requireUser, async (c) =>
  c.json({ message: 'Referrals fetched successfully', data: await referralSummary(c.var.db, c.env, c.var.principal.id) }),
);
