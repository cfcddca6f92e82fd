// GET admin/reconciliation: runs every check of the books on demand (a few seconds: the providers are
// asked again about recent payments), so each opening of the screen and each "Run again" runs it anew,
// and nothing else does (not a focus of the window, not another admin change).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type ReconciliationReport = InferResponseType<typeof client.admin.reconciliation.$get, 200>['data'];
export type UnbackedFinding = ReconciliationReport['unbacked']['findings'][number];

export const getReconciliation = async (signal?: AbortSignal) => (await read(client.admin.reconciliation.$get(undefined, { init: { signal } }))).data;

export const reconciliationQueryOptions = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'reconciliation'],
    queryFn: ({ signal }) => getReconciliation(signal),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: false,
  });

export const useReconciliation = () => useQuery(reconciliationQueryOptions());
