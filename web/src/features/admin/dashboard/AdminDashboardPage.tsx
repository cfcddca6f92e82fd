// /admin and /admin/dashboard: money per day, week or month (deposits net of refunds and chargebacks, spend, provider cost,
// profit), the Money list (disputes, debts, commissions taken back, the books, the payment keys),
// orders by status, provider balances and health with warnings, stuck orders, what the sync and the
// payments are doing, and the latest entries of the audit log.

import type { DashboardPeriod } from '@schemas/admin';
import { type ReactNode, useState } from 'react';
import { Link } from 'react-router-dom';
import { ErrorState } from '@/components/EmptyState';
import { Icon, type IconName } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { Panel } from '@/components/Panel';
import { SegmentedControl } from '@/components/SegmentedControl';
import { SkeletonRows } from '@/components/Skeleton';
import { StatCard, type StatTone } from '@/components/StatCard';
import { AuditEntryList, AuditLogModal } from '@/features/admin/audit/AuditLog';
import { usePaymentSettings } from '@/features/admin/settings/api/get-payment-settings';
import { PaymentNotices, PaymentRefusalNotice } from '@/features/admin/settings/PaymentNotices';
import { getErrorMessage } from '@/lib/api';
import { formatAmount, formatCount, formatTotal } from '@/lib/format';
import { useCurrency } from '@/lib/settings';
import { type Dashboard, useDashboard } from './api/get-dashboard';
import { ActivityChart, MoneyChart } from './DashboardCharts';
import { MoneyAlerts } from './MoneyAlerts';
import { OrdersByStatus } from './OrdersByStatus';
import { ProviderBalances } from './ProviderBalances';
import { StuckOrders } from './StuckOrders';
import { SyncStatus } from './SyncStatus';

/** The charts' bars: one per day, week or month; the window shown follows (WINDOW). */
const GROUPINGS = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
] as const satisfies ReadonlyArray<{ value: DashboardPeriod; label: string }>;

const WINDOW: Record<DashboardPeriod, string> = { day: 'last 30 days', week: 'last 12 weeks', month: 'last 12 months' };
const GROUPED: Record<DashboardPeriod, string> = { day: 'by day', week: 'by week', month: 'by month' };

/**
 * The money tiles, one total each, each saying what it counts; profit turns red below zero and says its share of spend.
 * Deposits are card and bank-transfer payments less what refunds and chargebacks took back of them, and admin credits.
 */
function moneyTiles(totals: Dashboard['totals'] | undefined, currency: string) {
  const profitShare = totals && Number(totals.spend) > 0 ? `${((Number(totals.profit) / Number(totals.spend)) * 100).toFixed(1)}% of spend` : undefined;
  const depositsHint = totals ? (
    <>
      Card and bank transfer less {formatAmount(totals.depositsReversed, currency)} taken back by refunds and chargebacks, and admin credits
      <span className="block">
        Bank transfers {formatAmount(totals.bankTransfers, currency)} · admin credits {formatAmount(totals.adminCredits, currency)}
      </span>
    </>
  ) : (
    'Card and bank transfer net of refunds and chargebacks, and admin credits'
  );
  return [
    { total: 'deposits', icon: 'wallet', tone: 'emerald', label: 'Deposits', hint: depositsHint },
    { total: 'spend', icon: 'cart', tone: 'brand', label: 'Spend', hint: 'Order charges minus refunds' },
    { total: 'providerCost', icon: 'layers', tone: 'amber', label: 'Provider cost', hint: 'What the providers charge for it' },
    { total: 'profit', icon: 'chart', tone: Number(totals?.profit) < 0 ? 'rose' : 'sky', label: 'Profit', hint: profitShare ?? 'Spend minus provider cost' },
  ] as const satisfies ReadonlyArray<{ total: keyof Dashboard['totals']; icon: IconName; tone: StatTone; label: string; hint: ReactNode }>;
}

export default function AdminDashboardPage() {
  const currency = useCurrency();
  const [period, setPeriod] = useState<DashboardPeriod>('day');
  const [auditOpen, setAuditOpen] = useState(false);
  const dashboard = useDashboard(period);
  const payments = usePaymentSettings();
  const data = dashboard.data;
  const loading = dashboard.isPending;

  return (
    <div className="space-y-5">
      <PageHeader
        title="Dashboard"
        description={`Money and orders over the ${WINDOW[period]}, ${GROUPED[period]} (UTC).`}
        actions={
          <>
            <div className="flex items-center gap-2">
              {/* Beside "last 30 days" a bare Day / Week / Month reads as a choice of period; it chooses the bars. */}
              <span className="text-sm font-medium text-slate-600" aria-hidden="true">
                Group by:
              </span>
              <SegmentedControl label="Group by" hideLabel options={GROUPINGS} value={period} onChange={setPeriod} />
            </div>
            <Link to="/admin/transactions" className="btn btn-secondary">
              <Icon name="receipt" className="h-4 w-4" /> Transactions
            </Link>
          </>
        }
      />

      {data?.paymentRefusals ? <PaymentRefusalNotice alert={data.paymentRefusals} /> : null}
      {payments.data ? <PaymentNotices view={payments.data} linkToSettings /> : null}

      {dashboard.isError && !data ? (
        <ErrorState message={getErrorMessage(dashboard.error)} onRetry={() => void dashboard.refetch()} />
      ) : (
        <>
          <section aria-label="Totals" className="grid grid-cols-1 gap-3 sm:grid-cols-2 xl:grid-cols-4">
            {moneyTiles(data?.totals, currency).map(({ total, ...tile }) => (
              <StatCard key={total} {...tile} value={formatAmount(data?.totals[total], currency)} loading={loading} />
            ))}
          </section>

          <section aria-label="Now" className="grid grid-cols-2 gap-3 xl:grid-cols-4">
            <StatCard icon="list" label="Orders" value={formatCount(data?.totals.orders)} loading={loading} />
            <StatCard icon="users" tone="sky" label="New users" value={formatCount(data?.totals.newUsers)} loading={loading} />
            <StatCard
              icon="clock"
              tone={data?.stuckOrders.total ? 'rose' : 'slate'}
              label="Stuck orders"
              value={formatTotal(data?.stuckOrders.total ?? 0, data?.stuckOrders.totalCapped)}
              loading={loading}
            />
            <StatCard
              icon="card"
              tone={data?.pendingPayments ? 'amber' : 'slate'}
              label="Pending payments"
              value={formatCount(data?.pendingPayments)}
              loading={loading}
              hint={
                <Link to="/admin/pending-payments" className="link">
                  See the payments
                </Link>
              }
            />
          </section>

          <MoneyAlerts data={data} loading={loading} currency={currency} />

          <div className="grid grid-cols-1 gap-5 xl:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <MoneyChart data={data} period={period} currency={currency} loading={loading} />
            <ActivityChart data={data} period={period} loading={loading} />
          </div>

          <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
            <OrdersByStatus data={data} loading={loading} />
            <ProviderBalances data={data} loading={loading} />
          </div>

          <StuckOrders data={data} loading={loading} />

          <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,2fr)_minmax(0,1fr)]">
            <Panel
              title="Recent changes"
              action={
                <button type="button" className="btn-sm btn-secondary" onClick={() => setAuditOpen(true)}>
                  <Icon name="shield" className="h-3.5 w-3.5" /> Full audit log
                </button>
              }
            >
              <div className="mt-2">
                {loading ? (
                  <SkeletonRows rows={4} className="h-9" />
                ) : data?.recentAudit.length ? (
                  <AuditEntryList entries={data.recentAudit} />
                ) : (
                  <p className="py-6 text-sm text-slate-500">No changes recorded yet.</p>
                )}
              </div>
            </Panel>
            <SyncStatus data={data} loading={loading} />
          </div>
        </>
      )}
      <AuditLogModal open={auditOpen} onClose={() => setAuditOpen(false)} />
    </div>
  );
}
