// GET admin/providers: every upstream provider with its balance, sync state and service count.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type AdminProvider = InferResponseType<typeof client.admin.providers.$get, 200>['data'][number];

export const getProviders = async (signal?: AbortSignal) => (await read(client.admin.providers.$get(undefined, { init: { signal } }))).data;

export const providersQueryOptions = () =>
  queryOptions({
    // Under 'admin', so useRefreshAdmin re-reads it after any change.
    queryKey: ['admin', 'catalogue', 'providers'],
    queryFn: ({ signal }) => getProviders(signal),
  });

export const useProviders = () => useQuery(providersQueryOptions());
