// The order engineer's admin calls (worker/routes/admin/orders.ts): the filtered list, one order
// with its refills, and the manual actions.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CanceledBy, OrderStatus } from '@schemas/orders';
import { api } from '@/lib/api';
import type { ListPage } from './adminApi';

export type SubmissionState = 'queued' | 'sending' | 'unknown' | 'accepted' | 'rejected' | 'withdrawn';

export interface AdminOrderRow {
  id: number;
  serviceId: number;
  serviceName: string;
  link: string;
  quantity: number;
  charge: string;
  refunded: string;
  cost: string;
  rate: string;
  startCount: number | null;
  remains: number | null;
  status: OrderStatus;
  statusReason: string | null;
  canRefill: boolean;
  canCancel: boolean;
  userId: number;
  userEmail: string;
  userFullName: string;
  providerId: number;
  providerName: string;
  providerServiceId: string;
  providerOrderId: string | null;
  submission: SubmissionState;
  submissionError: string | null;
  submitAttempts: number;
  deliverable: number;
  created_at: string;
  updated_at: string;
  submittedAt: string | null;
  completedAt: string | null;
  cancelRequestedAt: string | null;
  /** What the provider last said that we could not read as a status. */
  providerNote: string | null;
  /** Status reads in a row the provider's answer for this order could not be read. */
  unreadableSyncs: number;
}

export interface AdminOrderDetail extends AdminOrderRow {
  /** Who canceled it, when it is Canceled. */
  canceledBy: CanceledBy | null;
  refills: Array<{ id: number; providerRefillId: string | null; status: string; error: string | null; created_at: string }>;
}

export interface AdminOrderQuery {
  page: number;
  limit: number;
  status?: string;
  search?: string;
  userId?: number;
  serviceId?: number;
  providerId?: number;
  submission?: string;
  from?: string;
  to?: string;
}

/** Under 'admin', so useRefreshAdmin re-reads them after any change. */
export const adminOrderKeys = {
  list: (q: AdminOrderQuery) => ['admin', 'orders', 'list', q] as const,
  detail: (orderId: number) => ['admin', 'orders', 'detail', orderId] as const,
};

export function useAdminOrders(q: AdminOrderQuery) {
  return useQuery({
    queryKey: adminOrderKeys.list(q),
    queryFn: ({ signal }) => api.get<ListPage<AdminOrderRow>>('admin/orders', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
}

export function useAdminOrder(orderId: number | null) {
  return useQuery({
    queryKey: adminOrderKeys.detail(orderId ?? 0),
    enabled: orderId !== null,
    queryFn: async ({ signal }) => (await api.get<{ data: AdminOrderDetail }>(`admin/orders/${orderId}`, { signal })).data,
  });
}

const path = (orderId: number, action: string) => `admin/orders/${encodeURIComponent(String(orderId))}/${action}`;

export const resendOrder = (orderId: number, confirmNotAtProvider: boolean) => api.post<{ message?: string }>(path(orderId, 'resend'), { confirmNotAtProvider });
export const linkProviderOrder = (orderId: number, providerOrderId: string) => api.post<{ message?: string }>(path(orderId, 'link'), { providerOrderId });
// Each action names the status the screen showed, so an order that moved on meanwhile answers 409 instead of being overwritten.
export const cancelOrder = (orderId: number, expectedStatus: OrderStatus, reason?: string) =>
  api.post<{ message?: string; outcome: 'refunded' | 'requested from the provider' }>(path(orderId, 'cancel'), { reason: reason || undefined, expectedStatus });
export const refundWithoutProvider = (orderId: number, expectedStatus: OrderStatus, reason: string) =>
  api.post<{ message?: string }>(path(orderId, 'refund-without-provider'), { reason, expectedStatus });
export const setOrderStatus = (orderId: number, expectedStatus: OrderStatus, body: { status: OrderStatus; remains?: number; reason?: string }) =>
  api.post<{ message?: string }>(path(orderId, 'status'), { ...body, expectedStatus });
export const refillOrder = (orderId: number) => api.post<{ message?: string }>(path(orderId, 'refill'));
export const syncOrdersNow = () => api.post<{ message?: string }>('admin/orders/sync');
