// /user/tickets: the user's support tickets, most recently active first, with each one's status,
// when its last message came and whether an answer is unread.
import { Link } from 'react-router-dom';
import { KIND_LABELS, useTickets } from '@/api/tickets';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { SkeletonRows } from '@/components/Skeleton';
import { TimeAgo } from '@/components/TimeAgo';
import { TicketStatusBadge, UnreadDot } from '@/components/tickets/badges';
import { getErrorMessage } from '@/lib/api';
import { formatDateTime } from '@/lib/format';
import { useUrlFilters } from '@/lib/hooks';

const LIMIT = 20;

const newTicketLink = (
  <Link to="/user/tickets/new" className="btn btn-primary">
    <Icon name="plus" className="h-4 w-4" /> New ticket
  </Link>
);

export default function TicketsPage() {
  const filters = useUrlFilters();
  const q = useTickets(filters.page, LIMIT);

  return (
    <div className="space-y-5">
      <PageHeader title="Support tickets" description="Ask us about an order, a deposit or anything else; we answer here." actions={newTicketLink} />
      {q.isError && !q.data ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : q.isPending ? (
        <SkeletonRows rows={4} className="h-20" />
      ) : q.data.data.length === 0 ? (
        <EmptyState icon="mail" title="No tickets yet" action={newTicketLink}>
          Something wrong with an order or a deposit? Open a ticket and tell us.
        </EmptyState>
      ) : (
        <>
          <ul className="space-y-3" aria-label="Tickets">
            {q.data.data.map((t) => (
              <li key={t.id}>
                <Link
                  to={`/user/tickets/${t.id}`}
                  className="card flex items-start gap-3 p-4 transition hover:border-brand-300 focus-visible:outline-2 focus-visible:outline-brand-600"
                >
                  <div className="min-w-0 flex-1">
                    <p className="flex items-center gap-2">
                      {t.unread ? <UnreadDot /> : null}
                      <span className={t.unread ? 'font-bold break-words text-slate-900' : 'font-semibold break-words text-slate-800'}>{t.subject}</span>
                    </p>
                    <p className="mt-1 text-xs text-slate-500">
                      #{t.id} · {KIND_LABELS[t.kind]}
                      {t.orderId !== null ? ` · Order #${t.orderId}` : ''} · Last message{' '}
                      <time dateTime={t.lastMessageAt} title={formatDateTime(t.lastMessageAt)}>
                        <TimeAgo at={t.lastMessageAt} />
                      </time>
                    </p>
                  </div>
                  <TicketStatusBadge status={t.status} />
                </Link>
              </li>
            ))}
          </ul>
          <Pagination page={filters.page} limit={LIMIT} total={q.data.total} onPage={(p) => filters.update({ page: String(p) })} disabled={q.isFetching} />
        </>
      )}
    </div>
  );
}
