// Says plainly what a reversed card payment left owing: the provider took back money already
// spent, the next deposit pays it first, and orders wait until it is paid. Nothing when nothing is owed.

import { useWalletDebt } from '@/api/wallet';
import { Icon } from '@/components/Icon';
import { formatAmount } from '@/lib/format';
import { cx } from '@/lib/hooks';

export function WalletDebtNotice({ className }: { className?: string }) {
  const debt = useWalletDebt();
  if (!debt.data) return null;
  return (
    <p
      role="alert"
      aria-label="Amount owed"
      className={cx(className, 'flex items-start gap-2 rounded-xl bg-rose-50 px-4 py-3 text-sm text-rose-900 ring-1 ring-rose-200 ring-inset')}
    >
      <Icon name="alert" className="mt-0.5 h-4 w-4 shrink-0" />
      <span>
        <strong>You owe {formatAmount(debt.data)}</strong> after a card payment was refunded or charged back. Your next deposit settles it first; you can place
        orders again once it is paid.
      </span>
    </p>
  );
}
