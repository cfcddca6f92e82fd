// /user/tickets/:id: one ticket's thread with what it is about, and the reply box while it is not
// Closed. Opening it marks support's answers read, so the shell's badge is read again.

import { Link } from 'react-router-dom';
import { replyToTicket, ticketKeys, useTicket } from '@/api/tickets';
import { Icon } from '@/components/Icon';
import { TicketFrame } from '@/components/tickets/TicketFrame';
import { TicketAbout, TicketReplyForm, TicketThread } from '@/components/tickets/TicketThread';
import { ticketRoute, useTicketChange, useUnreadRecount } from '@/components/tickets/ticketPage';

export default ticketRoute(Ticket);

function Ticket({ id }: { id: number }) {
  const q = useTicket(id);
  useUnreadRecount(q.dataUpdatedAt, ticketKeys.unread);
  const reply = useTicketChange((message: string) => replyToTicket(id, message), {
    detailKey: ticketKeys.detail(id),
    refresh: ticketKeys.lists,
    done: 'Reply sent',
  });

  return (
    <TicketFrame query={q} listPath="/user/tickets" className="mx-auto max-w-3xl space-y-5">
      {(ticket) => (
        <>
          <TicketAbout
            ticket={ticket}
            action={
              ticket.order ? (
                // "#9" is order 9 alone: a bare number would also list the orders whose link contains it.
                <Link to={`/user/orders?search=${encodeURIComponent(`#${ticket.order.id}`)}`} className="btn-sm btn-secondary">
                  View order
                </Link>
              ) : null
            }
          />
          <TicketThread messages={ticket.messages} viewer="user" />
          {ticket.status === 'Closed' ? (
            <div className="card flex flex-col items-start gap-3 p-4 sm:flex-row sm:items-center sm:justify-between">
              <p className="text-sm text-slate-600">This ticket is closed. Still need help? Open a new ticket.</p>
              <Link to="/user/tickets/new" className="btn btn-secondary">
                <Icon name="plus" className="h-4 w-4" /> New ticket
              </Link>
            </div>
          ) : (
            <section className="card p-4 sm:p-6" aria-label="Reply">
              <TicketReplyForm onSend={(message) => reply.mutateAsync(message)} sending={reply.isPending} />
            </section>
          )}
        </>
      )}
    </TicketFrame>
  );
}
