// The public catalogue: what anyone may browse before signing in.
import { Hono } from 'hono';
import type { AppEnv } from '../context';
import { validQuery } from '../lib/validation';
import { serviceListQuerySchema } from '../schemas/catalogue';
import { listCategories, listServices } from '../services/catalogue';

export const serviceRoutes = new Hono<AppEnv>()
  .get('/', validQuery(serviceListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { data, total } = await listServices(c.var.db, query);
    return c.json({ message: 'Services fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  .get('/categories', async (c) => c.json({ message: 'Categories fetched successfully', data: await listCategories(c.var.db) }));
