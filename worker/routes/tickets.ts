// A user's support tickets, under user/ (guarded per route: other areas share the /user prefix).
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../context';
import { parseWith, validJson, validQuery } from '../lib/validation';
import { requireUser } from '../middleware/auth';
import { idParam } from '../schemas/common';
import { createTicketSchema, ticketMessageSchema, userTicketsQuerySchema } from '../schemas/tickets';
import { listUserTickets, readTicket } from '../services/ticket-views';
import { createTicket, replyAsUser, userUnreadCount } from '../services/tickets';

const ticketId = (c: Context<AppEnv>) => parseWith(idParam('ticket id'), c.req.param('id'));

export const ticketRoutes = new Hono<AppEnv>()
  .get('/tickets', requireUser, validQuery(userTicketsQuerySchema), async (c) => {
    const query = c.req.valid('query');
    const { data, total } = await listUserTickets(c.var.db, c.var.principal.id, query);
    return c.json({ message: 'Tickets fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  // Before /tickets/:id, which would take 'unread' for an id.
  .get('/tickets/unread', requireUser, async (c) =>
    c.json({ message: 'Unread tickets counted', data: { unread: await userUnreadCount(c.var.db, c.var.principal.id) } }),
  )
  .post('/tickets', requireUser, validJson(createTicketSchema), async (c) => {
    const input = c.req.valid('json');
    return c.json({ message: 'Ticket opened. We will answer here as soon as we can.', data: await createTicket(c.var.db, c.var.principal.id, input) }, 201);
  })
  .get('/tickets/:id', requireUser, async (c) =>
    c.json({ message: 'Ticket fetched successfully', data: await readTicket(c.var.db, ticketId(c), { userId: c.var.principal.id }) }),
  )
  .post('/tickets/:id/messages', requireUser, validJson(ticketMessageSchema), async (c) => {
    const id = ticketId(c);
    const { message } = c.req.valid('json');
    return c.json({ message: 'Reply sent', data: await replyAsUser(c.var.db, c.var.principal.id, id, message) });
  });
