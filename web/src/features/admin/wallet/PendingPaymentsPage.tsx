// /admin/pending-payments: the list behind the dashboard's "Pending payments": deposits started (a checkout
// opened, or a transfer announced) that the provider has neither confirmed nor refused yet, newest first.

import { PAYMENT_PROVIDER_LABELS } from '@schemas/settings';
import { Link } from 'react-router-dom';
import { EmptyState } from '@/components/EmptyState';
import { PagedTable } from '@/components/PagedTable';
import { PageHeader } from '@/components/PageHeader';
import { CellText, type Column } from '@/components/ResponsiveTable';
import { TimeAgo } from '@/components/TimeAgo';
import { UserCell } from '@/features/admin/users/UserCell';
import { formatAmount, formatDateTime } from '@/lib/format';
import { useUrlFilters } from '@/lib/hooks';
import { useCurrency } from '@/lib/settings';
import { type PendingPayment, usePendingPayments } from './api/get-pending-payments';

const LIMIT = 25;

const providerLabel = (provider: string) => PAYMENT_PROVIDER_LABELS[provider as keyof typeof PAYMENT_PROVIDER_LABELS] ?? provider;

export default function PendingPaymentsPage() {
  const currency = useCurrency();
  const filters = useUrlFilters();
  const q = usePendingPayments({ page: filters.page, limit: LIMIT });
  const columns: Column<PendingPayment>[] = [
    {
      key: 'started',
      header: 'Started',
      mobile: 'title',
      cell: (p) => <span className="whitespace-nowrap">{formatDateTime(p.created_at)}</span>,
    },
    {
      key: 'user',
      header: 'User',
      cell: (p) => <UserCell userId={p.userId} fullName={p.userFullName} email={p.userEmail} />,
    },
    { key: 'amount', header: 'Amount', className: 'whitespace-nowrap md:text-right', cell: (p) => formatAmount(p.amount, currency) },
    {
      key: 'provider',
      header: 'Paying by',
      cell: (p) => `${p.channel === 'bank_transfer' ? 'Bank transfer' : 'Card'} (${providerLabel(p.provider)})`,
    },
    { key: 'reference', header: 'Reference', cell: (p) => <CellText text={p.reference} className="max-w-[12rem] font-mono text-xs" /> },
    {
      key: 'checked',
      header: 'Last asked',
      cell: (p) => (
        <div className="text-sm">
          {p.lastCheckedAt ? <TimeAgo at={p.lastCheckedAt} /> : 'Not yet'}
          {p.providerStatus ? <CellText text={`Provider: ${p.providerStatus}`} className="max-w-[12rem] text-xs text-slate-500" /> : null}
        </div>
      ),
    },
  ];
  return (
    <div className="space-y-5">
      <PageHeader
        title="Pending payments"
        description="Deposits started but not yet confirmed or refused by the payment provider, newest first. The shop asks the provider again every few minutes for two days after each starts; one confirmed is credited and leaves this list."
        actions={
          <Link to="/admin/transactions?type=1&source=payment" className="btn btn-secondary">
            Credited deposits
          </Link>
        }
      />
      <PagedTable query={q} caption="Pending payments" columns={columns} paging={filters} empty={<EmptyState icon="card" title="No payments are pending" />} />
    </div>
  );
}
