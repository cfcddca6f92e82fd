import { formatAmount } from '@/lib/format';
import { isDeposit, type Transaction } from './walletApi';

/** Deposit: green '+amount'; withdrawal: red '-amount'. */
export function SignedAmount({ tx, currency }: { tx: Pick<Transaction, 'transaction_type' | 'amount'>; currency: string }) {
  const deposit = isDeposit(tx);
  const abs = Math.abs(Number(tx.amount) || 0);
  return (
    <span className={deposit ? 'font-semibold text-emerald-600 tabular-nums' : 'font-semibold text-rose-600 tabular-nums'}>
      {deposit ? '+' : '-'}
      {formatAmount(abs, currency)}
    </span>
  );
}

export const transactionTypeLabel = (t: Pick<Transaction, 'transaction_type'>) => (isDeposit(t) ? 'Deposit' : 'Withdrawal');
