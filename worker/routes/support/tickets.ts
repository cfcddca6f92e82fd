// A user's support tickets, under user/ (guarded per route: other areas share the /user prefix).
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validJson, validQuery } from '../../lib/validation';
import { requireUser } from '../../middleware/auth';
import { listPage } from '../../schemas/common';
import { createTicketSchema, ticketMessageSchema, userTicketsQuerySchema } from '../../schemas/tickets';
import { createTicket, listUserTickets, readTicket, replyAsUser, userUnreadCount } from '../../services/support';

export const ticketRoutes = new Hono<AppEnv>()
  .get('/tickets', requireUser, validQuery(userTicketsQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Tickets fetched successfully', query, await listUserTickets(c.var.db, c.var.principal.id, query)));
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
    c.json({ message: 'Ticket fetched successfully', data: await readTicket(c.var.db, pathId(c, 'ticket id'), { userId: c.var.principal.id }) }),
  )
  .post('/tickets/:id/messages', requireUser, validJson(ticketMessageSchema), async (c) => {
    const id = pathId(c, 'ticket id');
    const { message } = c.req.valid('json');
    return c.json({ message: 'Reply sent', data: await replyAsUser(c.var.db, c.var.principal.id, id, message) });
  });
