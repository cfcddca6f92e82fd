// /admin/orders: every order, filtered by status, submission, user, service, provider and date
// (filters live in the URL); "Manage" opens the order with its manual actions.

import { ORDER_STATUSES, SUBMISSION_STATES } from '@schemas/orders';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { DateFilter } from '@/components/DateFilter';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { Pagination } from '@/components/Pagination';
import { CellText, type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { Spinner } from '@/components/Spinner';
import { Badge, StatusBadge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { useRefreshAdmin } from '@/features/admin/adminApi';
import { useProviders } from '@/features/admin/catalogue/api/get-providers';
import { getErrorMessage, handleApiError } from '@/lib/api';
import { formatAmount, formatCount, formatDateTime } from '@/lib/format';
import { useUrlFilters, useUrlSearch } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { toast } from '@/lib/toast';
import { AdminOrderDialog, SUBMISSION_LABELS } from './AdminOrderDialog';
import { type AdminOrderRow, useAdminOrders } from './api/get-orders';
import { syncOrdersNow } from './api/sync-orders';

const LIMIT = 25;
// A filter typed into the URL by hand that the Worker would refuse is left out instead.
const numeric = (text: string) => (/^\d+$/.test(text) ? text : undefined);
const oneOf = <T extends string>(value: string, allowed: ReadonlyArray<T>): T | undefined =>
  (allowed as ReadonlyArray<string>).includes(value) ? (value as T) : undefined;

export default function AdminOrdersPage() {
  const currency = useCurrency();
  const refresh = useRefreshAdmin();
  const filters = useUrlFilters();
  const [search, setSearch] = useUrlSearch(filters);
  const [openId, setOpenId] = useState<number | null>(null);
  const providers = useProviders();
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

  const sync = useMutation({
    mutationFn: syncOrdersNow,
    onSuccess: (res) => {
      toast.success(res.message || 'Orders synced');
      void refresh();
    },
    onError: (error) => handleApiError(error),
  });

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
    {
      key: 'service',
      header: 'Service',
      mobile: 'title',
      cell: (o) => (
        <div className="max-w-[16rem] min-w-0">
          <p className="line-clamp-2 font-medium break-words text-slate-900" title={o.serviceName}>
            {o.serviceName}
          </p>
          <a href={o.link} target="_blank" rel="noreferrer noopener" title={o.link} className="block truncate text-xs text-brand-700 hover:underline">
            {o.link}
          </a>
        </div>
      ),
    },
    {
      key: 'user',
      header: 'User',
      cell: (o) => (
        <Link to="/admin/manage-user" state={{ userId: o.userId }} className="block text-brand-700 hover:underline">
          <CellText text={o.userFullName} className="max-w-[11rem]" />
          <CellText text={o.userEmail} className="max-w-[11rem] text-xs text-slate-500" />
        </Link>
      ),
    },
    { key: 'provider', header: 'Provider', hideBelow: '6xl', cell: (o) => <CellText text={o.providerName} className="max-w-[10rem]" /> },
    { key: 'quantity', header: 'Qty', className: 'md:text-right', cell: (o) => <span className="tabular-nums">{formatCount(o.quantity)}</span> },
    {
      key: 'charge',
      header: 'Charge',
      className: 'md:text-right',
      cell: (o) => (
        <span className="whitespace-nowrap tabular-nums">
          {formatAmount(o.charge, currency)}
          {Number(o.refunded) > 0 ? <span className="block text-xs text-emerald-700">Refunded {formatAmount(o.refunded, currency)}</span> : null}
        </span>
      ),
    },
    {
      key: 'status',
      header: 'Status',
      cell: (o) => (
        <span className="inline-flex flex-col items-end gap-1 md:items-start">
          <StatusBadge status={o.status} />
          {o.submission !== 'accepted' && o.submission !== 'withdrawn' ? (
            <Badge tone={o.submission === 'unknown' || o.submission === 'rejected' ? 'red' : 'slate'}>{SUBMISSION_LABELS[o.submission]}</Badge>
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
      <section aria-label="Filters" className="card grid grid-cols-2 items-end gap-3 p-4 md:grid-cols-4">
        <div className="col-span-2">
          <SearchInput label="Search orders" placeholder="Order ID or link" value={search} onChange={setSearch} />
        </div>
        <select aria-label="Status" className="input" value={filters.get('status')} onChange={(e) => filters.update({ status: e.target.value })}>
          <option value="">All statuses</option>
          {ORDER_STATUSES.map((s) => (
            <option key={s} value={s}>
              {s}
            </option>
          ))}
        </select>
        <select aria-label="Submission" className="input" value={filters.get('submission')} onChange={(e) => filters.update({ submission: e.target.value })}>
          <option value="">Any submission</option>
          {SUBMISSION_STATES.map((s) => (
            <option key={s} value={s}>
              {SUBMISSION_LABELS[s]}
            </option>
          ))}
        </select>
        <select aria-label="Provider" className="input" value={filters.get('providerId')} onChange={(e) => filters.update({ providerId: e.target.value })}>
          <option value="">All providers</option>
          {(providers.data ?? []).map((p) => (
            <option key={p.id} value={p.id}>
              {p.name}
            </option>
          ))}
        </select>
        <input
          aria-label="User ID"
          className="input"
          inputMode="numeric"
          placeholder="User ID"
          value={filters.get('userId')}
          onChange={(e) => filters.update({ userId: e.target.value.replace(/\D/g, '') })}
        />
        <input
          aria-label="Service ID"
          className="input"
          inputMode="numeric"
          placeholder="Service ID"
          value={filters.get('serviceId')}
          onChange={(e) => filters.update({ serviceId: e.target.value.replace(/\D/g, '') })}
        />
        <DateFilter label="Placed from" value={filters.get('from')} onChange={(from) => filters.update({ from })} />
        <DateFilter label="Placed before" value={filters.get('to')} onChange={(to) => filters.update({ to })} />
        <button type="button" className="btn btn-ghost col-span-2 md:col-span-1" disabled={!filters.active} onClick={filters.clear}>
          Clear
        </button>
      </section>
      {q.isError && !q.data ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <ResponsiveTable
            caption="Orders"
            columns={columns}
            rows={q.data?.data}
            rowKey={(o) => o.id}
            loading={q.isPending}
            empty={<EmptyState icon="list" title={filters.active ? 'No orders match these filters' : 'No orders yet'} />}
          />
          <Pagination
            page={filters.page}
            limit={LIMIT}
            total={Number(q.data?.total ?? 0)}
            onPage={(p) => filters.update({ page: String(p) })}
            disabled={q.isFetching}
          />
        </>
      )}
      <AdminOrderDialog orderId={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}
