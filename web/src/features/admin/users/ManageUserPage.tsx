// /admin/manage-user (spec section 2): opened with router state { userId }; without it, back to
// /admin/users. 'Go Back', tabs Overview / Wallet / Orders, and the Add Funds modal. What a refunded
// or charged-back card payment left owing shows on top, and the reversals under Wallet.

import { useQueryClient } from '@tanstack/react-query';
import type { OrderStatus } from '@vocabulary';
import { type ComponentProps, type ReactNode, useId, useMemo, useState } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Skeleton } from '@/components/Skeleton';
import { StatCard } from '@/components/StatCard';
import { Badge, StatusBadge } from '@/components/StatusBadge';
import { Tabs, tabPanelProps } from '@/components/Tabs';
import { SignedAmount, TransactionWords, transactionTypeLabel } from '@/components/TransactionAmount';
import { adminKeys } from '@/features/admin/adminApi';
import { formatAmount, formatCount, formatDate, formatDateTime, initials, truncate } from '@/lib/format';
import { useCurrency } from '@/lib/settings';
import { AdminCreditModal } from './AdminCreditModal';
import { type UserOrder, useUserDetails, type WalletHistoryEntry } from './api/get-user-details';
import { NO_REVERSALS, reversalColumns, UserDebtNotice } from './UserReversals';

const PENDING_STATUS: OrderStatus = 'Pending Submission';
const COMPLETED_STATUS: OrderStatus = 'Completed';
const SERVICE_TITLE_MAX = 30;
const RECENT_ORDERS = 5;

type TabKey = 'overview' | 'wallet' | 'orders';
const TABS = [
  { key: 'overview', label: 'Overview' },
  { key: 'wallet', label: 'Wallet' },
  { key: 'orders', label: 'Orders' },
] as const;

const NO_ORDERS = <EmptyState icon="list" title="No orders yet" />;
const NO_TRANSACTIONS = <EmptyState icon="receipt" title="No transactions yet" />;

const orderDate = (o: UserOrder) => o.orderDate ?? o.created_at ?? null;
const orderStatus = (o: UserOrder) => o.smmStatus.status;

/** Sum of wallet history amounts of one transaction type (1 deposits, 2 spending). */
function sumByType(history: ReadonlyArray<WalletHistoryEntry>, type: 1 | 2): number {
  return history.reduce((sum, h) => (h.transaction_type === type ? sum + Math.abs(Number(h.amount) || 0) : sum), 0);
}

const byNewest = <T,>(rows: ReadonlyArray<T>, date: (r: T) => string | null | undefined) =>
  [...rows].sort((a, b) => new Date(date(b) ?? 0).getTime() - new Date(date(a) ?? 0).getTime());

export default function ManageUserPage() {
  const location = useLocation();
  const userId = (location.state as { userId?: string | number } | null)?.userId;
  if (userId === undefined || userId === null || userId === '') return <Navigate to="/admin/users" replace />;
  return <UserDetail userId={userId} />;
}

function UserDetail({ userId }: { userId: string | number }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const currency = useCurrency();
  const idBase = useId();
  const [tab, setTab] = useState<TabKey>('overview');
  const [crediting, setCrediting] = useState(false);
  const details = useUserDetails(userId);

  const profile = details.data?.profile;
  const history = useMemo(() => byNewest(details.data?.walletHistory ?? [], (h) => h.created_at), [details.data]);
  const orders = useMemo(() => byNewest(details.data?.orders ?? [], orderDate), [details.data]);
  const recentOrders = orders.slice(0, RECENT_ORDERS);
  const summary = details.data?.summary;
  const totalDeposits = summary?.totalDeposits ?? sumByType(history, 1);
  const totalSpent = summary?.totalSpent ?? sumByType(history, 2);
  // Over all the user's orders when the server counted them; the list holds only the newest.
  const counts = details.data?.orderCounts;
  const countOf = (status: OrderStatus) => counts?.byStatus[status] ?? orders.filter((o) => orderStatus(o) === status).length;
  const totalOrders = counts?.total ?? orders.length;
  const pendingOrders = countOf(PENDING_STATUS);
  const completedOrders = countOf(COMPLETED_STATUS);
  // Money that is neither a deposit nor spending, so the three cards never count it as either.
  const otherMoney = [
    { label: 'Refunds', value: summary?.totalRefunds, always: true },
    { label: 'Credits by administrator', value: summary?.totalAdminCredits, always: true },
    { label: 'Debits by administrator', value: summary?.totalAdminDebits, always: false },
    { label: 'Card deposits taken back', value: summary?.totalCardReversals, always: false },
  ].filter((m) => m.value !== undefined && (m.always || Number(m.value) > 0));
  const loading = details.isPending;

  const goBack = () => {
    const idx = (window.history.state as { idx?: number } | null)?.idx ?? 0;
    if (idx > 0) navigate(-1);
    else navigate('/admin/users');
  };

  const walletTiles: ReadonlyArray<ComponentProps<typeof StatCard>> = [
    { icon: 'wallet', label: 'Available Balance', value: formatAmount(profile?.wallet?.balance ?? 0, currency), tone: 'brand' },
    {
      icon: 'arrowLeft',
      label: 'Total Deposits',
      value: formatAmount(totalDeposits, currency),
      tone: 'emerald',
      hint: summary ? 'Paid in by card' : undefined,
    },
    { icon: 'arrowRight', label: 'Total Spent', value: formatAmount(totalSpent, currency), tone: 'rose', hint: summary ? 'Orders less refunds' : undefined },
  ];
  const walletCards = (
    <div className="space-y-2">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
        {walletTiles.map((tile) => (
          <StatCard key={tile.label} {...tile} loading={loading} />
        ))}
      </div>
      {otherMoney.length > 0 && !loading ? (
        <dl className="flex flex-wrap gap-x-6 gap-y-1 px-1 text-sm">
          {otherMoney.map((m) => (
            <div key={m.label} className="flex gap-1.5">
              <dt className="text-slate-500">{m.label}</dt>
              <dd className="font-medium whitespace-nowrap text-slate-900 tabular-nums">{formatAmount(m.value, currency)}</dd>
            </div>
          ))}
        </dl>
      ) : null}
    </div>
  );

  const recentColumns: Column<UserOrder>[] = [
    { key: 'id', header: 'ID', cell: (o) => <span className="font-medium text-slate-900">#{o.id}</span> },
    { key: 'product', header: 'Product', mobile: 'title', cell: (o) => <span title={o.productTitle}>{truncate(o.productTitle, SERVICE_TITLE_MAX)}</span> },
    { key: 'quantity', header: 'Quantity', className: 'md:text-right', cell: (o) => <span className="tabular-nums">{formatCount(o.quantity)}</span> },
    { key: 'price', header: 'Price', className: 'md:text-right', cell: (o) => <span className="tabular-nums">{formatAmount(o.price, currency)}</span> },
    { key: 'status', header: 'Status', cell: (o) => <StatusBadge status={orderStatus(o)} /> },
    { key: 'date', header: 'Date', cell: (o) => <span className="whitespace-nowrap">{formatDate(orderDate(o))}</span> },
  ];

  const orderColumns: Column<UserOrder>[] = [
    { key: 'id', header: 'ID', cell: (o) => <span className="font-medium text-slate-900">#{o.id}</span> },
    {
      key: 'service',
      header: 'Service',
      mobile: 'title',
      cell: (o) => (
        <span className="block min-w-[8rem]" title={o.productTitle}>
          {truncate(o.productTitle, SERVICE_TITLE_MAX)}
        </span>
      ),
    },
    {
      key: 'link',
      header: 'Link',
      cell: (o) =>
        o.productLink ? (
          <a
            href={o.productLink}
            target="_blank"
            rel="noreferrer noopener"
            title={o.productLink}
            className="inline-block max-w-[10rem] truncate align-bottom text-brand-700 hover:underline"
          >
            {o.productLink}
          </a>
        ) : (
          '—'
        ),
    },
    { key: 'quantity', header: 'Quantity', className: 'md:text-right', cell: (o) => <span className="tabular-nums">{formatCount(o.quantity)}</span> },
    { key: 'price', header: 'Price', className: 'md:text-right', cell: (o) => <span className="tabular-nums">{formatAmount(o.price, currency)}</span> },
    { key: 'status', header: 'Status', cell: (o) => <StatusBadge status={orderStatus(o)} /> },
    { key: 'date', header: 'Date', cell: (o) => <span className="whitespace-nowrap">{formatDateTime(orderDate(o))}</span> },
    {
      key: 'actions',
      header: 'Actions',
      cell: (o) => (
        <div className="flex justify-end gap-2 md:justify-start">
          {o.productLink ? (
            <a
              href={o.productLink}
              target="_blank"
              rel="noreferrer noopener"
              className="btn-sm btn-secondary"
              aria-label={`Open the link of order ${o.id}`}
              title="Open"
            >
              {/* Icons only in a table narrower than 72rem (a laptop beside the sidebar): no room for the words there. */}
              <Icon name="external" className="h-3.5 w-3.5" /> <span className="hidden max-md:inline @6xl:inline">Open</span>
            </a>
          ) : null}
          <button
            type="button"
            className="btn-sm btn-ghost"
            aria-label={`Copy the link of order ${o.id}`}
            title="Copy"
            disabled={!o.productLink}
            onClick={() => void navigator.clipboard?.writeText(o.productLink ?? '')}
          >
            <Icon name="copy" className="h-3.5 w-3.5" /> <span className="hidden max-md:inline @6xl:inline">Copy</span>
          </button>
        </div>
      ),
    },
  ];

  const historyColumns: Column<WalletHistoryEntry>[] = [
    { key: 'id', header: 'ID', cell: (h) => <span className="font-medium text-slate-900">#{h.id}</span>, mobile: 'title' },
    {
      key: 'type',
      header: 'Type',
      cell: (h) => (
        <div className="min-w-0">
          <Badge tone={h.transaction_type === 1 ? 'green' : 'red'}>{transactionTypeLabel(h)}</Badge>
          {h.description ? (
            <div className="mt-1 max-w-[18rem] text-sm">
              <TransactionWords tx={h} />
            </div>
          ) : null}
        </div>
      ),
    },
    { key: 'amount', header: 'Amount', className: 'md:text-right', cell: (h) => <SignedAmount tx={h} currency={currency} /> },
    { key: 'date', header: 'Date', cell: (h) => <span className="whitespace-nowrap">{formatDateTime(h.created_at)}</span> },
  ];

  return (
    <div className="space-y-5">
      <button type="button" onClick={goBack} className="btn btn-ghost -ml-2 px-2">
        <Icon name="arrowLeft" className="h-4 w-4" /> Go Back
      </button>

      {details.isError && !details.data ? (
        <ErrorState message="We could not load this user's details." onRetry={() => void details.refetch()} />
      ) : (
        <>
          <section className="card flex flex-col gap-4 p-5 sm:flex-row sm:items-center" aria-label="User">
            <span className="flex h-14 w-14 shrink-0 items-center justify-center rounded-full bg-brand-100 text-lg font-bold text-brand-800">
              {loading ? '' : initials(profile?.fullName)}
            </span>
            <div className="min-w-0 flex-1">
              {loading ? (
                <>
                  <Skeleton className="h-6 w-48" />
                  <Skeleton className="mt-2 h-4 w-64" />
                </>
              ) : (
                <>
                  <h1 className="truncate text-xl font-bold text-slate-900">{profile?.fullName ?? 'Unknown user'}</h1>
                  <p className="truncate text-sm text-slate-600">{profile?.email}</p>
                </>
              )}
            </div>
            <button type="button" className="btn btn-primary" onClick={() => setCrediting(true)} disabled={loading}>
              <Icon name="plus" className="h-4 w-4" /> Add Funds
            </button>
          </section>

          <UserDebtNotice debt={summary?.debt} currency={currency} />

          <div className="max-w-md">
            <Tabs idBase={idBase} label="User details" tabs={TABS} active={tab} onChange={setTab} />
          </div>

          {/* Overview */}
          <div {...tabPanelProps(idBase, 'overview')} hidden={tab !== 'overview'} className="space-y-5">
            <section className="card p-5" aria-labelledby={`${idBase}-info`}>
              <h2 id={`${idBase}-info`} className="font-semibold text-slate-900">
                Profile information
              </h2>
              <dl className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 lg:grid-cols-4">
                {[
                  { label: 'Full Name', value: profile?.fullName },
                  { label: 'Username', value: profile?.username },
                  { label: 'Email Address', value: profile?.email },
                  { label: 'Member Since', value: formatDate(profile?.created_at) },
                ].map((f) => (
                  <div key={f.label} className="min-w-0">
                    <dt className="text-xs font-medium tracking-wide text-slate-500 uppercase">{f.label}</dt>
                    <dd className="mt-1 truncate text-slate-900">{loading ? <Skeleton className="h-5 w-32" /> : f.value || '—'}</dd>
                  </div>
                ))}
              </dl>
            </section>
            <section aria-label="Wallet summary">{walletCards}</section>
            <TableSection title="Recent Orders" columns={recentColumns} rows={recentOrders} loading={loading} skeletonRows={3} empty={NO_ORDERS} />
          </div>

          {/* Wallet */}
          <div {...tabPanelProps(idBase, 'wallet')} hidden={tab !== 'wallet'} className="space-y-5">
            <div className="flex justify-end">
              <button type="button" className="btn btn-primary" onClick={() => setCrediting(true)} disabled={loading}>
                <Icon name="plus" className="h-4 w-4" /> Add Funds
              </button>
            </div>
            {walletCards}
            <TableSection title="Transaction History" columns={historyColumns} rows={history} loading={loading} empty={NO_TRANSACTIONS}>
              {/* The history here is the latest entries; the full ledger (and its CSV) is one click away. */}
              <Link
                to={`/admin/transactions?${profile?.email ? `email=${encodeURIComponent(profile.email)}` : `userId=${encodeURIComponent(String(userId))}`}`}
                className="link mt-3 inline-block text-sm"
              >
                All of this user&apos;s transactions
              </Link>
            </TableSection>
            <TableSection
              title="Refunds and chargebacks"
              caption="Card payment reversals"
              columns={reversalColumns(currency)}
              rows={details.data?.reversals ?? []}
              loading={loading}
              skeletonRows={2}
              empty={NO_REVERSALS}
            />
          </div>

          {/* Orders */}
          <div {...tabPanelProps(idBase, 'orders')} hidden={tab !== 'orders'} className="space-y-5">
            <div className="grid grid-cols-1 gap-3 sm:grid-cols-3">
              <StatCard icon="list" label="Total Orders" value={formatCount(totalOrders)} tone="brand" loading={loading} />
              <StatCard icon="clock" label="Pending Orders" value={formatCount(pendingOrders)} tone="amber" loading={loading} />
              <StatCard icon="checkCircle" label="Completed Orders" value={formatCount(completedOrders)} tone="emerald" loading={loading} />
            </div>
            <ResponsiveTable caption="Orders" columns={orderColumns} rows={orders} rowKey={(o) => o.id} loading={loading} empty={NO_ORDERS} />
            <Link to={`/admin/orders?userId=${encodeURIComponent(String(userId))}`} className="link inline-block text-sm">
              Manage this user&apos;s orders
            </Link>
          </div>
        </>
      )}

      <AdminCreditModal
        open={crediting}
        onClose={() => setCrediting(false)}
        userId={userId}
        userName={profile?.fullName}
        onCredited={() => void queryClient.invalidateQueries({ queryKey: adminKeys.user(userId) })}
      />
    </div>
  );
}

/** A table under its own heading, which names the section and, unless `caption` says otherwise, the table; `children` follow the table. */
function TableSection<T extends { id: number }>({
  title,
  caption = title,
  children,
  ...table
}: {
  title: string;
  caption?: string;
  columns: ReadonlyArray<Column<T>>;
  rows: ReadonlyArray<T>;
  loading: boolean;
  skeletonRows?: number;
  empty: ReactNode;
  children?: ReactNode;
}) {
  const id = useId();
  return (
    <section aria-labelledby={id}>
      <h2 id={id} className="mb-3 font-semibold text-slate-900">
        {title}
      </h2>
      <ResponsiveTable caption={caption} rowKey={(row) => row.id} {...table} />
      {children}
    </section>
  );
}
