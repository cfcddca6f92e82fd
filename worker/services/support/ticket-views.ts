// Support tickets as each side reads them: a user's list and thread, support's filtered list and
// thread with the order or deposit the ticket is about. Reading a thread marks it read for that side.
import { and, asc, desc, eq, ilike, or, type SQL, sql } from 'drizzle-orm';
import { alias } from 'drizzle-orm/pg-core';
import { orders, paymentIntents, ticketMessages, tickets, users } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import { notFound } from '../../lib/errors';
import { cappedCountQuery, cappedTotal } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import type { AdminTicketsQuery, UserTicketsQuery } from '../../schemas/tickets';

/** A user sees only their own tickets; support sees every ticket. */
export type TicketViewer = { userId: number } | { staff: true };
const isStaff = (viewer: TicketViewer): viewer is { staff: true } => 'staff' in viewer;

/** What users see as the author of support's messages: the desk answers, not a named person. */
const SUPPORT_AUTHOR = 'Support';

const assignee = alias(users, 'assignee');
const author = alias(users, 'author');

const rowColumns = {
  ticket: tickets,
  paymentReference: paymentIntents.reference,
  ownerName: users.fullName,
  ownerEmail: users.email,
  assigneeName: assignee.fullName,
};
type TicketRow = { ticket: typeof tickets.$inferSelect; paymentReference: string | null; ownerName: string; ownerEmail: string; assigneeName: string | null };

function toTicketView({ ticket, paymentReference, ownerName, ownerEmail, assigneeName }: TicketRow, viewer: TicketViewer) {
  const common = {
    id: ticket.id,
    subject: ticket.subject,
    kind: ticket.kind,
    status: ticket.status,
    /** A message from the other side this viewer has not read yet. */
    unread: isStaff(viewer) ? ticket.adminUnread : ticket.userUnread,
    orderId: ticket.orderId,
    paymentReference,
    lastMessageAt: ticket.lastMessageAt.toISOString(),
    closedAt: ticket.closedAt?.toISOString() ?? null,
    created_at: ticket.createdAt.toISOString(),
  };
  if (!isStaff(viewer)) return common;
  return {
    ...common,
    user: { id: ticket.userId, fullName: ownerName, email: ownerEmail },
    assignedTo: ticket.assignedTo === null ? null : { id: ticket.assignedTo, fullName: assigneeName },
  };
}

/** Tickets with their deposit reference, owner and assignee, most recently active first. */
function ticketRows(db: DbOrTx, where: SQL | undefined) {
  return db
    .select(rowColumns)
    .from(tickets)
    .innerJoin(users, eq(users.id, tickets.userId))
    .leftJoin(assignee, eq(assignee.id, tickets.assignedTo))
    .leftJoin(paymentIntents, eq(paymentIntents.id, tickets.paymentIntentId))
    .where(where)
    .orderBy(desc(tickets.lastMessageAt), desc(tickets.id));
}

/** A page of tickets, and their total capped (paging.ts); `where` reads the tickets table alone. */
async function listPage(db: Db, where: SQL | undefined, page: { page: number; limit: number }, viewer: TicketViewer) {
  const [rows, counted] = await db.batch([
    ticketRows(db, where)
      .limit(page.limit)
      .offset((page.page - 1) * page.limit),
    cappedCountQuery(db, tickets, where),
  ]);
  return { data: rows.map((row) => toTicketView(row, viewer)), ...cappedTotal(counted) };
}

export function listUserTickets(db: Db, userId: number, query: UserTicketsQuery) {
  return listPage(db, and(eq(tickets.userId, userId), query.status ? eq(tickets.status, query.status) : undefined), query, { userId });
}

export function listAdminTickets(db: Db, query: AdminTicketsQuery) {
  const term = query.search ? containsPattern(query.search) : null;
  const where = and(
    query.status ? eq(tickets.status, query.status) : undefined,
    query.userId ? eq(tickets.userId, query.userId) : undefined,
    // The owner matched by id, so the filter reads the tickets table alone and the total counts it without a join. The
    // owners' ids as an array (found once, from the users' trigram indexes), not `in (subquery)`: the tickets are then
    // found from their subject's trigram index or their owner's index, where a subquery in the `or` reads every ticket.
    term
      ? or(
          ilike(tickets.subject, term),
          sql`${tickets.userId} = any(array(${db
            .select({ id: users.id })
            .from(users)
            .where(or(ilike(users.email, term), ilike(users.fullName, term)))}))`,
        )
      : undefined,
  );
  return listPage(db, where, query, { staff: true });
}

/** The ticket with its whole thread, oldest message first, and what it is about; another user's ticket is not found. */
export async function ticketDetail(db: DbOrTx, id: number, viewer: TicketViewer) {
  const [[row], messages] = await Promise.all([
    db
      .select({
        ...rowColumns,
        order: { serviceName: orders.serviceName, status: orders.status, link: orders.link, chargeKobo: orders.chargeKobo, createdAt: orders.createdAt },
        payment: {
          amountKobo: paymentIntents.amountKobo,
          status: paymentIntents.status,
          provider: paymentIntents.provider,
          createdAt: paymentIntents.createdAt,
        },
      })
      .from(tickets)
      .innerJoin(users, eq(users.id, tickets.userId))
      .leftJoin(assignee, eq(assignee.id, tickets.assignedTo))
      .leftJoin(paymentIntents, eq(paymentIntents.id, tickets.paymentIntentId))
      .leftJoin(orders, eq(orders.id, tickets.orderId))
      .where(and(eq(tickets.id, id), isStaff(viewer) ? undefined : eq(tickets.userId, viewer.userId))),
    db
      .select({ message: ticketMessages, authorName: author.fullName })
      .from(ticketMessages)
      .leftJoin(author, eq(author.id, ticketMessages.authorId))
      .where(eq(ticketMessages.ticketId, id))
      .orderBy(asc(ticketMessages.id)),
  ]);
  if (!row) throw notFound('Ticket not found');
  const { order, payment } = row;
  return {
    ...toTicketView(row, viewer),
    order:
      row.ticket.orderId !== null && order
        ? {
            id: row.ticket.orderId,
            serviceName: order.serviceName,
            status: order.status,
            link: order.link,
            charge: koboToNaira(order.chargeKobo),
            created_at: order.createdAt.toISOString(),
          }
        : null,
    payment:
      row.paymentReference !== null && payment
        ? {
            reference: row.paymentReference,
            amount: koboToNaira(payment.amountKobo),
            status: payment.status,
            provider: payment.provider,
            created_at: payment.createdAt.toISOString(),
          }
        : null,
    messages: messages.map(({ message, authorName }) => ({
      id: message.id,
      fromStaff: message.fromStaff,
      authorName: message.fromStaff && !isStaff(viewer) ? SUPPORT_AUTHOR : authorName,
      body: message.body,
      created_at: message.createdAt.toISOString(),
    })),
  };
}
export type TicketDetail = Awaited<ReturnType<typeof ticketDetail>>;

/**
 * The thread as its viewer opens it, marked read for their side first: a message that arrives after
 * the mark sets the flag again, so nothing unseen is ever marked read.
 */
export async function readTicket(db: DbOrTx, id: number, viewer: TicketViewer) {
  await db
    .update(tickets)
    .set(isStaff(viewer) ? { adminUnread: false } : { userUnread: false })
    .where(
      isStaff(viewer)
        ? and(eq(tickets.id, id), eq(tickets.adminUnread, true))
        : and(eq(tickets.id, id), eq(tickets.userId, viewer.userId), eq(tickets.userUnread, true)),
    );
  return ticketDetail(db, id, viewer);
}
