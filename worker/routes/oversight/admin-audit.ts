import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validQuery } from '../../lib/validation';
import { auditQuerySchema } from '../../schemas/admin';
import { listPage } from '../../schemas/common';
import { getAuditEntry, listAuditActors, listAuditEntries } from '../../services/oversight';

export const adminAuditRoutes = new Hono<AppEnv>()
  .get('/', validQuery(auditQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Audit log fetched successfully', query, await listAuditEntries(c.var.db, query)));
  })
  // The people the log can be filtered by, by name (before /:id, which it would otherwise match).
  .get('/actors', async (c) => c.json({ message: 'Audit log administrators', data: await listAuditActors(c.var.db) }))
  .get('/:id', async (c) => c.json({ message: 'Audit entry', data: await getAuditEntry(c.var.db, pathId(c, 'audit entry id')) }));
