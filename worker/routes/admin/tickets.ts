// Support's desk: every ticket filtered by status, user or text, the thread with what it is about,
// replies, assigning to oneself and closing. Mounted under the admin guard.
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../../context';
import { parseWith, validJson, validQuery } from '../../lib/validation';
import { idParam } from '../../schemas/common';
import { adminTicketsQuerySchema, ticketMessageSchema } from '../../schemas/tickets';
import { listAdminTickets, readTicket } from '../../services/ticket-views';
import { adminUnreadCount, assignTicketToSelf, closeTicket, replyAsStaff } from '../../services/tickets';

const ticketId = (c: Context<AppEnv>) => parseWith(idParam('ticket id'), c.req.param('id'));

export const adminTicketRoutes = new Hono<AppEnv>()
  .get('/', validQuery(adminTicketsQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { data, total } = await listAdminTickets(c.var.db, query);
    return c.json({ message: 'Tickets fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  // Before /:id, which would take 'unread' for an id.
  .get('/unread', async (c) => c.json({ message: 'Unread tickets counted', data: { unread: await adminUnreadCount(c.var.db) } }))
  .get('/:id', async (c) => c.json({ message: 'Ticket fetched successfully', data: await readTicket(c.var.db, ticketId(c), { staff: true }) }))
  .post('/:id/messages', validJson(ticketMessageSchema), async (c) => {
    const id = ticketId(c);
    const { message } = c.req.valid('json');
    return c.json({ message: 'Reply sent', data: await replyAsStaff(c.var.db, c.var.principal.id, id, message) });
  })
  .post('/:id/assign', async (c) => c.json({ message: 'Ticket assigned to you', data: await assignTicketToSelf(c.var.db, c.var.principal.id, ticketId(c)) }))
  .post('/:id/close', async (c) => c.json({ message: 'Ticket closed', data: await closeTicket(c.var.db, c.var.principal.id, ticketId(c)) }));
