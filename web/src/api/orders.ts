// GET user/orders: the customer's orders, shared by Orders, the dashboard and the new ticket form.

import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { OPEN_ORDER_STATUSES, type OrderStatus } from '@vocabulary';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type Order = InferResponseType<typeof client.user.orders.$get, 200>['data'][number];

export interface OrdersQuery {
  page?: number;
  limit?: number;
  status?: OrderStatus;
  search?: string;
}

export const orderKeys = {
  all: ['orders'] as const,
  list: (q: OrdersQuery) => ['orders', 'list', q] as const,
};

/** How often open orders are re-read while the list is on screen. */
export const ORDERS_POLL_MS = 30_000;

const isOpen = (status: string) => (OPEN_ORDER_STATUSES as readonly string[]).includes(status);

export const getOrders = ({ page, limit, status, search }: OrdersQuery, signal?: AbortSignal) =>
  read(client.user.orders.$get({ query: { page: page?.toString(), limit: limit?.toString(), status, search } }, { init: { signal } }));

export const ordersQuery = (q: OrdersQuery) => queryOptions({ queryKey: orderKeys.list(q), queryFn: ({ signal }) => getOrders(q, signal) });

export function useOrders(q: OrdersQuery, options: { poll?: boolean } = {}) {
  return useQuery({
    ...ordersQuery(q),
    placeholderData: keepPreviousData,
    // Only open orders and refills the provider has not answered still change: once none is on screen there is nothing to wait for.
    refetchInterval: (query) =>
      options.poll !== false && (query.state.data?.data ?? []).some((o) => isOpen(o.status) || Boolean(o.pendingRequest)) ? ORDERS_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}
