// Support ticket calls of the user (user/tickets), and the ticket shapes support's screens share.

import type { CreateTicketData } from '@schemas/tickets';
import { keepPreviousData, type QueryKey, queryOptions, useQuery } from '@tanstack/react-query';
import type { TicketKind } from '@vocabulary';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

const userTickets = client.user.tickets;

export type TicketDetail = InferResponseType<(typeof userTickets)[':id']['$get'], 200>['data'];
export type TicketMessage = TicketDetail['messages'][number];

export const KIND_LABELS: Record<TicketKind, string> = { order: 'Order', payment: 'Payment', refill: 'Refill', other: 'Other' };

export const ticketKeys = {
  all: ['tickets'] as const,
  lists: ['tickets', 'list'] as const,
  list: (page: number) => ['tickets', 'list', page] as const,
  detail: (id: number) => ['tickets', 'detail', id] as const,
  unread: ['tickets', 'unread'] as const,
};

/** How often an open thread and the unread badge look for new messages. */
const THREAD_POLL_MS = 30_000;
export const UNREAD_POLL_MS = 60_000;

export const getTickets = (page: number, limit: number, signal?: AbortSignal) =>
  read(userTickets.$get({ query: { page: String(page), limit: String(limit) } }, { init: { signal } }));

export const ticketsQuery = (page: number, limit: number) =>
  queryOptions({
    queryKey: ticketKeys.list(page),
    queryFn: ({ signal }) => getTickets(page, limit, signal),
    placeholderData: keepPreviousData,
  });

export const useTickets = (page: number, limit: number) => useQuery(ticketsQuery(page, limit));

export const getTicket = async (id: number, signal?: AbortSignal) =>
  (await read(userTickets[':id'].$get({ param: { id: String(id) } }, { init: { signal } }))).data;

/** A ticket's thread on either side: looked at again every THREAD_POLL_MS while it is not Closed (and the page is visible). */
export const threadQuery = <K extends QueryKey, T extends { status: string }>(queryKey: K, fetch: (signal: AbortSignal) => Promise<T>) =>
  queryOptions({
    queryKey,
    queryFn: ({ signal }) => fetch(signal),
    refetchInterval: (query) => (query.state.data?.status === 'Closed' ? false : THREAD_POLL_MS),
    refetchIntervalInBackground: false,
  });

/** Reading the thread marks it read on the server, so the badge is read again after it. */
export const ticketQuery = (id: number) => threadQuery(ticketKeys.detail(id), (signal) => getTicket(id, signal));

export const useTicket = (id: number) => useQuery(ticketQuery(id));

export const getTicketUnread = async (signal?: AbortSignal) => (await read(userTickets.unread.$get(undefined, { init: { signal } }))).data.unread;

/** Tickets with an answer the user has not read: the shell's badge. */
export const ticketUnreadQuery = queryOptions({
  queryKey: ticketKeys.unread,
  queryFn: ({ signal }) => getTicketUnread(signal),
  refetchInterval: UNREAD_POLL_MS,
  refetchIntervalInBackground: false,
});

export const useTicketUnread = () => useQuery(ticketUnreadQuery);

export const openTicket = (body: CreateTicketData) => read(userTickets.$post({ json: body }));
export const replyToTicket = (id: number, message: string) => read(userTickets[':id'].messages.$post({ param: { id: String(id) }, json: { message } }));
