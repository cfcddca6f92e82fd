// GET admin/orders/:id: one order with its refills and who canceled it.
import { useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type AdminOrderDetail = InferResponseType<(typeof client.admin.orders)[':id']['$get'], 200>['data'];

export const getAdminOrder = async (orderId: number, signal?: AbortSignal) =>
  (await read(client.admin.orders[':id'].$get({ param: { id: String(orderId) } }, { init: { signal } }))).data;

export const adminOrderQueryOptions = (orderId: number) => adminQuery(['orders', 'detail', orderId], (signal) => getAdminOrder(orderId, signal));

export const useAdminOrder = (orderId: number | null) => useQuery({ ...adminOrderQueryOptions(orderId ?? 0), enabled: orderId !== null });
