// /admin and /admin/dashboard: money per day, week or month (deposits, spend, provider cost,
// profit), orders by status, provider balances and health with warnings, stuck orders, what the
// sync and the payments are doing, and the latest entries of the audit log.

import type { DashboardPeriod } from '@schemas/admin';
import { useState } from 'react';
import { Link } from 'react-router-dom';
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon, type IconName } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { Panel } from '@/components/Panel';
import { type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { SegmentedControl } from '@/components/SegmentedControl';
import { Skeleton, SkeletonRows } from '@/components/Skeleton';
import { StatCard, type StatTone } from '@/components/StatCard';
import { Badge, StatusBadge, statusTone } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { AuditEntryList, AuditLogModal } from '@/features/admin/audit/AuditLog';
import { usePaymentSettings } from '@/features/admin/settings/api/get-payment-settings';
import { PaymentNotices, PaymentRefusalNotice } from '@/features/admin/settings/PaymentNotices';
import { getErrorMessage } from '@/lib/api';
import { abbreviateNumber, formatAmount, formatCount, formatDateTime, formatDuration } from '@/lib/format';
import { cx } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { type Dashboard, useDashboard } from './api/get-dashboard';

const PERIODS = [
  { value: 'day', label: 'Day' },
  { value: 'week', label: 'Week' },
  { value: 'month', label: 'Month' },
] as const satisfies ReadonlyArray<{ value: DashboardPeriod; label: string }>;

const WINDOW: Record<DashboardPeriod, string> = { day: 'last 30 days', week: 'last 12 weeks', month: 'last 12 months' };

const COLORS = { deposits: '#10b981', spend: '#4f46e5', providerCost: '#f59e0b', profit: '#0f172a', orders: '#4f46e5', newUsers: '#0ea5e9' };

/** Buckets are UTC dates ('2024-03-04'): 'Mar 4' for days and weeks, 'Mar 2024' for months. */
function bucketLabel(bucket: string, period: DashboardPeriod): string {
  const date = new Date(`${bucket}T00:00:00Z`);
  return period === 'month'
    ? date.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
    : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

/** The money tiles, one total each; profit turns red below zero and says its share of spend. */
function moneyTiles(totals: Dashboard['totals'] | undefined) {
  const profitShare = totals && Number(totals.spend) > 0 ? `${((Number(totals.profit) / Number(totals.spend)) * 100).toFixed(1)}% of spend` : undefined;
  return [
    { total: 'deposits', icon: 'wallet', tone: 'emerald', label: 'Deposits', hint: 'Card payments and admin credits' },
    { total: 'spend', icon: 'cart', tone: 'brand', label: 'Spend', hint: 'Order charges minus refunds' },
    { total: 'providerCost', icon: 'layers', tone: 'amber', label: 'Provider cost', hint: 'What the providers charge for it' },
    { total: 'profit', icon: 'chart', tone: Number(totals?.profit) < 0 ? 'rose' : 'sky', label: 'Profit', hint: profitShare ?? 'Spend minus provider cost' },
  ] as const satisfies ReadonlyArray<{ total: keyof Dashboard['totals']; icon: IconName; tone: StatTone; label: string; hint: string }>;
}

const axis = { tick: { fontSize: 11, fill: '#64748b' }, tickLine: false, axisLine: false } as const;

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
        description={`Money and orders, ${WINDOW[period]} (UTC).`}
        actions={
          <>
            <SegmentedControl label="Period" hideLabel options={PERIODS} value={period} onChange={setPeriod} />
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
            {moneyTiles(data?.totals).map(({ total, ...tile }) => (
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
              value={formatCount(data?.stuckOrders.total)}
              loading={loading}
            />
            <StatCard
              icon="card"
              tone={data?.pendingPayments ? 'amber' : 'slate'}
              label="Pending payments"
              value={formatCount(data?.pendingPayments)}
              loading={loading}
            />
          </section>

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

interface SectionProps {
  data: Dashboard | undefined;
  loading: boolean;
}

function ChartCard({ title, children, loading, summary }: { title: string; children: React.ReactElement; loading: boolean; summary: string }) {
  return (
    <Panel title={title}>
      <div className="mt-4 h-64">
        {loading ? (
          <Skeleton className="h-full w-full rounded-xl" />
        ) : (
          <ResponsiveContainer width="100%" height="100%">
            {children}
          </ResponsiveContainer>
        )}
      </div>
      <p className="sr-only">{summary}</p>
    </Panel>
  );
}

function MoneyChart({ data, period, currency, loading }: SectionProps & { period: DashboardPeriod; currency: string }) {
  const rows = (data?.series ?? []).map((row) => ({
    label: bucketLabel(row.bucket, period),
    deposits: Number(row.deposits),
    spend: Number(row.spend),
    providerCost: Number(row.providerCost),
    profit: Number(row.profit),
  }));
  const names: Record<string, string> = { deposits: 'Deposits', spend: 'Spend', providerCost: 'Provider cost', profit: 'Profit' };
  return (
    <ChartCard
      title="Money"
      loading={loading}
      summary={
        data
          ? `Deposits ${formatAmount(data.totals.deposits, currency)}, spend ${formatAmount(data.totals.spend, currency)}, provider cost ${formatAmount(data.totals.providerCost, currency)}, profit ${formatAmount(data.totals.profit, currency)}.`
          : ''
      }
    >
      <ComposedChart data={rows} margin={{ top: 5, right: 8, bottom: 0, left: 4 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" {...axis} interval="preserveStartEnd" minTickGap={16} />
        {/* 'auto' sizes the axis to its longest label as drawn, so "800.0K" is never cut to look like "300.0K". */}
        <YAxis {...axis} tickFormatter={(v: number) => abbreviateNumber(v)} width="auto" />
        <Tooltip formatter={(value, name) => [formatAmount(Number(value), currency), names[String(name)] ?? String(name)]} labelStyle={{ color: '#0f172a' }} />
        <Legend formatter={(name: string) => names[name] ?? name} wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="deposits" fill={COLORS.deposits} radius={[3, 3, 0, 0]} maxBarSize={18} />
        <Bar dataKey="spend" fill={COLORS.spend} radius={[3, 3, 0, 0]} maxBarSize={18} />
        <Bar dataKey="providerCost" fill={COLORS.providerCost} radius={[3, 3, 0, 0]} maxBarSize={18} />
        <Line type="monotone" dataKey="profit" stroke={COLORS.profit} strokeWidth={2} dot={false} />
      </ComposedChart>
    </ChartCard>
  );
}

function ActivityChart({ data, period, loading }: SectionProps & { period: DashboardPeriod }) {
  const rows = (data?.series ?? []).map((row) => ({ label: bucketLabel(row.bucket, period), orders: row.orders, newUsers: row.newUsers }));
  const names: Record<string, string> = { orders: 'Orders', newUsers: 'New users' };
  return (
    <ChartCard title="Orders and new users" loading={loading} summary={data ? `${data.totals.orders} orders and ${data.totals.newUsers} new users.` : ''}>
      <BarChart data={rows} margin={{ top: 5, right: 8, bottom: 0, left: 4 }}>
        <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
        <XAxis dataKey="label" {...axis} interval="preserveStartEnd" minTickGap={16} />
        <YAxis {...axis} allowDecimals={false} tickFormatter={(v: number) => abbreviateNumber(v)} width="auto" />
        <Tooltip formatter={(value, name) => [formatCount(Number(value)), names[String(name)] ?? String(name)]} labelStyle={{ color: '#0f172a' }} />
        <Legend formatter={(name: string) => names[name] ?? name} wrapperStyle={{ fontSize: 12 }} />
        <Bar dataKey="orders" fill={COLORS.orders} radius={[3, 3, 0, 0]} maxBarSize={14} />
        <Bar dataKey="newUsers" fill={COLORS.newUsers} radius={[3, 3, 0, 0]} maxBarSize={14} />
      </BarChart>
    </ChartCard>
  );
}

const BAR_TONES = {
  green: 'bg-emerald-500',
  amber: 'bg-amber-400',
  blue: 'bg-sky-500',
  red: 'bg-rose-500',
  slate: 'bg-slate-400',
  violet: 'bg-violet-500',
} as const;

function OrdersByStatus({ data, loading }: SectionProps) {
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

function ProviderBalances({ data, loading }: SectionProps) {
  const providers = data?.providers ?? [];
  const low = providers.filter((p) => p.lowBalance).length;
  const health = new Map((data?.providerHealth ?? []).map((h) => [h.id, h]));
  const unhealthy = [...health.values()].filter((h) => h.unhealthySince !== null);
  const needingAttention = [...health.values()].reduce((total, h) => total + h.needsAttention, 0);
  return (
    <Panel
      title="Provider balances"
      action={
        <Link to="/admin/services?tab=providers" className="link text-sm">
          Manage providers
        </Link>
      }
    >
      {low > 0 ? (
        <p role="alert" className="mt-3 flex items-center gap-2 rounded-xl bg-rose-50 px-3 py-2 text-sm text-rose-800">
          <Icon name="alert" className="h-4 w-4 shrink-0" /> {low === 1 ? 'One provider is' : `${low} providers are`} below the low-balance alert. Orders may
          fail until it is topped up.
        </p>
      ) : null}
      {unhealthy.length > 0 ? (
        <p role="alert" className="mt-3 flex items-center gap-2 rounded-xl bg-rose-50 px-3 py-2 text-sm text-rose-800">
          <Icon name="alert" className="h-4 w-4 shrink-0" /> {unhealthy.map((h) => h.name).join(', ')} {unhealthy.length === 1 ? 'is' : 'are'} not answering
          readably. Their orders wait; everything else goes on.
        </p>
      ) : null}
      {needingAttention > 0 ? (
        <Link
          to="/admin/services?tab=warnings"
          className="mt-3 flex items-center gap-2 rounded-xl bg-amber-50 px-3 py-2 text-sm text-amber-900 hover:bg-amber-100"
        >
          <Icon name="alert" className="h-4 w-4 shrink-0" /> {formatCount(needingAttention)} {needingAttention === 1 ? 'order needs' : 'orders need'} attention:
          the provider&apos;s answers about {needingAttention === 1 ? 'it' : 'them'} cannot be acted on.
        </Link>
      ) : null}
      {loading ? (
        <SkeletonRows rows={3} className="mt-3 h-12" />
      ) : providers.length === 0 ? (
        <p className="py-6 text-sm text-slate-500">No providers yet.</p>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {providers.map((p) => (
            <li key={p.id} className="flex items-center justify-between gap-3 py-2.5">
              <div className="min-w-0">
                <p className="truncate font-medium text-slate-900">
                  {p.name} {p.enabled ? null : <Badge tone="slate">Off</Badge>}
                </p>
                <p className="text-xs text-slate-500">
                  {p.balanceCheckedAt ? (
                    <>
                      Checked <TimeAgo at={p.balanceCheckedAt} />
                    </>
                  ) : (
                    'Balance not checked yet'
                  )}
                  {p.lowBalanceAlert ? ` · alert below ${p.lowBalanceAlert} ${p.currency}` : ''}
                </p>
                {health.get(p.id)?.unhealthySince ? (
                  <p className="text-xs text-rose-700" title={health.get(p.id)?.lastError ?? undefined}>
                    Not answering since <TimeAgo at={health.get(p.id)!.unhealthySince!} />
                  </p>
                ) : null}
              </div>
              <div className="shrink-0 text-right">
                <p className={cx('font-semibold tabular-nums', p.lowBalance ? 'text-rose-700' : 'text-slate-900')}>
                  {p.balance === null ? '—' : `${p.balance} ${p.currency}`}
                </p>
                {p.lowBalance ? <Badge tone="red">Low balance</Badge> : null}
                {health.get(p.id)?.unhealthySince ? <Badge tone="red">Unhealthy</Badge> : null}
              </div>
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}

type StuckOrder = Dashboard['stuckOrders']['data'][number];

function StuckOrders({ data, loading }: SectionProps) {
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
          Stuck orders {data?.stuckOrders.total ? <Badge tone="red">{formatCount(data.stuckOrders.total)}</Badge> : null}
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

function SyncStatus({ data, loading }: SectionProps) {
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
