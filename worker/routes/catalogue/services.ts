// The public catalogue: what anyone may browse before signing in, from the isolate's copy (catalogue-snapshot.ts).
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { validQuery } from '../../lib/validation';
import { serviceListQuerySchema } from '../../schemas/catalogue';
import { listPage } from '../../schemas/common';
import { listPublicCategories, listPublicServices } from '../../services/catalogue';

export const serviceRoutes = new Hono<AppEnv>()
  .get('/', validQuery(serviceListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Services fetched successfully', query, await listPublicServices(c.var.db, query)));
  })
  .get('/categories', async (c) => c.json({ message: 'Categories fetched successfully', data: await listPublicCategories(c.var.db) }));
