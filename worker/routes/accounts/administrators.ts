import { Hono } from 'hono';
import { USER_TYPE } from '../../../vocabulary';

import type { AppEnv } from '../../context';
import { pathId, validJson, validQuery } from '../../lib/validation';
import { inviteAdministratorSchema, promoteAdministratorSchema, userListQuerySchema } from '../../schemas/admin';
import { listPage } from '../../schemas/common';
import { inviteAdministrator, listUsers, promoteAdministrator, removeAdministrator } from '../../services/accounts';

const administratorListQuerySchema = userListQuerySchema.pick({ page: true, limit: true, search: true });

export const adminAdministratorRoutes = new Hono<AppEnv>()
  .get('/', validQuery(administratorListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Administrators fetched successfully', query, await listUsers(c.var.db, { ...query, userType: USER_TYPE.admin, sort: 'name' })));
  })
  .post('/promote', validJson(promoteAdministratorSchema), async (c) => {
    const { userId } = c.req.valid('json');
    return c.json({ message: 'User promoted to administrator', data: await promoteAdministrator(c.var.db, c.var.principal.id, userId) });
  })
  .post('/invite', validJson(inviteAdministratorSchema), async (c) => {
    const input = c.req.valid('json');
    const invitation = await inviteAdministrator(c.var.db, c.env, c.var.principal, input);
    if ('linkSentTo' in invitation) {
      return c.json({ message: `We emailed ${invitation.linkSentTo} a link: the account becomes an administrator when they use it.` }, 202);
    }
    return c.json({ message: `Invitation sent to ${invitation.made.email}`, data: invitation.made }, 201);
  })
  .delete('/:userId', async (c) => {
    await removeAdministrator(c.var.db, c.var.principal.id, pathId(c, 'userId', 'userId'));
    return c.json({ message: 'Administrator removed' });
  });
