// GET admin/transactions/exports/:id: an export's state (queued, running, done with its rows, or failed with why), read
// every second and a half while the queue writes its file.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type TransactionsExport = InferResponseType<(typeof client.admin.transactions.exports)[':exportId']['$get'], 200>['data'];

export const EXPORT_POLL_MS = 1500;

export const isBeingWritten = (run: TransactionsExport | undefined) => run?.state === 'queued' || run?.state === 'running';

export const getTransactionsExport = async (exportId: number, signal?: AbortSignal) =>
  (await read(client.admin.transactions.exports[':exportId'].$get({ param: { exportId: String(exportId) } }, { init: { signal } }))).data;

export const transactionsExportQueryOptions = (exportId: number) =>
  queryOptions({
    queryKey: [...adminKeys.all, 'transactions', 'export', exportId],
    queryFn: ({ signal }) => getTransactionsExport(exportId, signal),
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchInterval: (query) => (isBeingWritten(query.state.data) ? EXPORT_POLL_MS : false),
  });

export const useTransactionsExport = (exportId: number | null) => useQuery({ ...transactionsExportQueryOptions(exportId ?? 0), enabled: exportId !== null });
