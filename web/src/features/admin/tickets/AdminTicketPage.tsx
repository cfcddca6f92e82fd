// /admin/tickets/:id: one ticket as support handles it: the thread and the reply box, who asked
// (and their other tickets), the order (its dialog, one click) or deposit (the ledger, one click)
// it is about, and assigning to oneself and closing. Opening it marks the user's messages read.

import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Icon } from '@/components/Icon';
import { Spinner } from '@/components/Spinner';
import { TicketFrame } from '@/components/tickets/TicketFrame';
import { TicketAbout, TicketReplyForm, TicketThread } from '@/components/tickets/TicketThread';
import { ticketRoute, useTicketChange, useUnreadRecount } from '@/components/tickets/ticketPage';
import { AdminOrderDialog } from '@/features/admin/orders/AdminOrderDialog';
import { useAuth } from '@/lib/authContext';
import { formatDateTime } from '@/lib/format';
import { assignToMe } from './api/assign-ticket';
import { closeTicket } from './api/close-ticket';
import { type AdminTicketDetail, useAdminTicket } from './api/get-admin-ticket';
import { adminTicketKeys } from './api/keys';
import { replyAsSupport } from './api/reply-as-support';

export default ticketRoute(AdminTicket);

function AdminTicket({ id }: { id: number }) {
  const q = useAdminTicket(id);
  useUnreadRecount(q.dataUpdatedAt, adminTicketKeys.unread);
  const act = useTicketChange((run: () => ReturnType<typeof closeTicket>) => run(), {
    detailKey: adminTicketKeys.detail(id),
    refresh: adminTicketKeys.all,
    done: 'Done',
  });

  return (
    <TicketFrame query={q} listPath="/admin/tickets" meta={(ticket) => `opened ${formatDateTime(ticket.created_at)}`}>
      {(ticket) => (
        <div className="flex flex-col gap-5 lg:flex-row lg:items-start">
          <div className="min-w-0 flex-1 space-y-5">
            <TicketThread messages={ticket.messages} viewer="staff" />
            <section className="card p-4 sm:p-6" aria-label="Reply">
              <TicketReplyForm
                label={ticket.status === 'Closed' ? 'Reply (opens the ticket again)' : 'Your reply'}
                onSend={(message) => act.mutateAsync(() => replyAsSupport(id, message))}
                sending={act.isPending}
              />
            </section>
          </div>
          <TicketSide
            ticket={ticket}
            busy={act.isPending}
            onAssign={() => act.mutate(() => assignToMe(id))}
            onClose={() => act.mutate(() => closeTicket(id))}
          />
        </div>
      )}
    </TicketFrame>
  );
}

function TicketSide({ ticket, busy, onAssign, onClose }: { ticket: AdminTicketDetail; busy: boolean; onAssign: () => void; onClose: () => void }) {
  const { user: me } = useAuth();
  const [orderOpen, setOrderOpen] = useState(false);
  const mine = ticket.assignedTo !== null && String(ticket.assignedTo.id) === String(me?.id);
  return (
    <aside className="space-y-4 lg:sticky lg:top-20 lg:w-80" aria-label="Ticket details">
      <section className="card space-y-1 p-4 text-sm">
        <h2 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">User</h2>
        <p className="font-semibold break-words text-slate-900">{ticket.user.fullName}</p>
        <p className="break-all text-slate-600">{ticket.user.email}</p>
        <p className="flex flex-wrap gap-x-4 gap-y-1 pt-1">
          <Link to="/admin/manage-user" state={{ userId: ticket.user.id }} className="link">
            Manage user
          </Link>
          <Link to={`/admin/tickets?userId=${ticket.user.id}`} className="link">
            Their tickets
          </Link>
        </p>
      </section>
      <TicketAbout
        ticket={ticket}
        action={
          ticket.order ? (
            <button type="button" className="btn-sm btn-secondary" onClick={() => setOrderOpen(true)}>
              Open order #{ticket.order.id}
            </button>
          ) : ticket.payment ? (
            <Link to={`/admin/transactions?search=${encodeURIComponent(ticket.payment.reference)}`} className="btn-sm btn-secondary">
              Find in transactions
            </Link>
          ) : null
        }
      />
      <section className="card space-y-3 p-4 text-sm">
        <h2 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">Assigned</h2>
        <p className="text-slate-800">
          {ticket.assignedTo ? (mine ? 'You' : (ticket.assignedTo.fullName ?? `Administrator #${ticket.assignedTo.id}`)) : 'Nobody yet'}
        </p>
        <div className="flex flex-wrap gap-2">
          {mine ? null : (
            <button type="button" className="btn-sm btn-secondary" disabled={busy} onClick={onAssign}>
              <Icon name="user" className="h-4 w-4" /> Assign to me
            </button>
          )}
          {ticket.status === 'Closed' ? (
            <p className="text-slate-500">Closed {ticket.closedAt ? formatDateTime(ticket.closedAt) : ''}</p>
          ) : (
            <button type="button" className="btn-sm btn-secondary" disabled={busy} onClick={onClose}>
              {busy ? <Spinner label="" className="h-4 w-4" /> : <Icon name="check" className="h-4 w-4" />} Close ticket
            </button>
          )}
        </div>
      </section>
      {ticket.order ? <AdminOrderDialog orderId={orderOpen ? ticket.order.id : null} onClose={() => setOrderOpen(false)} /> : null}
    </aside>
  );
}
