import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validQuery } from '../../lib/validation';
import { dashboardQuerySchema } from '../../schemas/admin';
import { z } from '../../schemas/zod';
import { adminDashboard } from '../../services/dashboard';
import { moneyAlerts } from '../../services/money';

/** GET admin/dashboard/money: the dashboard's Money list, or with userId only what is about that user (as payer or referrer). */
const moneyQuerySchema = z.object({
  userId: z.coerce
    .number({ error: 'userId must be a positive number' })
    .int({ error: 'userId must be a positive number' })
    .positive({ error: 'userId must be a positive number' })
    .max(2_147_483_647, { error: 'userId is out of range' })
    .optional(),
});

export const adminDashboardRoutes = new Hono<AppEnv>()
  .get('/', validQuery(dashboardQuerySchema), async (c) => {
    const { period } = c.req.valid('query');
    return c.json({ message: 'Dashboard fetched successfully', data: await adminDashboard(c.var.db, period) });
  })
  .get('/money', validQuery(moneyQuerySchema), async (c) => {
    const { userId } = c.req.valid('query');
    return c.json({ message: 'Money alerts fetched successfully', data: await moneyAlerts(c.var.db, { userId }) });
  });
