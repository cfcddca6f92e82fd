// The public catalogue: what anyone may browse before signing in.
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { validQuery } from '../lib/validation';
import { serviceListQuerySchema } from '../schemas/catalogue';
import { listPage } from '../schemas/common';
import { listCategories, listServices } from '../services/catalogue';

export const serviceRoutes = new Hono<AppEnv>()
  .get('/', validQuery(serviceListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Services fetched successfully', query, await listServices(c.var.db, query)));
  })
  .get('/categories', async (c) => c.json({ message: 'Categories fetched successfully', data: await listCategories(c.var.db) }));
