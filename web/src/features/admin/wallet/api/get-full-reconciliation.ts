// GET admin/reconciliation/full: the last full check asked for (queued, running, done with its report, or failed), or
// null before the first. Read when the screen opens, and again every second and a half while it is queued or running.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type FullReconciliationRun = NonNullable<InferResponseType<typeof client.admin.reconciliation.full.$get, 200>['data']>;

export const FULL_RUN_POLL_MS = 1500;

export const isUnderWay = (run: FullReconciliationRun | null | undefined) => run?.state === 'queued' || run?.state === 'running';

export const getFullReconciliation = async (signal?: AbortSignal) => (await read(client.admin.reconciliation.full.$get({}, { init: { signal } }))).data;

export const fullReconciliationQueryOptions = () =>
  queryOptions({
    queryKey: [...adminKeys.all, 'reconciliation', 'full-run'],
    queryFn: ({ signal }) => getFullReconciliation(signal),
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (isUnderWay(query.state.data) ? FULL_RUN_POLL_MS : false),
  });

export const useFullReconciliation = () => useQuery(fullReconciliationQueryOptions());
