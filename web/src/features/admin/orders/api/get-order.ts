// GET admin/orders/:id: one order with its refills and who canceled it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type AdminOrderDetail = InferResponseType<(typeof client.admin.orders)[':id']['$get'], 200>['data'];

export const getAdminOrder = async (orderId: number, signal?: AbortSignal) =>
  (await read(client.admin.orders[':id'].$get({ param: { id: String(orderId) } }, { init: { signal } }))).data;

export const adminOrderQueryOptions = (orderId: number) =>
  queryOptions({
    // Under 'admin', so useRefreshAdmin re-reads it after any change.
    queryKey: ['admin', 'orders', 'detail', orderId],
    queryFn: ({ signal }) => getAdminOrder(orderId, signal),
  });

export const useAdminOrder = (orderId: number | null) => useQuery({ ...adminOrderQueryOptions(orderId ?? 0), enabled: orderId !== null });
