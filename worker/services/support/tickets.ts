// Support tickets: a user opens one (optionally about one of their own orders or deposits), both
// sides reply in a thread, support assigns and closes. Each reply and the status it brings are one
// transaction; every administrator's action writes its audit row in the same transaction.
import { and, count, eq, inArray, ne, type SQL, sql } from 'drizzle-orm';
import { orders, paymentIntents, ticketMessages, tickets, users } from '../../../drizzle/schema';
import type { TicketStatus } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { conflict, invalid, notFound } from '../../lib/errors';
import type { CreateTicketData } from '../../schemas/tickets';
import { enforceRateLimit } from '../accounts';
import { notifyTicketAnswered } from '../notifications';
import { recordAudit } from '../oversight';
import { type TicketDetail, ticketDetail } from './ticket-views';

/**
 * Tickets a user may have waiting for support (Open or Customer reply) before opening another:
 * enough for real trouble with several orders, few enough that one account cannot flood the desk.
 */
export const MAX_AWAITING_TICKETS = 10;
export const TICKETS_OPENED_PER_10_MINUTES = 5;
export const TICKET_MESSAGES_PER_MINUTE = 10;

const AWAITING_SUPPORT: TicketStatus[] = ['Open', 'Customer reply'];
const ticketNotFound = () => notFound('Ticket not found');

/** The order or deposit a new ticket is about, checked as the caller's own; another user's is refused as if it did not exist. */
async function ownReferences(tx: DbOrTx, userId: number, input: CreateTicketData): Promise<{ orderId: number | null; paymentIntentId: number | null }> {
  /** The id of the caller's own row of `table` that `named` picks, or a 400 with `refusal`. */
  const ownId = async (table: typeof orders | typeof paymentIntents, named: SQL, refusal: string) => {
    const [row] = await tx
      .select({ id: table.id })
      .from(table)
      .where(and(named, eq(table.userId, userId)));
    if (!row) throw invalid(refusal);
    return row.id;
  };
  const { orderId, paymentReference } = input;
  return {
    orderId: orderId === undefined ? null : await ownId(orders, eq(orders.id, orderId), 'Please choose one of your orders.'),
    paymentIntentId:
      paymentReference === undefined
        ? null
        : await ownId(paymentIntents, eq(paymentIntents.reference, paymentReference), 'Please choose one of your deposits.'),
  };
}

export async function createTicket(db: Db, userId: number, input: CreateTicketData): Promise<TicketDetail> {
  await enforceRateLimit(db, [`ticket-open:user:${userId}`], TICKETS_OPENED_PER_10_MINUTES, 600);
  // Interactive: counts the waiting tickets under the user's row lock, then decides.
  const id = await db.transaction(async (tx) => {
    // Simultaneous openings by one user queue on their row, so the cap holds for them too.
    await tx.select({ id: users.id }).from(users).where(eq(users.id, userId)).for('no key update');
    const [{ awaiting }] = await tx
      .select({ awaiting: count() })
      .from(tickets)
      .where(and(eq(tickets.userId, userId), inArray(tickets.status, AWAITING_SUPPORT)));
    if (awaiting >= MAX_AWAITING_TICKETS) {
      throw conflict(`You already have ${MAX_AWAITING_TICKETS} tickets waiting for an answer. Please wait for our reply, or add to one of them.`);
    }
    const references = await ownReferences(tx, userId, input);
    const [ticket] = await tx
      .insert(tickets)
      .values({ userId, subject: input.subject, kind: input.kind, ...references })
      .returning({ id: tickets.id });
    await tx.insert(ticketMessages).values({ ticketId: ticket.id, authorId: userId, fromStaff: false, body: input.message });
    return ticket.id;
  });
  return ticketDetail(db, id, { userId });
}

/** Why a change to a ticket that is not Closed matched nothing: it does not exist (for this user), or it is closed. */
async function refuseChange(tx: DbOrTx, id: number, userId: number | undefined, closedMessage: string): Promise<never> {
  const [row] = await tx
    .select({ id: tickets.id })
    .from(tickets)
    .where(and(eq(tickets.id, id), userId === undefined ? undefined : eq(tickets.userId, userId)));
  throw row ? conflict(closedMessage) : ticketNotFound();
}

/**
 * A user's reply. Before any answer the ticket stays Open; after one it becomes Customer reply.
 * A Closed ticket takes no more replies: support closed it as settled, so a new problem is a new ticket.
 */
export async function replyAsUser(db: Db, userId: number, id: number, message: string): Promise<TicketDetail> {
  await enforceRateLimit(db, [`ticket-message:user:${userId}`], TICKET_MESSAGES_PER_MINUTE);
  // Interactive: the message is added only if the guarded update matched; otherwise refuseChange reads why.
  await db.transaction(async (tx) => {
    const [ticket] = await tx
      .update(tickets)
      .set({
        status: sql`case when ${tickets.status} = 'Answered' then 'Customer reply' else ${tickets.status} end`,
        adminUnread: true,
        userUnread: false,
        lastMessageAt: sql`now()`,
      })
      .where(and(eq(tickets.id, id), eq(tickets.userId, userId), ne(tickets.status, 'Closed')))
      .returning({ id: tickets.id });
    if (!ticket) await refuseChange(tx, id, userId, 'This ticket is closed. Please open a new ticket if you still need help.');
    await tx.insert(ticketMessages).values({ ticketId: id, authorId: userId, fromStaff: false, body: message });
  });
  return ticketDetail(db, id, { userId });
}

/**
 * Support's reply: the ticket becomes Answered and unread for its user, and goes to the replying
 * administrator when nobody has it yet. Replying to a Closed ticket reopens it (support may follow up).
 */
export async function replyAsStaff(db: Db, actorId: number, id: number, message: string): Promise<TicketDetail> {
  // Interactive: the message, its notification and the audit row follow only a ticket that exists.
  await db.transaction(async (tx) => {
    const [ticket] = await tx
      .update(tickets)
      .set({
        status: 'Answered',
        userUnread: true,
        adminUnread: false,
        assignedTo: sql`coalesce(${tickets.assignedTo}, ${actorId})`,
        lastMessageAt: sql`now()`,
        closedAt: null,
        closedBy: null,
      })
      .where(eq(tickets.id, id))
      .returning({ id: tickets.id, userId: tickets.userId, subject: tickets.subject });
    if (!ticket) throw ticketNotFound();
    const [sent] = await tx
      .insert(ticketMessages)
      .values({ ticketId: id, authorId: actorId, fromStaff: true, body: message })
      .returning({ id: ticketMessages.id });
    await notifyTicketAnswered(tx, { messageId: sent.id, ticketId: id, userId: ticket.userId, subject: ticket.subject });
    await recordAudit(tx, { actorId, action: 'ticket.reply', target: { type: 'ticket', id }, details: { messageId: sent.id } });
  });
  return ticketDetail(db, id, { staff: true });
}

export async function closeTicket(db: Db, actorId: number, id: number): Promise<TicketDetail> {
  // Interactive: the audit row follows only a close that matched; otherwise refuseChange reads why.
  await db.transaction(async (tx) => {
    const [ticket] = await tx
      .update(tickets)
      .set({ status: 'Closed', closedAt: sql`now()`, closedBy: actorId, adminUnread: false })
      .where(and(eq(tickets.id, id), ne(tickets.status, 'Closed')))
      .returning({ id: tickets.id });
    if (!ticket) await refuseChange(tx, id, undefined, 'This ticket is already closed.');
    await recordAudit(tx, { actorId, action: 'ticket.close', target: { type: 'ticket', id } });
  });
  return ticketDetail(db, id, { staff: true });
}

/** Takes the ticket for the calling administrator, from whoever had it. */
export async function assignTicketToSelf(db: Db, actorId: number, id: number): Promise<TicketDetail> {
  // Interactive: reads the assignee under the ticket's row lock, then decides.
  await db.transaction(async (tx) => {
    const [before] = await tx.select({ assignedTo: tickets.assignedTo }).from(tickets).where(eq(tickets.id, id)).for('no key update');
    if (!before) throw ticketNotFound();
    if (before.assignedTo === actorId) return;
    await tx.update(tickets).set({ assignedTo: actorId }).where(eq(tickets.id, id));
    await recordAudit(tx, { actorId, action: 'ticket.assign', target: { type: 'ticket', id }, details: { previousAssignee: before.assignedTo } });
  });
  return ticketDetail(db, id, { staff: true });
}

/** Tickets with a reply the user has not read yet (the user shell's badge). */
export async function userUnreadCount(db: DbOrTx, userId: number): Promise<number> {
  const [{ unread }] = await db
    .select({ unread: count() })
    .from(tickets)
    .where(and(eq(tickets.userId, userId), eq(tickets.userUnread, true)));
  return unread;
}

/** Tickets with a user's message no administrator has read yet (the admin sidebar's badge). */
export async function adminUnreadCount(db: DbOrTx): Promise<number> {
  const [{ unread }] = await db.select({ unread: count() }).from(tickets).where(eq(tickets.adminUnread, true));
  return unread;
}
