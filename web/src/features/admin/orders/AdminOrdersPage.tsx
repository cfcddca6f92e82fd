// /admin/orders: every order, filtered by status, submission, user, service, provider and date
// (filters live in the URL); "Manage" opens the order with its manual actions.

import { ORDER_STATUSES, SUBMISSION_STATES } from '@vocabulary';

import { useState } from 'react';
import { DateFilter } from '@/components/DateFilter';
import { EmptyState } from '@/components/EmptyState';
import { FilterBar, IdFilter } from '@/components/FilterBar';
import { FilterSelect } from '@/components/FilterSelect';
import { Icon } from '@/components/Icon';
import { OrderChargeCell, OrderServiceCell } from '@/components/OrderCells';
import { PagedTable } from '@/components/PagedTable';
import { PageHeader } from '@/components/PageHeader';
import { CellText, type Column } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { Spinner } from '@/components/Spinner';
import { Badge, StatusBadge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { useProviders } from '@/features/admin/catalogue/api/get-providers';
import { useAdminChange } from '@/features/admin/useAdminChange';
import { UserCell } from '@/features/admin/users/UserCell';
import { formatAmount, formatCount, formatDateTime } from '@/lib/format';
import { useUrlFilters, useUrlSearch } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { AdminOrderDialog, SUBMISSION_LABELS } from './AdminOrderDialog';
import { type AdminOrderRow, useAdminOrders } from './api/get-orders';
import { syncOrdersNow } from './api/sync-orders';

const LIMIT = 25;
// A filter typed into the URL by hand that the Worker would refuse is left out instead.
const numeric = (text: string) => (/^\d+$/.test(text) ? text : undefined);
const oneOf = <T extends string>(value: string, allowed: ReadonlyArray<T>): T | undefined =>
  (allowed as ReadonlyArray<string>).includes(value) ? (value as T) : undefined;
const SUBMISSION_CHOICES = SUBMISSION_STATES.map((s) => ({ value: s, label: SUBMISSION_LABELS[s] }));

export default function AdminOrdersPage() {
  const currency = useCurrency();
  const filters = useUrlFilters();
  const [search, setSearch] = useUrlSearch(filters);
  const [openId, setOpenId] = useState<number | null>(null);
  const providerChoices = (useProviders().data ?? []).map((p) => ({ value: p.id, label: p.name }));
  const q = useAdminOrders({
    page: String(filters.page),
    limit: String(LIMIT),
    search: filters.get('search') || undefined,
    status: oneOf(filters.get('status'), ORDER_STATUSES),
    submission: oneOf(filters.get('submission'), SUBMISSION_STATES),
    providerId: numeric(filters.get('providerId')),
    userId: numeric(filters.get('userId')),
    serviceId: numeric(filters.get('serviceId')),
    from: filters.get('from') || undefined,
    to: filters.get('to') || undefined,
  });
  const empty = <EmptyState icon="list" title={filters.active ? 'No orders match these filters' : 'No orders yet'} />;

  const sync = useAdminChange(syncOrdersNow, 'Orders synced');

  const columns: Column<AdminOrderRow>[] = [
    {
      key: 'id',
      header: 'Order',
      cell: (o) => (
        <div className="whitespace-nowrap">
          <p className="font-medium text-slate-900">#{o.id}</p>
          <time className="text-xs text-slate-500" dateTime={o.created_at} title={formatDateTime(o.created_at)}>
            <TimeAgo at={o.created_at} />
          </time>
        </div>
      ),
    },
    { key: 'service', header: 'Service', mobile: 'title', cell: (o) => <OrderServiceCell name={o.serviceName} link={o.link} className="max-w-[16rem]" /> },
    {
      key: 'user',
      header: 'User',
      cell: (o) => <UserCell userId={o.userId} fullName={o.userFullName} email={o.userEmail} />,
    },
    { key: 'provider', header: 'Provider', hideBelow: '6xl', cell: (o) => <CellText text={o.providerName} className="max-w-[10rem]" /> },
    { key: 'quantity', header: 'Qty', className: 'md:text-right', cell: (o) => <span className="tabular-nums">{formatCount(o.quantity)}</span> },
    {
      key: 'charge',
      header: 'Charge',
      className: 'md:text-right',
      cell: (o) => <OrderChargeCell order={o} format={(amount) => formatAmount(amount, currency)} />,
    },
    {
      key: 'status',
      header: 'Status',
      cell: (o) => (
        <span className="inline-flex flex-col items-end gap-1 md:items-start">
          <StatusBadge status={o.status} />
          {o.submission !== 'accepted' && o.submission !== 'withdrawn' ? (
            <Badge tone={o.submission === 'unknown' || o.submission === 'rejected' ? 'red' : 'slate'} wrap>
              {SUBMISSION_LABELS[o.submission]}
            </Badge>
          ) : null}
        </span>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'md:text-right',
      cell: (o) => (
        <button type="button" className="btn-sm btn-secondary" onClick={() => setOpenId(o.id)} aria-label={`Manage order ${o.id}`}>
          Manage
        </button>
      ),
    },
  ];

  return (
    <div className="space-y-5">
      <PageHeader
        title="Orders"
        description="Every order, with the tools to resend, cancel with a refund, set a status or request a refill."
        actions={
          <button type="button" className="btn btn-secondary" onClick={() => sync.mutate()} disabled={sync.isPending}>
            {sync.isPending ? <Spinner className="h-4 w-4" label="" /> : <Icon name="refresh" className="h-4 w-4" />} Sync statuses now
          </button>
        }
      />
      <FilterBar filters={filters} className="grid-cols-2 items-end md:grid-cols-4" clearClassName="col-span-2 md:col-span-1">
        <SearchInput className="col-span-2" label="Search orders" placeholder="Order ID or link" value={search} onChange={setSearch} />
        <FilterSelect filters={filters} name="status" label="Status" allLabel="All statuses" choices={ORDER_STATUSES} />
        <FilterSelect filters={filters} name="submission" label="Submission" allLabel="Any submission" choices={SUBMISSION_CHOICES} />
        <FilterSelect filters={filters} name="providerId" label="Provider" allLabel="All providers" choices={providerChoices} />
        <IdFilter filters={filters} name="userId" label="User ID" />
        <IdFilter filters={filters} name="serviceId" label="Service ID" />
        <DateFilter label="Placed from" value={filters.get('from')} onChange={(from) => filters.update({ from })} />
        <DateFilter label="Placed before" value={filters.get('to')} onChange={(to) => filters.update({ to })} />
      </FilterBar>
      <PagedTable query={q} caption="Orders" columns={columns} paging={filters} empty={empty} />
      <AdminOrderDialog orderId={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
