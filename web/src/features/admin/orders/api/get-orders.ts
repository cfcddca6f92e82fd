// GET admin/orders: every order, filtered and paged.
import { useQuery } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';
import { pagedList } from '@/lib/queries';

export type AdminOrderQuery = NonNullable<InferRequestType<typeof client.admin.orders.$get>['query']>;
export type AdminOrderRow = InferResponseType<typeof client.admin.orders.$get, 200>['data'][number];

export const getAdminOrders = (query: AdminOrderQuery, signal?: AbortSignal) => read(client.admin.orders.$get({ query }, { init: { signal } }));

export const adminOrdersQueryOptions = (query: AdminOrderQuery) => pagedList(adminQuery(['orders', 'list', query], (signal) => getAdminOrders(query, signal)));

export const useAdminOrders = (query: AdminOrderQuery) => useQuery(adminOrdersQueryOptions(query));
