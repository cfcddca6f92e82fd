// GET admin/reconciliation: runs the checks of the books on demand (a few seconds: the providers are
// asked again about recent payments), so each opening of the screen and each "Run again" runs it anew,
// and nothing else does (not a focus of the window, not another admin change). 'recent' (the server's
// default once an hourly run came out clean) reads what was written since; 'full' every row.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type ReconciliationReport = InferResponseType<typeof client.admin.reconciliation.$get, 200>['data'];
export type UnbackedFinding = ReconciliationReport['unbacked']['findings'][number];

export type ReconciliationScope = 'recent' | 'full';

export const getReconciliation = async (scope: ReconciliationScope, signal?: AbortSignal) =>
  (await read(client.admin.reconciliation.$get({ query: { scope } }, { init: { signal } }))).data;

export const reconciliationQueryOptions = (scope: ReconciliationScope) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'reconciliation', scope],
    queryFn: ({ signal }) => getReconciliation(scope, signal),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: false,
  });

export const useReconciliation = (scope: ReconciliationScope) => useQuery(reconciliationQueryOptions(scope));
