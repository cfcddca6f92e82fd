// GET admin/reconciliation?scope=recent: runs the checks of the books over what was written since the last clean
// hourly run (everything while none was clean), with the providers asked again about recent payments: a few seconds,
// so each opening of the screen and each "Run again" runs it anew, and nothing else does (not a focus of the window,
// not another admin change). Everything is checked on the server's queue instead (get-full-reconciliation.ts).
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type ReconciliationReport = InferResponseType<typeof client.admin.reconciliation.$get, 200>['data'];
export type UnbackedFinding = ReconciliationReport['unbacked']['findings'][number];

export const getReconciliation = async (signal?: AbortSignal) =>
  (await read(client.admin.reconciliation.$get({ query: { scope: 'recent' } }, { init: { signal } }))).data;

export const reconciliationQueryOptions = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'reconciliation', 'recent'],
    queryFn: ({ signal }) => getReconciliation(signal),
    staleTime: 0,
    refetchOnMount: 'always',
    refetchOnWindowFocus: false,
    retry: false,
  });

export const useReconciliation = () => useQuery(reconciliationQueryOptions());
