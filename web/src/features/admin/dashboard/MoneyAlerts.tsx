// The Money list, apart from catalogue warnings: open disputes (soonest deadline first, red when due within
// 48 hours or past it), the payment provider refusing the shop, the books not clean, chargebacks and refunds
// that left debt, commissions taken back. Each says what happened, its next step, and links where to take it.

import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/EmptyState';
import { SkeletonRows } from '@/components/Skeleton';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { formatAmount, formatCount, formatDateTime } from '@/lib/format';
import { cx } from '@/lib/hooks';
import type { MoneyAlert } from './api/get-dashboard';
import type { DashboardSectionProps } from './sectionProps';

/** A dispute due within this long (or past its deadline) is shown in red. */
export const URGENT_MS = 48 * 60 * 60 * 1000;

const KINDS: Record<MoneyAlert['kind'], { label: string; tone: 'red' | 'amber' | 'violet' | 'slate' }> = {
  dispute_open: { label: 'Open dispute', tone: 'amber' },
  payment_refusals: { label: 'Payment key refused', tone: 'red' },
  reconciliation: { label: 'Books not clean', tone: 'red' },
  chargeback_debt: { label: 'Debt left', tone: 'amber' },
  commission_reversed: { label: 'Commission taken back', tone: 'violet' },
};

/** 'Overdue', 'Due within 48 hours', or null when the deadline is further off (or there is none). */
function urgency(alert: MoneyAlert, now: number): string | null {
  if (alert.kind !== 'dispute_open' || alert.dueAt === null) return null;
  const left = Date.parse(alert.dueAt) - now;
  if (left <= 0) return 'Overdue';
  return left <= URGENT_MS ? 'Due within 48 hours' : null;
}

function AlertItem({ alert, currency, now }: { alert: MoneyAlert; currency: string; now: number }) {
  const urgent = urgency(alert, now);
  const kind = KINDS[alert.kind] ?? { label: alert.kind, tone: 'slate' as const };
  return (
    <li
      aria-label={alert.title}
      data-urgent={urgent ? 'true' : undefined}
      className={cx('rounded-xl border p-3 sm:p-4', urgent ? 'border-rose-300 bg-rose-50' : 'border-slate-200 bg-white')}
    >
      <div className="flex flex-wrap items-start justify-between gap-2">
        <div className="min-w-0 space-y-1">
          <div className="flex flex-wrap items-center gap-2">
            <Badge tone={urgent ? 'red' : kind.tone}>{kind.label}</Badge>
            {urgent ? <Badge tone="red">{urgent}</Badge> : null}
          </div>
          <p className={cx('font-medium', urgent ? 'text-rose-900' : 'text-slate-900')}>{alert.title}</p>
        </div>
        {alert.amount !== null ? <p className="font-semibold text-slate-900 tabular-nums">{formatAmount(alert.amount, currency)}</p> : null}
      </div>
      <p className="mt-1 text-sm break-words text-slate-600">{alert.detail}</p>
      {alert.dueAt !== null ? (
        <p className={cx('mt-1 text-sm', urgent ? 'font-medium text-rose-800' : 'text-slate-600')}>
          Deadline: <time dateTime={alert.dueAt}>{formatDateTime(alert.dueAt)}</time>
        </p>
      ) : null}
      <p className="mt-2 text-sm text-slate-800">
        <span className="font-medium">Next step:</span> {alert.nextStep}
      </p>
      <div className="mt-2 flex flex-wrap items-center justify-between gap-2">
        <span className="text-xs text-slate-500" title={formatDateTime(alert.createdAt)}>
          <TimeAgo at={alert.createdAt} />
          {alert.reference ? ` · ${alert.reference}` : ''}
        </span>
        <Link
          to={alert.link.to}
          state={alert.link.userId === null ? undefined : { userId: alert.link.userId }}
          className="btn-sm btn-secondary"
          aria-label={`${alert.link.label}: ${alert.title}`}
        >
          {alert.link.label}
        </Link>
      </div>
    </li>
  );
}

export function MoneyAlerts({ data, loading, currency }: DashboardSectionProps & { currency: string }) {
  // Older Workers answered without the list: nothing to show then, rather than a broken page.
  const money = data?.money;
  const items = money?.items ?? [];
  const now = Date.now();
  const urgent = items.filter((alert) => urgency(alert, now) !== null).length;
  return (
    <section aria-labelledby="money-title" className="space-y-3">
      <div>
        <h2 id="money-title" className="font-semibold text-slate-900">
          Money {money?.total ? <Badge tone={urgent ? 'red' : 'amber'}>{formatCount(money.total)}</Badge> : null}
        </h2>
        <p className="text-sm text-slate-600">
          Disputes and their deadlines, debts left by refunds and chargebacks, commissions taken back, the books and the payment keys, most urgent first.
        </p>
      </div>
      {loading ? (
        <SkeletonRows rows={2} className="h-24" />
      ) : items.length === 0 ? (
        <EmptyState icon="checkCircle" title="No money needs your attention" />
      ) : (
        <>
          <ul className="space-y-2">
            {items.map((alert) => (
              <AlertItem key={alert.id} alert={alert} currency={currency} now={now} />
            ))}
          </ul>
          {money && money.total > items.length ? (
            <p className="text-xs text-slate-500">
              Showing {formatCount(items.length)} of {formatCount(money.total)}; each kind lists its most urgent first.
            </p>
          ) : null}
        </>
      )}
    </section>
  );
}
