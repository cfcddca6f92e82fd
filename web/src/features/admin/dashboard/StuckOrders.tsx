// Orders open much longer than their service usually takes, oldest first, each linking to the order.

import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/EmptyState';
import { type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Badge, StatusBadge } from '@/components/StatusBadge';
import { formatDateTime, formatDuration, formatTotal } from '@/lib/format';
import type { Dashboard } from './api/get-dashboard';
import type { DashboardSectionProps } from './sectionProps';

type StuckOrder = Dashboard['stuckOrders']['data'][number];

export function StuckOrders({ data, loading }: DashboardSectionProps) {
  const columns: Column<StuckOrder>[] = [
    {
      key: 'id',
      header: 'Order',
      cell: (o) => (
        <Link className="link" to={`/admin/orders?search=${o.id}`}>
          #{o.id}
        </Link>
      ),
    },
    { key: 'service', header: 'Service', mobile: 'title', cell: (o) => <span className="line-clamp-2">{o.serviceName}</span> },
    { key: 'user', header: 'User', cell: (o) => <span className="break-all">{o.userEmail}</span> },
    { key: 'provider', header: 'Provider', cell: (o) => o.providerName },
    { key: 'status', header: 'Status', cell: (o) => <StatusBadge status={o.status} /> },
    {
      key: 'open',
      header: 'Open for',
      cell: (o) => (
        <time dateTime={o.openSince} title={formatDateTime(o.openSince)}>
          {formatDuration((Date.now() - new Date(o.openSince).getTime()) / 1000)}
        </time>
      ),
    },
    { key: 'usual', header: 'Usually takes', cell: (o) => formatDuration(o.expectedSeconds) },
  ];
  return (
    <section aria-labelledby="stuck-title" className="space-y-3">
      <div>
        <h2 id="stuck-title" className="font-semibold text-slate-900">
          Stuck orders {data?.stuckOrders.total ? <Badge tone="red">{formatTotal(data.stuckOrders.total, data.stuckOrders.totalCapped)}</Badge> : null}
        </h2>
        <p className="text-sm text-slate-600">Open for more than twice their service&apos;s usual time (a day when that is not known yet), oldest first.</p>
      </div>
      <ResponsiveTable
        caption="Stuck orders"
        columns={columns}
        rows={data?.stuckOrders.data}
        rowKey={(o) => o.id}
        loading={loading}
        skeletonRows={3}
        empty={<EmptyState icon="checkCircle" title="Nothing is stuck" />}
      />
    </section>
  );
}
