import { DEFAULT_CURRENCY, formatAmount } from '@/lib/format';
import { isDeposit, type Transaction } from './walletApi';

/**
 * Deposit: green '+amount'; withdrawal: red '-amount'. `format` shows the naira amount (the user
 * screens pass the display currency's); without it the amount is shown in `currency` (NGN).
 */
export function SignedAmount({ tx, currency = DEFAULT_CURRENCY, format }: { tx: Pick<Transaction, 'transaction_type' | 'amount'>; currency?: string; format?: (naira: number) => string }) {
  const deposit = isDeposit(tx);
  const abs = Math.abs(Number(tx.amount) || 0);
  return (
    <span className={deposit ? 'font-semibold text-emerald-600 tabular-nums' : 'font-semibold text-rose-600 tabular-nums'}>
      {deposit ? '+' : '-'}
      {format ? format(abs) : formatAmount(abs, currency)}
    </span>
  );
}

export const transactionTypeLabel = (t: Pick<Transaction, 'transaction_type'>) => (isDeposit(t) ? 'Deposit' : 'Withdrawal');
