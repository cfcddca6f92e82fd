// /user/orders: status badges (with a refill or cancel the provider has not answered yet), status filter, search,
// pagination, polling while orders are open or a refill waits, refill/cancel where the server allows it, and what each order
// costs, delivered and refunded, with why (OrderFacts.tsx).

import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ORDER_STATUSES, type OrderStatus } from '@vocabulary';
import { Link } from 'react-router-dom';
import Swal from 'sweetalert2';
import { type Order, orderKeys, useOrders } from '@/api/orders';
import { walletKeys } from '@/api/wallet';
import { FilterSelect } from '@/components/FilterSelect';
import { Icon } from '@/components/Icon';
import { type EmptyListWords, ListEmptyState } from '@/components/ListEmptyState';
import { OrderServiceCell, OrderStatusCell } from '@/components/OrderCells';
import { PagedTable } from '@/components/PagedTable';
import { PageHeader } from '@/components/PageHeader';
import type { Column } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { Spinner } from '@/components/Spinner';
import { TimeAgo } from '@/components/TimeAgo';
import { handleApiError, isApiError } from '@/lib/api';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { formatAmount, formatCount, formatDate, formatDateTime } from '@/lib/format';
import { useUrlFilters, useUrlSearch } from '@/lib/hooks';
import { toast } from '@/lib/toast';
import { cancelOrder } from './api/cancel-order';
import { refillOrder } from './api/refill-order';
import { deliveredText, OrderCharge, OrderNotes, OrderQuantity, perRunText } from './OrderFacts';

const LIMIT = 20;
const EMPTY_WORDS: EmptyListWords = {
  none: { title: 'No orders yet', text: 'Orders you place will appear here with their live status.' },
  noMatch: { title: 'No orders match', text: 'Try another status or search.' },
};

export default function OrdersPage() {
  const money = useDisplayCurrency();
  const queryClient = useQueryClient();
  const filters = useUrlFilters();
  const [search, setSearch] = useUrlSearch(filters);
  // A status the link made up is still sent: the server's refusal says which ones it knows.
  const status = filters.get('status') as OrderStatus;
  const q = useOrders({ page: filters.page, limit: LIMIT, status: status || undefined, search: filters.get('search') || undefined });
  // It polls while orders are open: the pager waits only for another page, not for each poll.
  const pagerDisabled = q.isFetching && q.isPlaceholderData;
  const empty = (
    <ListEmptyState icon="list" filtered={filters.active} {...EMPTY_WORDS}>
      <Link to="/user/create-order" className="btn btn-primary">
        Place your first order
      </Link>
    </ListEmptyState>
  );

  const action = useMutation({
    mutationFn: async ({ kind, order }: { kind: 'refill' | 'cancel'; order: Order }) =>
      (kind === 'refill' ? await refillOrder(order.id) : await cancelOrder(order.id)).message,
    onSuccess: (message, { kind }) => {
      toast.success(message || (kind === 'refill' ? 'Refill requested' : 'Cancellation requested'));
      void queryClient.invalidateQueries({ queryKey: orderKeys.all });
      void queryClient.invalidateQueries({ queryKey: walletKeys.all });
    },
    onError: (error) => {
      handleApiError(error);
      // A queued order the provider was sent meanwhile (409) shows as it is now.
      if (isApiError(error) && error.status === 409) void queryClient.invalidateQueries({ queryKey: orderKeys.all });
    },
  });

  const onCancel = async (order: Order) => {
    const answer = await Swal.fire({
      titleText: 'Cancel this order?',
      text:
        order.status === 'Pending Submission'
          ? `Order #${order.id} has not reached the provider yet: it is cancelled and ${formatAmount(order.charge)} goes back to your wallet at once.`
          : `Order #${order.id} will be cancelled and any unused amount refunded to your wallet.`,
      icon: 'warning',
      showCancelButton: true,
      confirmButtonText: 'Yes, cancel it',
      cancelButtonText: 'No',
      confirmButtonColor: '#e11d48',
    });
    if (answer.isConfirmed) action.mutate({ kind: 'cancel', order });
  };

  const busyId = action.isPending ? action.variables?.order.id : null;

  const columns: Column<Order>[] = [
    { key: 'id', header: 'ID', cell: (o) => <span className="font-medium text-slate-900">#{o.id}</span> },
    { key: 'service', header: 'Service', mobile: 'title', cell: (o) => <OrderServiceCell name={o.serviceName} link={o.link} className="max-w-xs" /> },
    {
      key: 'status',
      header: 'Status',
      cell: (o) => (
        <div className="max-w-64 space-y-1.5">
          <OrderStatusCell order={o} className="items-start" />
          <OrderNotes order={o} />
        </div>
      ),
    },
    { key: 'quantity', header: 'Quantity', className: 'md:text-right', cell: (o) => <OrderQuantity order={o} /> },
    { key: 'charge', header: 'Charge', className: 'md:text-right', cell: (o) => <OrderCharge order={o} format={money.format} className="block max-w-48" /> },
    {
      key: 'progress',
      header: 'Delivered',
      className: 'md:text-right',
      cell: (o) => (
        <span className="text-slate-600 tabular-nums">
          {deliveredText(o)}
          {o.startCount != null ? <span className="block text-xs text-slate-500">Start {formatCount(o.startCount)}</span> : null}
        </span>
      ),
    },
    {
      key: 'date',
      header: 'Date',
      cell: (o) => (
        <time dateTime={o.created_at} title={formatDateTime(o.created_at)} className="whitespace-nowrap">
          <TimeAgo at={o.created_at} />
        </time>
      ),
    },
    {
      key: 'actions',
      header: 'Actions',
      className: 'md:text-right',
      cell: (o) =>
        o.canRefill || o.canCancel ? (
          <div className="flex justify-end gap-2">
            {o.canRefill ? (
              <button
                type="button"
                className="btn-sm btn-secondary"
                disabled={busyId === o.id}
                onClick={() => action.mutate({ kind: 'refill', order: o })}
                aria-label={`Refill order ${o.id}`}
                title={o.refillUntil ? `Refill available until ${formatDate(o.refillUntil)}` : undefined}
              >
                {busyId === o.id && action.variables?.kind === 'refill' ? (
                  <Spinner className="h-3.5 w-3.5" label="" />
                ) : (
                  <Icon name="refresh" className="h-3.5 w-3.5" />
                )}
                Refill
              </button>
            ) : null}
            {o.canCancel ? (
              <button
                type="button"
                className="btn-sm btn-secondary text-rose-700"
                disabled={busyId === o.id}
                onClick={() => void onCancel(o)}
                aria-label={`Cancel order ${o.id}`}
              >
                Cancel
              </button>
            ) : null}
          </div>
        ) : (
          <span className="text-slate-500">—</span>
        ),
    },
  ];

  const actionsCell = columns[columns.length - 1].cell;
  const orderCard = (o: Order) => (
    <div className="space-y-2">
      <div className="flex items-start justify-between gap-3">
        <p className="line-clamp-2 font-medium text-slate-900">{o.serviceName}</p>
        <OrderStatusCell order={o} className="shrink-0 items-end" />
      </div>
      <a href={o.link} target="_blank" rel="noreferrer noopener" className="block truncate text-sm text-brand-700 hover:underline">
        {o.link}
      </a>
      <div className="flex items-start justify-between gap-3 text-sm">
        <div className="min-w-0 text-slate-500">
          <p>
            #{o.id} · <span className="font-medium text-slate-900 tabular-nums">{formatCount(o.total)}</span>
            {perRunText(o) ? ` (${perRunText(o)})` : ''} ·{' '}
            <time dateTime={o.created_at}>
              <TimeAgo at={o.created_at} />
            </time>
          </p>
          <p>
            Delivered {deliveredText(o)}
            {o.startCount != null ? ` · Start ${formatCount(o.startCount)}` : ''}
          </p>
        </div>
        <OrderCharge order={o} format={money.format} className="max-w-[45%] shrink-0 text-right" />
      </div>
      <OrderNotes order={o} />
      {o.canRefill || o.canCancel ? <div className="border-t border-slate-100 pt-2">{actionsCell(o)}</div> : null}
    </div>
  );

  return (
    <div className="space-y-5">
      <PageHeader
        title="Orders"
        description={
          <span className="flex items-center gap-2">
            Live status of everything you ordered.
            {q.isFetching && !q.isPending ? <Spinner className="h-3.5 w-3.5" label="Refreshing" /> : null}
          </span>
        }
        actions={
          <Link to="/user/create-order" className="btn btn-primary">
            <Icon name="plus" className="h-4 w-4" /> New order
          </Link>
        }
      />

      <section aria-label="Filters" className="card grid grid-cols-1 gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_14rem]">
        <SearchInput label="Search orders" placeholder="Search by order ID, link or service" value={search} onChange={setSearch} />
        <FilterSelect filters={filters} name="status" label="Status" allLabel="All statuses" choices={ORDER_STATUSES} />
      </section>

      <PagedTable query={q} caption="Orders" columns={columns} renderCard={orderCard} paging={filters} empty={empty} pagerDisabled={pagerDisabled} />
    </div>
  );
}
