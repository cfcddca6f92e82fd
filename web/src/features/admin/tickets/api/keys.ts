// Under 'admin', so useRefreshAdmin re-reads the tickets too.
import type { AdminTicketsQuery } from '@schemas/tickets';

export const adminTicketKeys = {
  all: ['admin', 'tickets'] as const,
  list: (q: AdminTicketsQuery) => ['admin', 'tickets', 'list', q] as const,
  detail: (id: number) => ['admin', 'tickets', 'detail', id] as const,
  unread: ['admin', 'tickets', 'unread'] as const,
};
