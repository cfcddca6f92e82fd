import { isDeposit, type Transaction } from '@/api/wallet';
import { DEFAULT_CURRENCY, formatAmount } from '@/lib/format';

/**
 * Deposit: green '+amount'; withdrawal: red '-amount'. `format` shows the naira amount (the user
 * screens pass the display currency's); without it the amount is shown in `currency` (NGN).
 */
export function SignedAmount({
  tx,
  currency = DEFAULT_CURRENCY,
  format,
}: {
  tx: Pick<Transaction, 'transaction_type' | 'amount'>;
  currency?: string;
  format?: (naira: number) => string;
}) {
  const deposit = isDeposit(tx);
  const abs = Math.abs(Number(tx.amount) || 0);
  return (
    <span
      className={
        deposit
          ? 'shrink-0 whitespace-nowrap font-semibold text-emerald-700 tabular-nums'
          : 'shrink-0 whitespace-nowrap font-semibold text-rose-700 tabular-nums'
      }
    >
      {deposit ? '+' : '-'}
      {format ? format(abs) : formatAmount(abs, currency)}
    </span>
  );
}

export const transactionTypeLabel = (t: Pick<Transaction, 'transaction_type'>) => (isDeposit(t) ? 'Deposit' : 'Withdrawal');

/**
 * A ledger row as the Worker names it: `description` says what it is ("Refund for order #102",
 * "Credit by administrator"), `note` is the text written when the money moved (the service
 * ordered, an administrator's reason, the payment reference).
 */
export type LedgerWords = Pick<Transaction, 'transaction_type'> & Partial<Pick<Transaction, 'description' | 'note'>>;

/** The row's name (its type where the answer has none) and, below it, its note when that says more. */
export function TransactionWords({ tx }: { tx: LedgerWords }) {
  const title = tx.description || transactionTypeLabel(tx);
  return (
    <>
      <p className="truncate font-medium text-slate-900">{title}</p>
      {tx.note && tx.note !== title ? (
        <p className="truncate text-xs text-slate-500" title={tx.note}>
          {tx.note}
        </p>
      ) : null}
    </>
  );
}
