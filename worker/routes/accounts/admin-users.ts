import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validQuery } from '../../lib/validation';
import { userListQuerySchema } from '../../schemas/admin';
import { listPage } from '../../schemas/common';
import { listUsers, setUserStatus } from '../../services/accounts';

export const adminUserRoutes = new Hono<AppEnv>()
  .get('/', validQuery(userListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Users fetched successfully', query, await listUsers(c.var.db, query)));
  })
  .post('/:userId/suspend', async (c) => {
    await setUserStatus(c.var.db, c.var.principal.id, pathId(c, 'userId', 'userId'), 'suspended');
    return c.json({ message: 'User suspended' });
  })
  .post('/:userId/reactivate', async (c) => {
    await setUserStatus(c.var.db, c.var.principal.id, pathId(c, 'userId', 'userId'), 'active');
    return c.json({ message: 'User reactivated' });
  });
