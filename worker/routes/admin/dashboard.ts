import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { queryOf } from '../../lib/validation';
import { dashboardQuerySchema } from '../../schemas/admin';
import { adminDashboard } from '../../services/admin-dashboard';

export const adminDashboardRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const { period } = queryOf(c, dashboardQuerySchema);
  return c.json({ message: 'Dashboard fetched successfully', data: await adminDashboard(c.var.db, period) });
});
