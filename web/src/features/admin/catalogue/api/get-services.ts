// GET admin/services: every service with its provider, cost, price and why it is off, filtered and paged.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type AdminServiceQuery = NonNullable<InferRequestType<typeof client.admin.services.$get>['query']>;
export type AdminService = InferResponseType<typeof client.admin.services.$get, 200>['data'][number];

export const getAdminServices = (query: AdminServiceQuery, signal?: AbortSignal) => read(client.admin.services.$get({ query }, { init: { signal } }));

export const adminServicesQueryOptions = (query: AdminServiceQuery) =>
  queryOptions({
    // Under 'admin', so useRefreshAdmin re-reads it after any change.
    queryKey: ['admin', 'catalogue', 'services', query],
    queryFn: ({ signal }) => getAdminServices(query, signal),
    placeholderData: keepPreviousData,
  });

export const useAdminServices = (query: AdminServiceQuery) => useQuery(adminServicesQueryOptions(query));
