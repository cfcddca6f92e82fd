// GET admin/transactions: every user's ledger, filtered by user (id or email), type, source, text and dates.

import type { AdminTransactionQuery } from '@schemas/wallet';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys, asQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type AdminTransaction = InferResponseType<typeof client.admin.transactions.$get, 200>['data'][number];

export const getTransactions = (q: AdminTransactionQuery, signal?: AbortSignal) =>
  read(client.admin.transactions.$get({ query: asQuery(q) }, { init: { signal } }));

export const transactionsQueryOptions = (q: AdminTransactionQuery) =>
  queryOptions({ queryKey: adminKeys.transactions(q), queryFn: ({ signal }) => getTransactions(q, signal), placeholderData: keepPreviousData });

export const useAdminTransactions = (q: AdminTransactionQuery) => useQuery(transactionsQueryOptions(q));
