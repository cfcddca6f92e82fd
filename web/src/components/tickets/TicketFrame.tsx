// What a ticket's page looks like on both sides before its own parts: the way back to the list,
// the 404, the error with a retry, the skeleton, and the header with subject, status and kind.

import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { Link } from 'react-router-dom';
import { KIND_LABELS, type TicketDetail } from '@/api/tickets';
import { ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import NotFound from '@/components/NotFound';
import { SkeletonRows } from '@/components/Skeleton';
import { getErrorMessage, isApiError } from '@/lib/api';
import { TicketStatusBadge } from './badges';

type FramedTicket = Pick<TicketDetail, 'id' | 'subject' | 'status' | 'kind'>;

export function TicketFrame<T extends FramedTicket>({
  query,
  listPath,
  meta,
  className = 'space-y-5',
  children,
}: {
  query: UseQueryResult<T>;
  listPath: string;
  /** Said after "Ticket #id · kind" in the header. */
  meta?: (ticket: T) => ReactNode;
  className?: string;
  children: (ticket: T) => ReactNode;
}) {
  if (query.isError && isApiError(query.error) && query.error.status === 404) return <NotFound />;
  const back = (
    <Link to={listPath} className="link inline-flex items-center gap-1 text-sm">
      <Icon name="arrowLeft" className="h-4 w-4" /> All tickets
    </Link>
  );
  if (query.isError && !query.data) {
    return (
      <div className="space-y-5">
        {back}
        <ErrorState message={getErrorMessage(query.error)} onRetry={() => void query.refetch()} />
      </div>
    );
  }
  if (!query.data) return <SkeletonRows rows={4} className="h-20" />;
  const ticket = query.data;
  return (
    <div className={className}>
      {back}
      <header className="space-y-2">
        <div className="flex flex-wrap items-start justify-between gap-2">
          <h1 className="page-title min-w-0 break-words">{ticket.subject}</h1>
          <TicketStatusBadge status={ticket.status} />
        </div>
        <p className="text-sm text-slate-500">
          Ticket #{ticket.id} · {KIND_LABELS[ticket.kind]}
          {meta ? <> · {meta(ticket)}</> : null}
        </p>
      </header>
      {children(ticket)}
    </div>
  );
}
