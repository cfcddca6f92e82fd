// Support's ticket calls (admin/tickets): the filtered list, one thread, reply, assign, close, and
// the sidebar's unread count. Keys live under 'admin', so useRefreshAdmin re-reads them too.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { TicketStatus } from '@schemas/tickets';
import { api } from '@/lib/api';
import { THREAD_POLL_MS, UNREAD_POLL_MS, type Ticket, type TicketDetail, type TicketPage } from '@/features/tickets/ticketsApi';

interface StaffFields {
  user: { id: number; fullName: string; email: string };
  assignedTo: { id: number; fullName: string | null } | null;
}
export type AdminTicket = Ticket & StaffFields;
export type AdminTicketDetail = TicketDetail & StaffFields;

export interface AdminTicketQuery {
  page: number;
  limit: number;
  status?: TicketStatus;
  userId?: number;
  search?: string;
}

export const adminTicketKeys = {
  all: ['admin', 'tickets'] as const,
  list: (q: AdminTicketQuery) => ['admin', 'tickets', 'list', q] as const,
  detail: (id: number) => ['admin', 'tickets', 'detail', id] as const,
  unread: ['admin', 'tickets', 'unread'] as const,
};

export function useAdminTickets(q: AdminTicketQuery) {
  return useQuery({
    queryKey: adminTicketKeys.list(q),
    queryFn: ({ signal }) => api.get<TicketPage<AdminTicket>>('admin/tickets', { query: { ...q }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Reading the thread marks it read for support, so the sidebar's count is read again after it. */
export function useAdminTicket(id: number) {
  return useQuery({
    queryKey: adminTicketKeys.detail(id),
    queryFn: async ({ signal }) => (await api.get<{ data: AdminTicketDetail }>(`admin/tickets/${id}`, { signal })).data,
    refetchInterval: (query) => (query.state.data?.status === 'Closed' ? false : THREAD_POLL_MS),
    refetchIntervalInBackground: false,
  });
}

/** Tickets with a user's message no administrator has read: the sidebar's badge. */
export function useAdminTicketUnread() {
  return useQuery({
    queryKey: adminTicketKeys.unread,
    queryFn: async ({ signal }) => Number((await api.get<{ data?: { unread?: number } }>('admin/tickets/unread', { signal }))?.data?.unread ?? 0),
    refetchInterval: UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

type Answer = Promise<{ message?: string; data: AdminTicketDetail }>;
export const replyAsSupport = (id: number, message: string): Answer => api.post(`admin/tickets/${id}/messages`, { message });
export const assignToMe = (id: number): Answer => api.post(`admin/tickets/${id}/assign`);
export const closeTicket = (id: number): Answer => api.post(`admin/tickets/${id}/close`);
