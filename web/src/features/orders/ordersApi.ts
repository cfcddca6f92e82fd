// Order calls: list, place (with Idempotency-Key and the charge agreed), refill, cancel, mass order.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CreateOrderInput } from '@schemas/orders';
import { api, isApiError } from '@/lib/api';

export interface Order {
  id: number | string;
  serviceId: number | string;
  serviceName: string;
  link: string;
  quantity: number;
  charge: string;
  startCount?: number | null;
  remains?: number | null;
  status: string;
  refunded?: string | null;
  canRefill?: boolean;
  /** The end of the refill window (ISO) when the service has one. */
  refillUntil?: string | null;
  canCancel?: boolean;
  created_at: string;
  updated_at?: string | null;
}

export interface OrdersQuery {
  page?: number;
  limit?: number;
  status?: string;
  search?: string;
}

export interface OrdersPage {
  data: Order[];
  page: number;
  limit: number;
  total: number;
}

export interface MassOrderResult {
  line: number;
  ok: boolean;
  orderId?: number | string;
  error?: string;
}

export const orderKeys = {
  all: ['orders'] as const,
  list: (q: OrdersQuery) => ['orders', 'list', q] as const,
};

/** Status filter options: the statuses the Worker accepts (other texts are still shown as given). */
export { ORDER_STATUSES } from '@schemas/orders';

/** Statuses that will not change any more (no polling needed for them). */
export const isFinalStatus = (status: string | null | undefined) => /complete|partial|cancel|refund|fail|error/i.test(status ?? '');

/** How often open orders are re-read while the list is on screen. */
export const ORDERS_POLL_MS = 30_000;

export function useOrders(q: OrdersQuery, options: { poll?: boolean } = {}) {
  return useQuery({
    queryKey: orderKeys.list(q),
    queryFn: ({ signal }) =>
      api.get<OrdersPage>('user/orders', { query: { page: q.page, limit: q.limit, status: q.status, search: q.search }, signal }),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => {
      if (options.poll === false) return false;
      const rows = query.state.data?.data ?? [];
      return rows.some((o) => !isFinalStatus(o.status)) ? ORDERS_POLL_MS : false;
    },
    refetchIntervalInBackground: false,
  });
}

/** Places an order; with `expectedCharge`, only at that charge (a 409 carries the charge now: newPrice). */
export const placeOrder = (body: CreateOrderInput, idempotencyKey: string) =>
  api.post<{ message?: string; data?: Order }>('user/orders', body, { headers: { 'Idempotency-Key': idempotencyKey } });

export const refillOrder = (id: Order['id']) => api.post<{ message?: string }>(`user/orders/${encodeURIComponent(String(id))}/refill`);
export const cancelOrder = (id: Order['id']) => api.post<{ message?: string }>(`user/orders/${encodeURIComponent(String(id))}/cancel`);

/** Places the lines at the total the customer saw (naira text); a 409 carries the total now (newPrice). */
export const massOrder = (orders: string, expectedTotal: string, idempotencyKey: string) =>
  api.post<{ results: MassOrderResult[] }>('user/mass-order', { orders, expectedTotal }, { headers: { 'Idempotency-Key': idempotencyKey } });

/**
 * The price a 409 says an order (`charge`) or a mass order (`total`) costs now, when it was sent
 * with one the server no longer charges: nothing was placed, and the customer confirms the new one.
 */
export function newPrice(error: unknown, field: 'charge' | 'total'): string | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const value = (error.data as { data?: Record<string, unknown> } | null)?.data?.[field];
  return typeof value === 'string' && /^\d+\.\d{2}$/.test(value) ? value : null;
}
