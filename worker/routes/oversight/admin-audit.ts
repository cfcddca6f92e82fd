import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validQuery } from '../../lib/validation';
import { auditQuerySchema } from '../../schemas/admin';
import { listPage } from '../../schemas/common';
import { getAuditEntry, listAuditEntries } from '../../services/oversight';

export const adminAuditRoutes = new Hono<AppEnv>()
  .get('/', validQuery(auditQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Audit log fetched successfully', query, await listAuditEntries(c.var.db, query)));
  })
  .get('/:id', async (c) => c.json({ message: 'Audit entry', data: await getAuditEntry(c.var.db, pathId(c, 'audit entry id')) }));
