// Support ticket calls of the user (user/tickets), and the ticket shapes support's screens share.
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import type { CreateTicketData, TicketKind, TicketStatus } from '@schemas/tickets';
import { api } from '@/lib/api';

export interface TicketMessage {
  id: number;
  fromStaff: boolean;
  /** 'Support' for support's messages as users see them; the administrator's name on support's screens. */
  authorName: string | null;
  body: string;
  created_at: string;
}

export interface Ticket {
  id: number;
  subject: string;
  kind: TicketKind;
  status: TicketStatus;
  /** A message from the other side the viewer has not read yet. */
  unread: boolean;
  orderId: number | null;
  paymentReference: string | null;
  lastMessageAt: string;
  closedAt: string | null;
  created_at: string;
}

export interface TicketDetail extends Ticket {
  order: { id: number; serviceName: string; status: string; link: string; charge: string; created_at: string } | null;
  payment: { reference: string; amount: string; status: 'pending' | 'success' | 'failed'; provider: string; created_at: string } | null;
  messages: TicketMessage[];
}

export interface TicketPage<T> {
  data: T[];
  page: number;
  limit: number;
  total: number;
}

export const KIND_LABELS: Record<TicketKind, string> = { order: 'Order', payment: 'Payment', refill: 'Refill', other: 'Other' };

export const ticketKeys = {
  all: ['tickets'] as const,
  lists: ['tickets', 'list'] as const,
  list: (page: number) => ['tickets', 'list', page] as const,
  detail: (id: number) => ['tickets', 'detail', id] as const,
  unread: ['tickets', 'unread'] as const,
};

/** How often an open thread and the unread badge look for new messages. */
export const THREAD_POLL_MS = 30_000;
export const UNREAD_POLL_MS = 60_000;

export function useTickets(page: number, limit: number) {
  return useQuery({
    queryKey: ticketKeys.list(page),
    queryFn: ({ signal }) => api.get<TicketPage<Ticket>>('user/tickets', { query: { page, limit }, signal }),
    placeholderData: keepPreviousData,
  });
}

/** Reading the thread marks it read on the server, so the badge is read again after it. */
export function useTicket(id: number) {
  return useQuery({
    queryKey: ticketKeys.detail(id),
    queryFn: async ({ signal }) => (await api.get<{ data: TicketDetail }>(`user/tickets/${id}`, { signal })).data,
    refetchInterval: (query) => (query.state.data?.status === 'Closed' ? false : THREAD_POLL_MS),
    refetchIntervalInBackground: false,
  });
}

/** Tickets with an answer the user has not read: the shell's badge. */
export function useTicketUnread() {
  return useQuery({
    queryKey: ticketKeys.unread,
    queryFn: async ({ signal }) => Number((await api.get<{ data?: { unread?: number } }>('user/tickets/unread', { signal }))?.data?.unread ?? 0),
    refetchInterval: UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export const openTicket = (body: CreateTicketData) => api.post<{ message?: string; data: TicketDetail }>('user/tickets', body);
export const replyToTicket = (id: number, message: string) => api.post<{ message?: string; data: TicketDetail }>(`user/tickets/${id}/messages`, { message });
