import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { parseWith, validQuery } from '../../lib/validation';
import { auditQuerySchema } from '../../schemas/admin';
import { idParam } from '../../schemas/common';
import { getAuditEntry, listAuditEntries } from '../../services/audit';

export const adminAuditRoutes = new Hono<AppEnv>()
  .get('/', validQuery(auditQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { data, total } = await listAuditEntries(c.var.db, query);
    return c.json({ message: 'Audit log fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  .get('/:id', async (c) => c.json({ message: 'Audit entry', data: await getAuditEntry(c.var.db, parseWith(idParam('audit entry id'), c.req.param('id'))) }));
