// What the order forms (one order, a mass order) show about the money: the charge with the wallet
// balance under it, and, when the server refused the amount on screen because prices moved
// meanwhile, that nothing was charged and nothing is placed until the customer confirms the new one.
import type { ReactNode } from 'react';
import { useWalletBalance } from '@/api/wallet';
import { Icon } from '@/components/Icon';
import { Skeleton } from '@/components/Skeleton';
import { Spinner } from '@/components/Spinner';
import { formatAmount, formatKobo } from '@/lib/format';

/** The amount a form will charge (`detail` says of what), its display-currency `equivalent`, the balance under it; `children` go last (a shortfall warning). */
export function ChargeSummary({
  label,
  detail,
  amount,
  equivalent,
  children,
}: {
  label: 'Charge' | 'Total';
  detail: string | null;
  amount: ReactNode;
  equivalent?: string | null;
  children?: ReactNode;
}) {
  const balance = useWalletBalance();
  return (
    <div className="rounded-xl bg-slate-50 p-4">
      <div className="flex items-baseline justify-between gap-3">
        <span className="text-sm text-slate-600">
          {label}
          {detail ? <span className="text-slate-500"> · {detail}</span> : null}
        </span>
        <output aria-label={label} className="block text-right text-xl font-bold whitespace-nowrap text-slate-900 tabular-nums" aria-live="polite">
          {amount}
        </output>
      </div>
      {equivalent ? <p className="text-right text-xs text-slate-500 tabular-nums">≈ {equivalent}</p> : null}
      <div className="mt-1 flex items-baseline justify-between gap-3 text-sm">
        <span className="text-slate-600">Your balance</span>
        {balance.isPending ? <Skeleton className="h-4 w-20" /> : <span className="text-slate-800 tabular-nums">{formatAmount(balance.data ?? 0)}</span>}
      </div>
      {children}
    </div>
  );
}

/** A refusal that names a new amount: the one shown (kobo) and the one the order costs now (naira text). */
export interface PriceChange {
  shownKobo: bigint;
  now: string;
}

const WORDS = {
  order: { amount: 'price', check: 'Check the new price and confirm to place the order.', placing: 'Placing order', icon: 'cart' },
  batch: { amount: 'total', check: 'Check the new prices and confirm to place the orders.', placing: 'Placing orders', icon: 'stack' },
} as const;

/** The server refused the amount shown: the old and new amounts, and the button that confirms the new one. */
export function PriceChangedAlert({
  change,
  of,
  sending,
  disabled = false,
  onConfirm,
}: {
  change: PriceChange;
  /** One order's price, or a mass order's total. */
  of: keyof typeof WORDS;
  sending: boolean;
  disabled?: boolean;
  onConfirm: () => void;
}) {
  const words = WORDS[of];
  return (
    <div role="alert" className="space-y-3 rounded-xl border border-amber-300 bg-amber-50 p-4 text-sm text-amber-900">
      <p className="flex gap-2">
        <Icon name="alert" className="h-5 w-5 shrink-0" />
        <span>
          The {words.amount} changed from <strong>{formatKobo(change.shownKobo)}</strong> to <strong>{formatAmount(change.now)}</strong>. Nothing was charged.{' '}
          {words.check}
        </span>
      </p>
      <button type="button" className="btn btn-primary w-full" disabled={sending || disabled} onClick={onConfirm}>
        {sending ? <Spinner label={words.placing} /> : <Icon name={words.icon} />}
        Confirm and pay {formatAmount(change.now)}
      </button>
    </div>
  );
}
