// /admin/tickets: every support ticket, most recently active first, filtered by status, user and
// text (filters live in the URL); unread ones carry a dot, and each opens its thread.

import { TICKET_STATUSES, type TicketStatus } from '@vocabulary';

import { Link } from 'react-router-dom';
import { KIND_LABELS } from '@/api/tickets';
import { EmptyState } from '@/components/EmptyState';
import { FilterBar, IdFilter } from '@/components/FilterBar';
import { FilterSelect } from '@/components/FilterSelect';
import { PagedTable } from '@/components/PagedTable';
import { PageHeader } from '@/components/PageHeader';
import { CellText, type Column } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { TicketStatusBadge, UnreadDot } from '@/components/tickets/badges';
import { formatDateTime, timeAgo } from '@/lib/format';
import { useUrlFilters, useUrlSearch } from '@/lib/hooks';
import { type AdminTicket, useAdminTickets } from './api/get-admin-tickets';

const LIMIT = 25;
const isStatus = (text: string): text is TicketStatus => (TICKET_STATUSES as readonly string[]).includes(text);

export default function AdminTicketsPage() {
  const filters = useUrlFilters();
  const [search, setSearch] = useUrlSearch(filters);
  const status = filters.get('status');
  const userId = filters.get('userId');
  const q = useAdminTickets({
    page: filters.page,
    limit: LIMIT,
    status: isStatus(status) ? status : undefined,
    userId: /^\d+$/.test(userId) ? Number(userId) : undefined,
    search: filters.get('search') || undefined,
  });
  const empty = <EmptyState icon="mail" title={filters.active ? 'No tickets match these filters' : 'No tickets yet'} />;

  const columns: Column<AdminTicket>[] = [
    {
      key: 'subject',
      header: 'Ticket',
      mobile: 'title',
      cell: (t) => (
        <div className="max-w-[22rem] min-w-0">
          <p className="flex items-center gap-2">
            {t.unread ? <UnreadDot /> : null}
            <span className={t.unread ? 'line-clamp-2 font-bold break-words text-slate-900' : 'line-clamp-2 font-medium break-words text-slate-900'}>
              {t.subject}
            </span>
          </p>
          <p className="text-xs text-slate-500">
            #{t.id} · {KIND_LABELS[t.kind]}
            {t.orderId !== null ? ` · Order #${t.orderId}` : t.paymentReference ? ' · Deposit' : ''}
          </p>
        </div>
      ),
    },
    {
      key: 'user',
      header: 'User',
      cell: (t) => (
        <button
          type="button"
          className="block text-left text-brand-700 hover:underline"
          onClick={() => filters.update({ userId: String(t.user.id) })}
          title="Only this user's tickets"
        >
          <CellText text={t.user.fullName} className="max-w-[11rem]" />
          <CellText text={t.user.email} className="max-w-[11rem] text-xs text-slate-500" />
        </button>
      ),
    },
    { key: 'status', header: 'Status', cell: (t) => <TicketStatusBadge status={t.status} /> },
    {
      key: 'assigned',
      header: 'Assigned',
      hideBelow: '5xl',
      cell: (t) => <CellText text={t.assignedTo ? (t.assignedTo.fullName ?? `#${t.assignedTo.id}`) : '—'} className="max-w-[9rem]" />,
    },
    {
      key: 'last',
      header: 'Last message',
      cell: (t) => (
        <time className="whitespace-nowrap" dateTime={t.lastMessageAt} title={formatDateTime(t.lastMessageAt)}>
          {timeAgo(t.lastMessageAt)}
        </time>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'md:text-right',
      cell: (t) => (
        <Link to={`/admin/tickets/${t.id}`} className="btn-sm btn-secondary" aria-label={`Open ticket ${t.id}`}>
          Open
        </Link>
      ),
    },
  ];

  return (
    <div className="space-y-5">
      <PageHeader title="Tickets" description="Users' questions about their orders and deposits. Unread ones have a dot." />
      <FilterBar filters={filters} className="grid-cols-2 items-end md:grid-cols-4" clearClassName="col-span-2 md:col-span-1">
        <SearchInput className="col-span-2" label="Search tickets" placeholder="Subject, user name or email" value={search} onChange={setSearch} />
        <FilterSelect filters={filters} name="status" label="Status" allLabel="All statuses" choices={TICKET_STATUSES} />
        <IdFilter filters={filters} name="userId" label="User ID" />
      </FilterBar>
      <PagedTable query={q} caption="Tickets" columns={columns} paging={filters} empty={empty} />
    </div>
  );
}
