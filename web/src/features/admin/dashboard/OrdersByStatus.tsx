// Orders by status over the chosen period, each a bar against the most common status and a link
// to the orders list filtered to it.

import { Link } from 'react-router-dom';
import { Panel } from '@/components/Panel';
import { SkeletonRows } from '@/components/Skeleton';
import { StatusBadge, statusTone } from '@/components/StatusBadge';
import { formatCount } from '@/lib/format';
import { cx } from '@/lib/hooks';
import type { DashboardSectionProps } from './sectionProps';

const BAR_TONES = {
  green: 'bg-emerald-500',
  amber: 'bg-amber-400',
  blue: 'bg-sky-500',
  red: 'bg-rose-500',
  slate: 'bg-slate-400',
  violet: 'bg-violet-500',
} as const;

export function OrdersByStatus({ data, loading }: DashboardSectionProps) {
  const rows = data?.ordersByStatus ?? [];
  const most = Math.max(1, ...rows.map((row) => row.count));
  return (
    <Panel
      title="Orders by status"
      action={
        <Link to="/admin/orders" className="link text-sm">
          All orders
        </Link>
      }
    >
      {loading ? (
        <SkeletonRows rows={4} className="mt-3 h-7" />
      ) : rows.length === 0 ? (
        <p className="py-6 text-sm text-slate-500">No orders in this period.</p>
      ) : (
        <ul className="mt-3 space-y-2.5">
          {rows.map((row) => (
            <li key={row.status}>
              <Link
                to={`/admin/orders?status=${encodeURIComponent(row.status)}`}
                className="group block rounded-lg focus-visible:outline-2 focus-visible:outline-brand-600"
              >
                <div className="flex items-center justify-between gap-3 text-sm">
                  <StatusBadge status={row.status} />
                  <span className="font-semibold text-slate-900 tabular-nums group-hover:text-brand-700">{formatCount(row.count)}</span>
                </div>
                <div className="mt-1 h-1.5 rounded-full bg-slate-100">
                  <div className={cx('h-1.5 rounded-full', BAR_TONES[statusTone(row.status)])} style={{ width: `${(row.count / most) * 100}%` }} />
                </div>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
