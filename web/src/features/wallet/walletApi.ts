// Wallet calls: balances, transactions, add fund.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export const walletKeys = {
  all: ['wallet'] as const,
  balance: ['wallet', 'balance'] as const,
  smm: ['wallet', 'smm'] as const,
  transactions: (q: TransactionQuery) => ['wallet', 'transactions', q] as const,
};

/** transaction_type: 1 deposit/credit, 2 withdrawal/spend. */
export const TRANSACTION_DEPOSIT = 1;
export const TRANSACTION_WITHDRAWAL = 2;

export interface Transaction {
  id: number | string;
  transaction_type: number | string;
  amount: string;
  balance_after?: string | null;
  description?: string | null;
  created_at: string;
}

export interface TransactionQuery {
  page?: number;
  limit?: number;
  type?: 1 | 2;
  from?: string;
  to?: string;
}

export interface AddFundResponse {
  checkoutUrl: string;
  signature: string;
  amount: string | number;
  reference: string;
}

const toAmount = (value: number | string | undefined) => {
  const n = Number(value ?? 0);
  return Number.isFinite(n) ? n : 0;
};

/** GET user/getWalletBalance, read once for both hooks below. */
const walletQuery = {
  queryKey: walletKeys.balance,
  queryFn: async ({ signal }: { signal: AbortSignal }) => {
    const res = await api.get<{ walletBalance?: number | string; walletDebt?: number | string }>('user/getWalletBalance', { signal });
    return { balance: toAmount(res?.walletBalance), debt: toAmount(res?.walletDebt) };
  },
};

/** walletBalance (number, default 0). */
export function useWalletBalance() {
  return useQuery({ ...walletQuery, select: (wallet) => wallet.balance });
}

/** walletDebt: what a reversed card payment left owing (0 when nothing is); orders wait until deposits settle it. */
export function useWalletDebt() {
  return useQuery({ ...walletQuery, select: (wallet) => wallet.debt });
}

/** GET user/getMai -> smmBalance (committed to open orders). Failures are only logged. */
export function useSmmBalance() {
  return useQuery({
    queryKey: walletKeys.smm,
    queryFn: async ({ signal }) => {
      try {
        const res = await api.get<{ smmBalance?: number | string }>('user/getMai', { signal });
        const n = Number(res?.smmBalance ?? 0);
        return Number.isFinite(n) ? n : 0;
      } catch (error) {
        console.error('Failed to load the marketing-service balance', error);
        throw error;
      }
    },
    retry: false,
  });
}

export function useTransactions(q: TransactionQuery) {
  return useQuery({
    queryKey: walletKeys.transactions(q),
    queryFn: ({ signal }) =>
      api.get<{ data: Transaction[]; page: number; limit: number; total: number }>('user/transactions', {
        query: { page: q.page, limit: q.limit, type: q.type, from: q.from, to: q.to },
        signal,
      }),
    placeholderData: keepPreviousData,
  });
}

export const isDeposit = (t: Pick<Transaction, 'transaction_type'>) => Number(t.transaction_type) === TRANSACTION_DEPOSIT;
