// The user shell's balance in the top bar, and what a reversed card payment left owing beneath it:
// a customer with a debt learns it where they look at their money, not only on the pages that refuse an order.

import { Link } from 'react-router-dom';
import { useWalletBalance, useWalletDebt } from '@/api/wallet';
import { Skeleton } from '@/components/Skeleton';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { formatAmount } from '@/lib/format';

export function HeaderBalance() {
  const money = useDisplayCurrency();
  const balance = useWalletBalance();
  const debt = useWalletDebt().data ?? 0;
  return (
    <div className="flex shrink-0 flex-col items-end leading-tight sm:flex-row sm:items-baseline sm:gap-1.5" aria-live="polite">
      <span className="text-xs text-slate-500 sm:text-sm">Your Balance:</span>
      {balance.isPending ? <Skeleton className="h-5 w-20" /> : <Amount text={money.format(balance.data ?? 0)} />}
      {debt > 0 ? (
        // Owed in naira, as the deposit that settles it is made: not converted to the display currency.
        <Link
          to="/user/add-fund"
          title="A card payment was refunded or charged back after the money was spent: your next deposit settles this first."
          className="text-right text-[11px] font-semibold text-rose-700 hover:underline sm:text-xs sm:whitespace-nowrap"
        >
          {/* Two lines on a phone, so the column is no wider than the amount above it and the bar never scrolls sideways. */}
          <span className="max-sm:block">Owed</span> <span className="whitespace-nowrap">{formatAmount(debt)}</span>
        </Link>
      ) : null}
    </div>
  );
}

/**
 * "NGN 1,234,567.89": on a phone the code is left to the currency switcher beside it (and still read
 * out), so seven figures fit beside the logo. One element whose text is the whole amount.
 */
function Amount({ text }: { text: string }) {
  const code = /^[A-Z]{3}\s/.exec(text)?.[0];
  return (
    <span className="text-[13px] font-bold whitespace-nowrap text-slate-900 tabular-nums sm:text-base">
      {code ? <span className="max-sm:sr-only">{code}</span> : null}
      {code ? text.slice(code.length) : text}
    </span>
  );
}
