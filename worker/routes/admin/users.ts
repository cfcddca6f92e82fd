import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { parseWith, validQuery } from '../../lib/validation';
import { userListQuerySchema } from '../../schemas/admin';
import { idParam } from '../../schemas/common';
import { listUsers, setUserStatus } from '../../services/admin-users';

export const adminUserRoutes = new Hono<AppEnv>()
  .get('/', validQuery(userListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { data, total } = await listUsers(c.var.db, query);
    return c.json({ message: 'Users fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  .post('/:userId/suspend', async (c) => {
    await setUserStatus(c.var.db, c.var.principal.id, parseWith(idParam('userId'), c.req.param('userId')), 'suspended');
    return c.json({ message: 'User suspended' });
  })
  .post('/:userId/reactivate', async (c) => {
    await setUserStatus(c.var.db, c.var.principal.id, parseWith(idParam('userId'), c.req.param('userId')), 'active');
    return c.json({ message: 'User reactivated' });
  });
