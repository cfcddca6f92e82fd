// Wallet calls several screens share: the balance (and what a reversed payment left owing), the
// money in open orders, and the transactions.

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { TRANSACTION_TYPE } from '@vocabulary';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export const walletKeys = {
  all: ['wallet'] as const,
  balance: ['wallet', 'balance'] as const,
  smm: ['wallet', 'smm'] as const,
  transactions: (q: TransactionQuery) => ['wallet', 'transactions', q] as const,
};

export type Transaction = InferResponseType<typeof client.user.transactions.$get, 200>['data'][number];

export interface TransactionQuery {
  page?: number;
  limit?: number;
  type?: (typeof TRANSACTION_TYPE)[keyof typeof TRANSACTION_TYPE];
  from?: string;
  to?: string;
}

export const getWalletBalance = (signal?: AbortSignal) => read(client.user.getWalletBalance.$get(undefined, { init: { signal } }));

/** GET user/getWalletBalance, read once for both hooks below. */
const walletQuery = queryOptions({ queryKey: walletKeys.balance, queryFn: ({ signal }) => getWalletBalance(signal) });

/** walletBalance (naira). */
export function useWalletBalance() {
  return useQuery({ ...walletQuery, select: (wallet) => wallet.walletBalance });
}

/** walletDebt: what a reversed card payment left owing (0 when nothing is); orders wait until deposits settle it. */
export function useWalletDebt() {
  return useQuery({ ...walletQuery, select: (wallet) => wallet.walletDebt });
}

export const getSmmBalance = (signal?: AbortSignal) => read(client.user.getMai.$get(undefined, { init: { signal } }));

/** GET user/getMai -> smmBalance (committed to open orders). Failures are only logged. */
export function useSmmBalance() {
  return useQuery({
    queryKey: walletKeys.smm,
    queryFn: async ({ signal }) => {
      try {
        return (await getSmmBalance(signal)).smmBalance;
      } catch (error) {
        console.error('Failed to load the marketing-service balance', error);
        throw error;
      }
    },
    retry: false,
  });
}

export const getTransactions = ({ page, limit, type, from, to }: TransactionQuery, signal?: AbortSignal) =>
  read(client.user.transactions.$get({ query: { page: page?.toString(), limit: limit?.toString(), type: type?.toString(), from, to } }, { init: { signal } }));

export function useTransactions(q: TransactionQuery) {
  return useQuery({ queryKey: walletKeys.transactions(q), queryFn: ({ signal }) => getTransactions(q, signal), placeholderData: keepPreviousData });
}

// Loose on purpose: ledger rows other screens build (LedgerWords) may carry the type as text.
export const isDeposit = (t: Pick<Transaction, 'transaction_type'>) => t.transaction_type === TRANSACTION_TYPE.deposit;
