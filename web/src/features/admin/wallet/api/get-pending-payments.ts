// GET admin/payments/pending: the payments started but neither credited nor refused yet (the dashboard's "Pending payments").

import type { Pagination } from '@schemas/common';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys, asQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type PendingPayment = InferResponseType<typeof client.admin.payments.pending.$get, 200>['data'][number];

export const getPendingPayments = (q: Pagination, signal?: AbortSignal) =>
  read(client.admin.payments.pending.$get({ query: asQuery(q) }, { init: { signal } }));

export const pendingPaymentsQueryOptions = (q: Pagination) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'payments', 'pending', q],
    queryFn: ({ signal }) => getPendingPayments(q, signal),
    placeholderData: keepPreviousData,
  });

export const usePendingPayments = (q: Pagination) => useQuery(pendingPaymentsQueryOptions(q));
