// GET user/wallet-summary: naira text per kind of money, so refunds and credits never pass for deposits.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { WALLET_QUERY_PREFIX } from '@/lib/moneyQueries';

/** The totals over the whole history, or from a day (YYYY-MM-DD) on. */
export const getWalletSummary = (from?: string, signal?: AbortSignal) => read(client.user['wallet-summary'].$get({ query: { from } }, { init: { signal } }));

/** Under the wallet's key, so the totals refresh with the balance. */
export const walletSummaryQuery = (from?: string) =>
  queryOptions({
    queryKey: [...WALLET_QUERY_PREFIX, 'summary', from ?? 'all'],
    queryFn: async ({ signal }) => (await getWalletSummary(from, signal)).data,
  });

export type WalletSummary = Awaited<ReturnType<typeof getWalletSummary>>['data'];

export const useWalletSummary = (from?: string) => useQuery(walletSummaryQuery(from));
