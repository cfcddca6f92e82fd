// The admin user page's card payment reversals: what the user still owes after a refund or a
// chargeback took back money already spent (orders are refused until deposits settle it), and every
// reversal with what it took from the wallet, what it added to the debt, what a won dispute (or a
// refund that no longer needed it) gave back, and where a dispute stands.
import { EmptyState } from '@/components/EmptyState';
import { Notice } from '@/components/Notice';
import type { Column } from '@/components/ResponsiveTable';
import { Badge } from '@/components/StatusBadge';
import { formatAmount, formatDateTime } from '@/lib/format';
import type { UserReversal } from './api/get-user-details';

const STATUS: Record<UserReversal['status'], { label: string; tone: 'red' | 'amber' | 'green' }> = {
  taken: { label: 'Refunded', tone: 'red' },
  dispute_open: { label: 'Dispute open', tone: 'amber' },
  dispute_won: { label: 'Dispute won', tone: 'green' },
  dispute_lost: { label: 'Dispute lost', tone: 'red' },
};

/** The reversals table when there are none. */
export const NO_REVERSALS = <EmptyState icon="checkCircle" title="No refunds or chargebacks" />;

/** "Owes ₦X" when the user owes anything; nothing otherwise. */
export function UserDebtNotice({ debt, currency }: { debt: string | undefined; currency: string }) {
  if (!Number(debt)) return null;
  return (
    <Notice tone="rose" label="Amount owed">
      <strong>Owes {formatAmount(debt, currency)}</strong> after a card payment was refunded or charged back beyond what the wallet held. New orders are refused
      until deposits settle it.
    </Notice>
  );
}

/** The reversals table's columns, amounts in the shop's `currency`. */
export function reversalColumns(currency: string): Column<UserReversal>[] {
  return [
    { key: 'reference', header: 'Payment', mobile: 'title', cell: (r) => <span className="font-mono text-xs break-all">{r.reference}</span> },
    {
      key: 'kind',
      header: 'Kind',
      cell: (r) => (
        <span className="capitalize">
          {r.kind === 'refund' ? 'Refund' : 'Chargeback'} · {r.provider}
        </span>
      ),
    },
    { key: 'status', header: 'Status', cell: (r) => <Badge tone={STATUS[r.status].tone}>{STATUS[r.status].label}</Badge> },
    { key: 'amount', header: 'Amount', className: 'md:text-right', cell: (r) => <span className="tabular-nums">{formatAmount(r.amount, currency)}</span> },
    {
      key: 'taken',
      header: 'Taken from wallet',
      className: 'md:text-right',
      cell: (r) => <span className="tabular-nums">{formatAmount(r.taken, currency)}</span>,
    },
    { key: 'debt', header: 'Added to debt', className: 'md:text-right', cell: (r) => <span className="tabular-nums">{formatAmount(r.debt, currency)}</span> },
    {
      key: 'returned',
      header: 'Returned',
      className: 'md:text-right',
      cell: (r) => <span className="tabular-nums">{formatAmount(r.returned, currency)}</span>,
    },
    { key: 'date', header: 'Date', cell: (r) => <span className="whitespace-nowrap">{formatDateTime(r.resolved_at ?? r.created_at)}</span> },
  ];
}
