import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validQuery } from '../../lib/validation';
import { dashboardQuerySchema } from '../../schemas/admin';
import { adminDashboard } from '../../services/admin-dashboard';

export const adminDashboardRoutes = new Hono<AppEnv>().get('/', validQuery(dashboardQuerySchema), async (c) => {
  const { period } = c.req.valid('query');
  return c.json({ message: 'Dashboard fetched successfully', data: await adminDashboard(c.var.db, period) });
});
