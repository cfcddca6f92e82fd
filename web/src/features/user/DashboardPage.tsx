// /user/dashboard: balances, money in and out by kind (deposits, refunds, credits, spending), orders
// by status, a 30-day spending chart, recent orders and transactions.
import { type ComponentProps, type ReactNode, useMemo } from 'react';
import { Link } from 'react-router-dom';
import { Area, AreaChart, CartesianGrid, ResponsiveContainer, Tooltip, XAxis, YAxis } from 'recharts';
import { useOrders } from '@/api/orders';
import { type Transaction, useSmmBalance, useTransactions, useWalletBalance, useWalletDebt } from '@/api/wallet';
import { EmptyState } from '@/components/EmptyState';
import { Icon, type IconName } from '@/components/Icon';
import { Panel } from '@/components/Panel';
import { Skeleton, SkeletonRows } from '@/components/Skeleton';
import { StatCard, type StatTone } from '@/components/StatCard';
import { StatusBadge, statusTone } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { SignedAmount, TransactionWords } from '@/components/TransactionAmount';
import { useAuth } from '@/lib/authContext';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { abbreviateNumber, formatAmount, formatCount, formatTotal } from '@/lib/format';
import { cx } from '@/lib/hooks';
import { useWalletSummary, type WalletSummary } from './api/get-wallet-summary';

const DAYS = 30;
const dayKey = (d: Date) => `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;

/** The money in and out tiles: one total of the wallet summary each. */
const MONEY_TILES = [
  { total: 'totalDeposits', icon: 'card', label: 'Total Deposits', hint: 'Paid in by card', tone: 'emerald' },
  { total: 'totalRefunds', icon: 'refresh', label: 'Refunds', hint: 'From canceled and partly delivered orders', tone: 'amber' },
  { total: 'totalAdminCredits', icon: 'plus', label: 'Credits by administrator', hint: 'Added by the shop', tone: 'brand' },
  { total: 'totalSpent', icon: 'cart', label: 'Total Spent', hint: 'Orders less refunds', tone: 'rose' },
] as const satisfies ReadonlyArray<{ total: keyof WalletSummary; icon: IconName; label: string; hint: string; tone: StatTone }>;

const RECENT_ROWS = 5;
/** What the recent panels say before there is anything to show, and where to begin. */
const NO_ORDERS = { icon: 'cart', title: 'No orders yet', action: 'Place an order', to: '/user/create-order' } as const;
const NO_TRANSACTIONS = { icon: 'receipt', title: 'No transactions yet', action: 'Fund your wallet', to: '/user/add-fund' } as const;

/** What a ledger row adds to spending: an order's charge, less what its refund gave back; other money is not spending. */
function spendingOf(t: Transaction): number {
  const amount = Math.abs(Number(t.amount) || 0);
  if (t.source === 'order') return amount;
  if (t.source === 'order_refund') return -amount;
  return 0;
}

export default function DashboardPage() {
  const { user } = useAuth();
  const money = useDisplayCurrency();
  const wallet = useWalletBalance();
  const smm = useSmmBalance();
  const orders = useOrders({ page: 1, limit: 100 }, { poll: false });
  const since = useMemo(() => {
    const d = new Date();
    d.setDate(d.getDate() - (DAYS - 1));
    return dayKey(d);
  }, []);
  const totals = useWalletSummary();
  const debt = useWalletDebt().data ?? 0;
  const recentTotals = useWalletSummary(since);
  // Orders and their refunds are rows of both types.
  const spending = useTransactions({ page: 1, limit: 100, from: since });
  const recentTx = useTransactions({ page: 1, limit: RECENT_ROWS });

  const byStatus = useMemo(() => {
    const counts = new Map<string, number>();
    for (const o of orders.data?.data ?? []) counts.set(o.status || 'Unknown', (counts.get(o.status || 'Unknown') ?? 0) + 1);
    return [...counts.entries()].sort((a, b) => b[1] - a[1]);
  }, [orders.data]);
  const sampled = orders.data?.data.length ?? 0;

  const chart = useMemo(() => {
    const totals = new Map<string, number>();
    for (const t of spending.data?.data ?? []) {
      const k = dayKey(new Date(t.created_at));
      totals.set(k, (totals.get(k) ?? 0) + spendingOf(t));
    }
    const out: Array<{ day: string; label: string; amount: number }> = [];
    for (let i = DAYS - 1; i >= 0; i -= 1) {
      const d = new Date();
      d.setDate(d.getDate() - i);
      const k = dayKey(d);
      out.push({ day: k, label: d.toLocaleDateString('en-US', { month: 'short', day: 'numeric' }), amount: Math.round((totals.get(k) ?? 0) * 100) / 100 });
    }
    return out;
  }, [spending.data]);
  const spent30 = recentTotals.data?.totalSpent ?? 0;
  // The chart plots the display currency (so the axis gets round ticks); the tooltip formats the naira amount.
  const chartShown = useMemo(() => chart.map((p) => ({ ...p, shown: money.convert(p.amount) })), [chart, money]);

  const balances: ReadonlyArray<ComponentProps<typeof StatCard>> = [
    { icon: 'wallet', label: 'Wallet balance', value: money.format(wallet.data ?? 0), loading: wallet.isPending, hint: 'Available to spend', tone: 'emerald' },
    { icon: 'clock', label: 'In open orders', value: money.format(smm.data ?? 0), loading: smm.isPending, hint: 'Committed to open orders', tone: 'amber' },
    { icon: 'list', label: 'Orders', value: formatTotal(orders.data?.total ?? 0, orders.data?.totalCapped), loading: orders.isPending, hint: 'All time' },
    { icon: 'chart', label: `Spent (${DAYS} days)`, value: money.format(spent30), loading: recentTotals.isPending, hint: 'Orders less refunds', tone: 'sky' },
  ];

  return (
    <div className="space-y-5">
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title">Dashboard</h1>
          <p className="mt-1 text-sm text-slate-600">Hi {user?.fullName?.split(/\s+/)[0] ?? 'there'}, here is how your account is doing.</p>
        </div>
        <div className="flex gap-2">
          <Link to="/user/add-fund" className="btn btn-secondary">
            <Icon name="plus" className="h-4 w-4" /> Add funds
          </Link>
          <Link to="/user/create-order" className="btn btn-primary">
            <Icon name="cart" className="h-4 w-4" /> New order
          </Link>
        </div>
      </header>

      <section aria-label="Balances" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
        {balances.map((tile) => (
          <StatCard key={tile.label} {...tile} />
        ))}
      </section>

      <section aria-labelledby="money-title">
        <h2 id="money-title" className="mb-3 font-semibold text-slate-900">
          Money in and out
        </h2>
        <div className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4">
          {MONEY_TILES.map(({ total, ...tile }) => (
            <StatCard key={total} {...tile} value={money.format(totals.data?.[total] ?? 0)} loading={totals.isPending} />
          ))}
        </div>
        {Number(totals.data?.totalAdminDebits) > 0 || Number(totals.data?.totalCardReversals) > 0 || debt > 0 ? (
          <p className="mt-2 text-xs text-slate-500">
            {[
              Number(totals.data?.totalAdminDebits) > 0 ? `Debits by administrator: ${money.format(totals.data?.totalAdminDebits ?? 0)}` : null,
              Number(totals.data?.totalCardReversals) > 0
                ? `Card deposits taken back from the wallet: ${money.format(totals.data?.totalCardReversals ?? 0)}`
                : null,
              // What a refund or chargeback took beyond the balance: owed in naira, as the header says.
              debt > 0 ? `Still owed: ${formatAmount(debt)}` : null,
            ]
              .filter(Boolean)
              .join(' · ')}
          </p>
        ) : null}
      </section>

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <Panel title={`Spending, last ${DAYS} days`}>
          <div className="mt-4 h-60">
            {spending.isPending ? (
              <Skeleton className="h-full w-full rounded-xl" />
            ) : (
              <ResponsiveContainer width="100%" height="100%">
                <AreaChart data={chartShown} margin={{ top: 5, right: 8, bottom: 0, left: -8 }}>
                  <defs>
                    <linearGradient id="spend" x1="0" y1="0" x2="0" y2="1">
                      <stop offset="0%" stopColor="#4f46e5" stopOpacity={0.35} />
                      <stop offset="100%" stopColor="#4f46e5" stopOpacity={0} />
                    </linearGradient>
                  </defs>
                  <CartesianGrid strokeDasharray="3 3" stroke="#e2e8f0" vertical={false} />
                  <XAxis
                    dataKey="label"
                    tick={{ fontSize: 11, fill: '#64748b' }}
                    tickLine={false}
                    axisLine={false}
                    interval="preserveStartEnd"
                    minTickGap={24}
                  />
                  <YAxis
                    tick={{ fontSize: 11, fill: '#64748b' }}
                    tickLine={false}
                    axisLine={false}
                    tickFormatter={(v: number) => abbreviateNumber(v)}
                    width={48}
                  />
                  <Tooltip
                    formatter={(_value, _name, item) => [money.format((item?.payload as { amount?: number } | undefined)?.amount ?? 0), 'Spent']}
                    labelStyle={{ color: '#0f172a' }}
                  />
                  <Area type="monotone" dataKey="shown" stroke="#4f46e5" strokeWidth={2} fill="url(#spend)" />
                </AreaChart>
              </ResponsiveContainer>
            )}
          </div>
          <p className="sr-only">
            Total spent in the last {DAYS} days: {money.format(spent30)}.
          </p>
        </Panel>

        <Panel title="Orders by status">
          {sampled > 0 && Number(orders.data?.total) > sampled ? <p className="text-xs text-slate-500">Latest {sampled} orders</p> : null}
          {orders.isPending ? (
            <div className="mt-4 space-y-3">
              <Skeleton className="h-6 w-full" />
              <Skeleton className="h-6 w-full" />
              <Skeleton className="h-6 w-full" />
            </div>
          ) : byStatus.length === 0 ? (
            <p className="mt-4 text-sm text-slate-600">No orders yet.</p>
          ) : (
            <ul className="mt-4 space-y-3">
              {byStatus.map(([status, count]) => {
                const tone = statusTone(status);
                const bar = {
                  green: 'bg-emerald-500',
                  amber: 'bg-amber-500',
                  blue: 'bg-sky-500',
                  red: 'bg-rose-500',
                  slate: 'bg-slate-400',
                  violet: 'bg-violet-500',
                }[tone];
                return (
                  <li key={status}>
                    <div className="flex justify-between text-sm">
                      <span className="text-slate-700">{status}</span>
                      <span className="font-semibold text-slate-900 tabular-nums">{formatCount(count)}</span>
                    </div>
                    <div className="mt-1 h-2 overflow-hidden rounded-full bg-slate-100">
                      <div className={cx('h-full rounded-full', bar)} style={{ width: `${Math.max(4, (count / sampled) * 100)}%` }} />
                    </div>
                  </li>
                );
              })}
            </ul>
          )}
        </Panel>
      </div>

      <div className="grid grid-cols-1 gap-5 lg:grid-cols-2">
        <RecentPanel title="Recent orders" list="/user/orders" query={orders} empty={NO_ORDERS}>
          {(o) => (
            <>
              <div className="min-w-0">
                <p className="truncate text-sm font-medium text-slate-900">{o.serviceName}</p>
                <p className="text-xs text-slate-500">
                  #{o.id} · {formatCount(o.quantity)} · <TimeAgo at={o.created_at} />
                </p>
              </div>
              <div className="shrink-0 text-right">
                <p className="text-sm font-semibold text-slate-900 tabular-nums">{money.format(o.charge)}</p>
                <StatusBadge status={o.status} />
              </div>
            </>
          )}
        </RecentPanel>
        <RecentPanel title="Recent transactions" list="/user/transactions" query={recentTx} empty={NO_TRANSACTIONS}>
          {(t) => (
            <>
              <div className="min-w-0 text-sm">
                <TransactionWords tx={t} />
                <p className="text-xs text-slate-500">
                  <TimeAgo at={t.created_at} />
                </p>
              </div>
              <SignedAmount tx={t} format={money.format} />
            </>
          )}
        </RecentPanel>
      </div>
    </div>
  );
}

/** A panel of a list's latest rows, one line each, with "View all" leading to the whole `list`; placeholders while they load, `empty` before there are any. */
function RecentPanel<T extends { id: number }>({
  title,
  list,
  query,
  empty,
  children,
}: {
  title: string;
  list: string;
  query: { data?: { data: ReadonlyArray<T> }; isPending: boolean };
  empty: { icon: IconName; title: string; action: string; to: string };
  children: (row: T) => ReactNode;
}) {
  const rows = query.data?.data.slice(0, RECENT_ROWS) ?? [];
  return (
    <Panel
      title={title}
      action={
        <Link to={list} className="link text-sm">
          View all
        </Link>
      }
    >
      {query.isPending ? (
        <div className="mt-4">
          <SkeletonRows rows={4} className="h-12" />
        </div>
      ) : rows.length === 0 ? (
        <div className="mt-4">
          <EmptyState
            icon={empty.icon}
            title={empty.title}
            action={
              <Link to={empty.to} className="btn btn-primary">
                {empty.action}
              </Link>
            }
          />
        </div>
      ) : (
        <ul className="mt-3 divide-y divide-slate-100">
          {rows.map((row) => (
            <li key={row.id} className="flex items-center justify-between gap-3 py-3">
              {children(row)}
            </li>
          ))}
        </ul>
      )}
    </Panel>
  );
}
