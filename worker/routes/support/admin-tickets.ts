// Support's desk: every ticket filtered by status, user or text, the thread with what it is about,
// replies, assigning to oneself and closing. Mounted under the admin guard.
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validJson, validQuery } from '../../lib/validation';
import { listPage } from '../../schemas/common';
import { adminTicketsQuerySchema, ticketMessageSchema } from '../../schemas/tickets';
import { adminUnreadCount, assignTicketToSelf, closeTicket, listAdminTickets, readTicket, replyAsStaff } from '../../services/support';

export const adminTicketRoutes = new Hono<AppEnv>()
  .get('/', validQuery(adminTicketsQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Tickets fetched successfully', query, await listAdminTickets(c.var.db, query)));
  })
  // Before /:id, which would take 'unread' for an id.
  .get('/unread', async (c) => c.json({ message: 'Unread tickets counted', data: { unread: await adminUnreadCount(c.var.db) } }))
  .get('/:id', async (c) => c.json({ message: 'Ticket fetched successfully', data: await readTicket(c.var.db, pathId(c, 'ticket id'), { staff: true }) }))
  .post('/:id/messages', validJson(ticketMessageSchema), async (c) => {
    const id = pathId(c, 'ticket id');
    const { message } = c.req.valid('json');
    return c.json({ message: 'Reply sent', data: await replyAsStaff(c.var.db, c.var.principal.id, id, message) });
  })
  .post('/:id/assign', async (c) =>
    c.json({ message: 'Ticket assigned to you', data: await assignTicketToSelf(c.var.db, c.var.principal.id, pathId(c, 'ticket id')) }),
  )
  .post('/:id/close', async (c) => c.json({ message: 'Ticket closed', data: await closeTicket(c.var.db, c.var.principal.id, pathId(c, 'ticket id')) }));
