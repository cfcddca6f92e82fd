// Support ticket schemas shared by the Worker (validation) and the SPA (forms), with the ticket
// kinds and statuses the database, the API and the SPA share. Pure zod, no other imports.

import { ORDER_TICKET_KINDS, TICKET_KINDS, TICKET_STATUSES } from '../../vocabulary';
import { idParam, paginationSchema, trimmedText } from './common';
import { z } from './zod';

export const MAX_TICKET_MESSAGE = 5000;
export const MAX_TICKET_SUBJECT = 120;

const message = trimmedText({
  required: 'Please write a message',
  max: MAX_TICKET_MESSAGE,
  tooLong: `Message must be at most ${MAX_TICKET_MESSAGE} characters`,
});

/** POST user/tickets/:id/messages and admin/tickets/:id/messages. */
export const ticketMessageSchema = z.object({ message });
export type TicketMessageInput = z.infer<typeof ticketMessageSchema>;

/** POST user/tickets. */
export const createTicketSchema = z
  .object({
    subject: trimmedText({
      required: 'Please enter a subject',
      min: 3,
      tooShort: 'Subject must be at least 3 characters',
      max: MAX_TICKET_SUBJECT,
      tooLong: `Subject must be at most ${MAX_TICKET_SUBJECT} characters`,
    }),
    kind: z.enum(TICKET_KINDS, { error: `kind must be one of: ${TICKET_KINDS.join(', ')}` }),
    orderId: idParam('orderId').optional(),
    paymentReference: trimmedText({
      required: 'paymentReference must be text',
      tooShort: 'Please enter the deposit reference',
      max: 100,
      tooLong: 'paymentReference must be at most 100 characters',
    }).optional(),
    message,
  })
  .refine((t) => t.orderId === undefined || (ORDER_TICKET_KINDS as readonly string[]).includes(t.kind), {
    error: 'Choose the kind Order or Refill for a ticket about an order',
    path: ['orderId'],
  })
  .refine((t) => t.paymentReference === undefined || t.kind === 'payment', {
    error: 'Choose the kind Payment for a ticket about a deposit',
    path: ['paymentReference'],
  });
export type CreateTicketInput = z.input<typeof createTicketSchema>;
export type CreateTicketData = z.output<typeof createTicketSchema>;

const statusFilter = z.enum(TICKET_STATUSES, { error: `status must be one of: ${TICKET_STATUSES.join(', ')}` }).optional();

/** Query of GET user/tickets. */
export const userTicketsQuerySchema = paginationSchema.extend({ status: statusFilter });
export type UserTicketsQuery = z.infer<typeof userTicketsQuerySchema>;

/** Query of GET admin/tickets. */
export const adminTicketsQuerySchema = paginationSchema.extend({
  status: statusFilter,
  userId: idParam('userId').optional(),
  /** Part of the subject, or of the user's name or email. */
  search: z.string().trim().max(200, { error: 'search must be at most 200 characters' }).optional(),
});
export type AdminTicketsQuery = z.infer<typeof adminTicketsQuerySchema>;
