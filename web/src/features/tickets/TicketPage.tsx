// /user/tickets/:id: one ticket's thread with what it is about, and the reply box while it is not
// Closed. Opening it marks support's answers read, so the shell's badge is read again.

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { Link, useParams } from 'react-router-dom';
import { replyToTicket, ticketKeys, useTicket } from '@/api/tickets';
import { Icon } from '@/components/Icon';
import NotFound from '@/components/NotFound';
import { TicketFrame } from '@/components/tickets/TicketFrame';
import { TicketAbout, TicketReplyForm, TicketThread } from '@/components/tickets/TicketThread';
import { handleApiError } from '@/lib/api';
import { toast } from '@/lib/toast';

export default function TicketPage() {
  const id = Number(useParams().id);
  if (!Number.isSafeInteger(id) || id <= 0) return <NotFound />;
  return <Ticket id={id} />;
}

function Ticket({ id }: { id: number }) {
  const queryClient = useQueryClient();
  const q = useTicket(id);
  const readAt = q.dataUpdatedAt;
  useEffect(() => {
    if (readAt) void queryClient.invalidateQueries({ queryKey: ticketKeys.unread });
  }, [readAt, queryClient]);

  const reply = useMutation({
    mutationFn: (message: string) => replyToTicket(id, message),
    onSuccess: (res) => {
      toast.success(res.message || 'Reply sent');
      queryClient.setQueryData(ticketKeys.detail(id), res.data);
      void queryClient.invalidateQueries({ queryKey: ticketKeys.lists });
    },
    onError: (error) => handleApiError(error),
  });

  return (
    <TicketFrame query={q} listPath="/user/tickets" className="mx-auto max-w-3xl space-y-5">
      {(ticket) => (
        <>
          <TicketAbout
            ticket={ticket}
            action={
              ticket.order ? (
                <Link to={`/user/orders?search=${ticket.order.id}`} className="btn-sm btn-secondary">
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
