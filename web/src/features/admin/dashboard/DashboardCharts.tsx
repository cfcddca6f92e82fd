// The dashboard's two charts over the chosen period: money (deposits net of refunds and chargebacks, spend, provider cost as bars,
// profit as a line) and orders with new users. Each also says its totals in words for screen readers.

import type { DashboardPeriod } from '@schemas/admin';
import { Bar, BarChart, CartesianGrid, ComposedChart, Legend, Line, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { Panel } from '@/components/Panel';
import { Skeleton } from '@/components/Skeleton';
import { abbreviateNumber, formatAmount, formatCount } from '@/lib/format';
import type { DashboardSectionProps } from './sectionProps';

const COLORS = { deposits: '#10b981', spend: '#4f46e5', providerCost: '#f59e0b', profit: '#0f172a', orders: '#4f46e5', newUsers: '#0ea5e9' };

/** Buckets are UTC dates ('2024-03-04'): 'Mar 4' for days and weeks, 'Mar 2024' for months. */
function bucketLabel(bucket: string, period: DashboardPeriod): string {
  const date = new Date(`${bucket}T00:00:00Z`);
  return period === 'month'
    ? date.toLocaleDateString('en-US', { month: 'short', year: 'numeric', timeZone: 'UTC' })
    : date.toLocaleDateString('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' });
}

const axis = { tick: { fontSize: 11, fill: '#64748b' }, tickLine: false, axisLine: false } as const;

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

export function MoneyChart({ data, period, currency, loading }: DashboardSectionProps & { period: DashboardPeriod; currency: string }) {
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
      title="Money over time"
      loading={loading}
      summary={
        data
          ? `Deposits (card and bank transfer net of refunds and chargebacks, and admin credits) ${formatAmount(data.totals.deposits, currency)}, spend ${formatAmount(data.totals.spend, currency)}, provider cost ${formatAmount(data.totals.providerCost, currency)}, profit ${formatAmount(data.totals.profit, currency)}.`
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

export function ActivityChart({ data, period, loading }: DashboardSectionProps & { period: DashboardPeriod }) {
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
