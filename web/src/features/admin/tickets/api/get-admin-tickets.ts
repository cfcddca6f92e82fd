// GET admin/tickets: every support ticket, most recently active first, filtered by status, user and text.

import type { AdminTicketsQuery } from '@schemas/tickets';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { asQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';
import { adminTicketKeys } from './keys';

type Answer = InferResponseType<typeof client.admin.tickets.$get, 200>;
/** The Worker's ticket views carry either side's fields; support's list always has the staff ones (who asked, who took it). */
export type AdminTicket = Extract<Answer['data'][number], { user: unknown }>;

export const getAdminTickets = async (q: AdminTicketsQuery, signal?: AbortSignal) =>
  (await read(client.admin.tickets.$get({ query: asQuery(q) }, { init: { signal } }))) as Omit<Answer, 'data'> & { data: AdminTicket[] };

export const adminTicketsQueryOptions = (q: AdminTicketsQuery) =>
  queryOptions({ queryKey: adminTicketKeys.list(q), queryFn: ({ signal }) => getAdminTickets(q, signal), placeholderData: keepPreviousData });

export const useAdminTickets = (q: AdminTicketsQuery) => useQuery(adminTicketsQueryOptions(q));
