import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { queryOf } from '../../lib/validation';
import { auditQuerySchema } from '../../schemas/admin';
import { listAuditEntries } from '../../services/audit';

export const adminAuditRoutes = new Hono<AppEnv>().get('/', async (c) => {
  const query = queryOf(c, auditQuerySchema);
  const { data, total } = await listAuditEntries(c.var.db, query);
  return c.json({ message: 'Audit log fetched successfully', data, page: query.page, limit: query.limit, total });
});
