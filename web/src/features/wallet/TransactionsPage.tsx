// /user/transactions: deposits (green '+') and withdrawals (red '-'), type and date filters,
// pagination. Filters live in the URL so a reload or a shared link keeps them.

import { TRANSACTION_TYPE } from '@vocabulary';

import { Link } from 'react-router-dom';
import { isDeposit, type Transaction, useTransactions } from '@/api/wallet';
import { FilterBar } from '@/components/FilterBar';
import { Icon } from '@/components/Icon';
import { type EmptyListWords, ListEmptyState } from '@/components/ListEmptyState';
import { PagedTable } from '@/components/PagedTable';
import { PageHeader } from '@/components/PageHeader';
import type { Column } from '@/components/ResponsiveTable';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { SignedAmount, TransactionWords, transactionTypeLabel } from '@/components/TransactionAmount';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { formatDateTime } from '@/lib/format';
import { cx, useUrlFilters } from '@/lib/hooks';
import { WalletDebtNotice } from './WalletDebtNotice';

const LIMIT = 20;
const EMPTY_WORDS: EmptyListWords = {
  none: { title: 'No transactions yet', text: 'Your deposits and order payments will show up here.' },
  noMatch: { title: 'No transactions match these filters', text: 'Try a different type or date range.' },
};

/** Money in (an arrow in, green) or out (an arrow out, red), at the head of a row or card. */
function DirectionIcon({ tx, className }: { tx: Transaction; className: string }) {
  const tone = isDeposit(tx) ? 'bg-emerald-50 text-emerald-600' : 'bg-rose-50 text-rose-600';
  return (
    <span className={cx('flex shrink-0 items-center justify-center rounded-full', tone, className)}>
      <Icon name={isDeposit(tx) ? 'arrowLeft' : 'arrowRight'} className="h-4 w-4" />
    </span>
  );
}

export default function TransactionsPage() {
  const money = useDisplayCurrency();
  const filters = useUrlFilters();
  const type = Object.values(TRANSACTION_TYPE).find((t) => String(t) === filters.get('type'));
  const from = filters.get('from');
  const to = filters.get('to');
  const q = useTransactions({ page: filters.page, limit: LIMIT, type, from: from || undefined, to: to || undefined });
  const empty = (
    <ListEmptyState icon="receipt" filtered={filters.active} {...EMPTY_WORDS}>
      <Link to="/user/add-fund" className="btn btn-primary">
        Fund your wallet
      </Link>
    </ListEmptyState>
  );

  const columns: Column<Transaction>[] = [
    { key: 'id', header: 'ID', cell: (t) => <span className="text-slate-500">#{t.id}</span>, mobile: 'hide' },
    {
      key: 'description',
      header: 'Description',
      mobile: 'title',
      cell: (t) => (
        <div className="flex items-center gap-3">
          <DirectionIcon tx={t} className="h-9 w-9" />
          <div className="min-w-0">
            <TransactionWords tx={t} />
            <p className="text-xs text-slate-500 md:hidden">#{t.id}</p>
          </div>
        </div>
      ),
    },
    { key: 'type', header: 'Type', cell: (t) => <Badge tone={isDeposit(t) ? 'green' : 'red'}>{transactionTypeLabel(t)}</Badge> },
    { key: 'amount', header: 'Amount', className: 'md:text-right', cell: (t) => <SignedAmount tx={t} format={money.format} /> },
    { key: 'balance', header: 'Balance after', className: 'md:text-right', cell: (t) => <span className="tabular-nums">{money.format(t.balance_after)}</span> },
    {
      key: 'date',
      header: 'Date',
      cell: (t) => (
        <time dateTime={t.created_at} title={formatDateTime(t.created_at)}>
          {formatDateTime(t.created_at)}
          <span className="block text-xs text-slate-500">
            <TimeAgo at={t.created_at} />
          </span>
        </time>
      ),
    },
  ];

  const txCard = (t: Transaction) => (
    <div className="flex items-center gap-3">
      <DirectionIcon tx={t} className="h-10 w-10" />
      <div className="min-w-0 flex-1">
        <TransactionWords tx={t} />
        <p className="text-xs text-slate-500">
          #{t.id} · {transactionTypeLabel(t)} ·{' '}
          <time dateTime={t.created_at} title={formatDateTime(t.created_at)}>
            <TimeAgo at={t.created_at} />
          </time>
        </p>
      </div>
      <div className="shrink-0 text-right">
        <SignedAmount tx={t} format={money.format} />
        <p className="text-xs text-slate-500 tabular-nums">Bal. {money.format(t.balance_after)}</p>
      </div>
    </div>
  );

  return (
    <div className="space-y-5">
      <PageHeader
        title="Transactions"
        description="Every deposit into and payment from your wallet."
        actions={
          <Link to="/user/add-fund" className="btn btn-primary">
            <Icon name="plus" className="h-4 w-4" /> Add funds
          </Link>
        }
      />
      <WalletDebtNotice />

      <FilterBar
        filters={filters}
        className="grid-cols-2 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end"
        clearClassName="col-span-2 sm:col-span-1"
      >
        <div className="col-span-2 sm:col-span-1">
          <label htmlFor="tx-type" className="label">
            Type
          </label>
          <select id="tx-type" className="input" value={type ?? ''} onChange={(e) => filters.update({ type: e.target.value })}>
            <option value="">All types</option>
            <option value={TRANSACTION_TYPE.deposit}>Deposit</option>
            <option value={TRANSACTION_TYPE.withdrawal}>Withdrawal</option>
          </select>
        </div>
        <div>
          <label htmlFor="tx-from" className="label">
            From
          </label>
          <input id="tx-from" type="date" className="input" value={from} max={to || undefined} onChange={(e) => filters.update({ from: e.target.value })} />
        </div>
        <div>
          <label htmlFor="tx-to" className="label">
            To
          </label>
          <input id="tx-to" type="date" className="input" value={to} min={from || undefined} onChange={(e) => filters.update({ to: e.target.value })} />
        </div>
      </FilterBar>

      <PagedTable query={q} caption="Transactions" columns={columns} renderCard={txCard} paging={filters} empty={empty} />
    </div>
  );
}
