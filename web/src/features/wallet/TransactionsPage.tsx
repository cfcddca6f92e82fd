// /user/transactions: deposits (green '+') and withdrawals (red '-'), type and date filters,
// pagination. Filters live in the URL so a reload or a shared link keeps them.

import { TRANSACTION_TYPE } from '@schemas/wallet';
import { Link, useSearchParams } from 'react-router-dom';
import { isDeposit, type Transaction, useTransactions } from '@/api/wallet';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { Pagination } from '@/components/Pagination';
import { type Column, ResponsiveTable } from '@/components/ResponsiveTable';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { SignedAmount, TransactionWords, transactionTypeLabel } from '@/components/TransactionAmount';
import { getErrorMessage } from '@/lib/api';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { formatDateTime } from '@/lib/format';
import { WalletDebtNotice } from './WalletDebtNotice';

const LIMIT = 20;

export default function TransactionsPage() {
  const money = useDisplayCurrency();
  const [params, setParams] = useSearchParams();
  const page = Math.max(1, Number(params.get('page')) || 1);
  const typeParam = params.get('type');
  const type = Object.values(TRANSACTION_TYPE).find((t) => String(t) === typeParam);
  const from = params.get('from') ?? '';
  const to = params.get('to') ?? '';
  const q = useTransactions({ page, limit: LIMIT, type, from: from || undefined, to: to || undefined });

  const update = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [k, v] of Object.entries(patch)) {
      if (v === null || v === '') next.delete(k);
      else next.set(k, v);
    }
    if (!('page' in patch)) next.delete('page');
    setParams(next, { replace: true });
  };
  const hasFilters = Boolean(type || from || to);

  const columns: Column<Transaction>[] = [
    { key: 'id', header: 'ID', cell: (t) => <span className="text-slate-500">#{t.id}</span>, mobile: 'hide' },
    {
      key: 'description',
      header: 'Description',
      mobile: 'title',
      cell: (t) => (
        <div className="flex items-center gap-3">
          <span
            className={
              isDeposit(t)
                ? 'flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-emerald-600'
                : 'flex h-9 w-9 shrink-0 items-center justify-center rounded-full bg-rose-50 text-rose-600'
            }
          >
            <Icon name={isDeposit(t) ? 'arrowLeft' : 'arrowRight'} className="h-4 w-4" />
          </span>
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
      <span
        className={
          isDeposit(t)
            ? 'flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-emerald-50 text-emerald-600'
            : 'flex h-10 w-10 shrink-0 items-center justify-center rounded-full bg-rose-50 text-rose-600'
        }
      >
        <Icon name={isDeposit(t) ? 'arrowLeft' : 'arrowRight'} className="h-4 w-4" />
      </span>
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
      <header className="flex flex-wrap items-end justify-between gap-3">
        <div>
          <h1 className="page-title">Transactions</h1>
          <p className="mt-1 text-sm text-slate-600">Every deposit into and payment from your wallet.</p>
        </div>
        <Link to="/user/add-fund" className="btn btn-primary">
          <Icon name="plus" className="h-4 w-4" /> Add funds
        </Link>
      </header>
      <WalletDebtNotice />

      <section aria-label="Filters" className="card grid grid-cols-2 gap-3 p-4 sm:grid-cols-[minmax(0,1fr)_minmax(0,1fr)_minmax(0,1fr)_auto] sm:items-end">
        <div className="col-span-2 sm:col-span-1">
          <label htmlFor="tx-type" className="label">
            Type
          </label>
          <select id="tx-type" className="input" value={type ?? ''} onChange={(e) => update({ type: e.target.value })}>
            <option value="">All types</option>
            <option value={TRANSACTION_TYPE.deposit}>Deposit</option>
            <option value={TRANSACTION_TYPE.withdrawal}>Withdrawal</option>
          </select>
        </div>
        <div>
          <label htmlFor="tx-from" className="label">
            From
          </label>
          <input id="tx-from" type="date" className="input" value={from} max={to || undefined} onChange={(e) => update({ from: e.target.value })} />
        </div>
        <div>
          <label htmlFor="tx-to" className="label">
            To
          </label>
          <input id="tx-to" type="date" className="input" value={to} min={from || undefined} onChange={(e) => update({ to: e.target.value })} />
        </div>
        <button
          type="button"
          className="btn btn-ghost col-span-2 sm:col-span-1"
          disabled={!hasFilters}
          onClick={() => setParams(new URLSearchParams(), { replace: true })}
        >
          Clear
        </button>
      </section>

      {q.isError && !q.data ? (
        <ErrorState message={getErrorMessage(q.error)} onRetry={() => void q.refetch()} />
      ) : (
        <>
          <ResponsiveTable
            caption="Transactions"
            columns={columns}
            rows={q.data?.data}
            rowKey={(t) => t.id}
            renderCard={txCard}
            loading={q.isPending}
            empty={
              <EmptyState
                icon="receipt"
                title={hasFilters ? 'No transactions match these filters' : 'No transactions yet'}
                action={
                  hasFilters ? undefined : (
                    <Link to="/user/add-fund" className="btn btn-primary">
                      Fund your wallet
                    </Link>
                  )
                }
              >
                {hasFilters ? 'Try a different type or date range.' : 'Your deposits and order payments will show up here.'}
              </EmptyState>
            }
          />
          <Pagination page={page} limit={LIMIT} total={q.data?.total ?? 0} onPage={(p) => update({ page: String(p) })} disabled={q.isFetching} />
        </>
      )}
    </div>
  );
}
