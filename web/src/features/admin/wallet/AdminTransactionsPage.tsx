// /admin/transactions: every user's ledger with filters (user by email, type, source, reference or
// description, dates), and the same selection as a CSV file. Filters live in the URL.

import { EMAIL_PATTERN } from '@schemas/common';
import { LEDGER_SOURCES } from '@vocabulary';

import { DateFilter } from '@/components/DateFilter';
import { EmptyState } from '@/components/EmptyState';
import { FilterBar } from '@/components/FilterBar';
import { FilterSelect } from '@/components/FilterSelect';
import { PagedTable } from '@/components/PagedTable';
import { PageHeader } from '@/components/PageHeader';
import type { Column } from '@/components/ResponsiveTable';
import { SearchInput } from '@/components/SearchInput';
import { Badge } from '@/components/StatusBadge';
import { SignedAmount, transactionTypeLabel } from '@/components/TransactionAmount';
import { UserCell } from '@/features/admin/users/UserCell';
import { formatAmount, formatDateTime } from '@/lib/format';
import { useUrlFilters, useUrlSearch } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { type AdminTransaction, useAdminTransactions } from './api/get-transactions';
import { TransactionsExportButton } from './TransactionsExportButton';

const LIMIT = 25;

type LedgerSource = (typeof LEDGER_SOURCES)[number];
/** What the filter offers and the Source column shows: every source the ledger knows, so none can be missed. */
const SOURCE_LABELS: Record<LedgerSource, string> = {
  payment: 'Deposit (card or bank transfer)',
  admin_credit: 'Admin credit',
  admin_debit: 'Admin correction',
  order: 'Order',
  order_refund: 'Order refund',
  chargeback: 'Card refund or chargeback',
  chargeback_return: 'Chargeback given back',
  debt_settlement: 'Debt settled',
  referral_commission: 'Referral commission',
  commission_reversal: 'Referral commission taken back',
  commission_return: 'Referral commission returned',
};
const isLedgerSource = (text: string): text is LedgerSource => (LEDGER_SOURCES as ReadonlyArray<string>).includes(text);
const sourceLabel = (source: string) => (isLedgerSource(source) && SOURCE_LABELS[source]) || source;
const SOURCE_CHOICES = LEDGER_SOURCES.map((source) => ({ value: source, label: SOURCE_LABELS[source] }));
const TYPE_CHOICES = [
  { value: '1', label: 'Deposit' },
  { value: '2', label: 'Withdrawal' },
];

export default function AdminTransactionsPage() {
  const currency = useCurrency();
  const filters = useUrlFilters();
  const [search, setSearch] = useUrlSearch(filters);
  const [email, setEmail] = useUrlSearch(filters, 'email');
  const userIdText = filters.get('userId');
  const emailText = filters.get('email').toLowerCase();
  const typeText = filters.get('type');
  const sourceText = filters.get('source');
  const selection = {
    search: filters.get('search') || undefined,
    // Older links (and bookmarks) name the user by id; the filter box takes an email address.
    userId: /^\d+$/.test(userIdText) ? Number(userIdText) : undefined,
    // Half an address filters nothing yet, rather than asking the Worker for a 400.
    email: EMAIL_PATTERN.test(emailText) ? emailText : undefined,
    type: typeText === '1' ? (1 as const) : typeText === '2' ? (2 as const) : undefined,
    source: isLedgerSource(sourceText) ? sourceText : undefined,
    from: filters.get('from') || undefined,
    to: filters.get('to') || undefined,
  };
  const q = useAdminTransactions({ page: filters.page, limit: LIMIT, ...selection });
  const empty = <EmptyState icon="receipt" title={filters.active ? 'No transactions match these filters' : 'No transactions yet'} />;

  const columns: Column<AdminTransaction>[] = [
    { key: 'id', header: 'ID', cell: (t) => <span className="text-slate-500">#{t.id}</span>, mobile: 'hide', hideBelow: '6xl' },
    {
      key: 'description',
      header: 'Description',
      mobile: 'title',
      cell: (t) => (
        <div className="max-w-[16rem] min-w-0">
          <p className="line-clamp-2 font-medium break-words text-slate-900">{t.description}</p>
          {t.note && t.note !== t.description ? (
            <p className="truncate text-xs text-slate-600" title={t.note}>
              {t.note}
            </p>
          ) : null}
          <p className="truncate text-xs text-slate-500" title={t.reference}>
            Ref {t.reference}
          </p>
        </div>
      ),
    },
    {
      key: 'user',
      header: 'User',
      cell: (t) => <UserCell userId={t.userId} fullName={t.userFullName} email={t.userEmail} narrow />,
    },
    { key: 'type', header: 'Type', cell: (t) => <Badge tone={t.transaction_type === 1 ? 'green' : 'red'}>{transactionTypeLabel(t)}</Badge> },
    { key: 'source', header: 'Source', hideBelow: '6xl', cell: (t) => sourceLabel(t.source) },
    { key: 'amount', header: 'Amount', className: 'whitespace-nowrap md:text-right', cell: (t) => <SignedAmount tx={t} currency={currency} /> },
    {
      key: 'balance',
      header: 'Balance after',
      // Beside the sidebar on a laptop the user's name and email need the room; phone cards and wide screens still show it.
      hideBelow: '6xl',
      className: 'md:text-right',
      cell: (t) => <span className="whitespace-nowrap tabular-nums">{formatAmount(t.balance_after, currency)}</span>,
    },
    { key: 'date', header: 'Date', cell: (t) => <span className="whitespace-nowrap">{formatDateTime(t.created_at)}</span> },
  ];

  return (
    <div className="space-y-5">
      <PageHeader
        title="Transactions"
        description="Every deposit, order payment, refund and correction in every wallet."
        actions={<TransactionsExportButton filters={selection} />}
      />
      <FilterBar filters={filters} className="grid-cols-2 items-end md:grid-cols-4">
        <SearchInput className="col-span-2" label="Search transactions" placeholder="Reference or description" value={search} onChange={setSearch} />
        <SearchInput className="col-span-2 md:col-span-1" label="User email" placeholder="User email" type="email" value={email} onChange={setEmail} />
        <FilterSelect filters={filters} name="type" label="Type" allLabel="All types" choices={TYPE_CHOICES} />
        <FilterSelect filters={filters} name="source" label="Source" allLabel="All sources" choices={SOURCE_CHOICES} />
        <DateFilter label="From" value={selection.from ?? ''} max={selection.to} onChange={(from) => filters.update({ from })} />
        <DateFilter label="To" value={selection.to ?? ''} min={selection.from} onChange={(to) => filters.update({ to })} />
      </FilterBar>
      <PagedTable query={q} caption="Transactions" columns={columns} paging={filters} empty={empty} />
    </div>
  );
}
