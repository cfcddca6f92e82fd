// What the background work last did: the catalogue and order syncs, payments awaiting
// confirmation, and unread catalogue warnings.

import { Link } from 'react-router-dom';
import { Icon } from '@/components/Icon';
import { Panel } from '@/components/Panel';
import { SkeletonRows } from '@/components/Skeleton';
import { TimeAgo } from '@/components/TimeAgo';
import { formatCount, formatDateTime } from '@/lib/format';
import type { DashboardSectionProps } from './sectionProps';

export function SyncStatus({ data, loading }: DashboardSectionProps) {
  const rows = [
    {
      label: 'Catalogue synced',
      value: data?.lastSync.catalogue ? <TimeAgo at={data.lastSync.catalogue} /> : 'Never',
      title: formatDateTime(data?.lastSync.catalogue),
    },
    {
      label: 'Open orders checked',
      value: data?.lastSync.orders ? <TimeAgo at={data.lastSync.orders} /> : 'No open orders at a provider',
      title: formatDateTime(data?.lastSync.orders),
    },
    { label: 'Payments awaiting confirmation', value: formatCount(data?.pendingPayments), title: '' },
  ];
  return (
    <Panel title="Background work">
      {loading ? (
        <SkeletonRows rows={3} className="mt-3 h-9" />
      ) : (
        <dl className="mt-3 space-y-3 text-sm">
          {rows.map((row) => (
            <div key={row.label} className="flex items-baseline justify-between gap-3">
              <dt className="text-slate-600">{row.label}</dt>
              <dd className="text-right font-medium text-slate-900" title={row.title || undefined}>
                {row.value}
              </dd>
            </div>
          ))}
        </dl>
      )}
      {data?.openWarnings ? (
        <Link
          to="/admin/services?tab=warnings"
          className="mt-4 flex items-center gap-2 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 hover:bg-amber-100"
        >
          <Icon name="alert" className="h-4 w-4 shrink-0" /> {formatCount(data.openWarnings)} unread catalogue{' '}
          {data.openWarnings === 1 ? 'warning' : 'warnings'}
        </Link>
      ) : null}
    </Panel>
  );
}
