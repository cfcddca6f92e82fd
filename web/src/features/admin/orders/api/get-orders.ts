// GET admin/orders: every order, filtered and paged.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type AdminOrderQuery = NonNullable<InferRequestType<typeof client.admin.orders.$get>['query']>;
export type AdminOrderRow = InferResponseType<typeof client.admin.orders.$get, 200>['data'][number];

export const getAdminOrders = (query: AdminOrderQuery, signal?: AbortSignal) => read(client.admin.orders.$get({ query }, { init: { signal } }));

export const adminOrdersQueryOptions = (query: AdminOrderQuery) =>
  queryOptions({
    // Under 'admin', so useRefreshAdmin re-reads it after any change.
    queryKey: ['admin', 'orders', 'list', query],
    queryFn: ({ signal }) => getAdminOrders(query, signal),
    placeholderData: keepPreviousData,
  });

export const useAdminOrders = (query: AdminOrderQuery) => useQuery(adminOrdersQueryOptions(query));
