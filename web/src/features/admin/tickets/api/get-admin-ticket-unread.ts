// GET admin/tickets/unread: tickets with a user's message no administrator has read (the sidebar's badge).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { UNREAD_POLL_MS } from '@/api/tickets';
import { client, read } from '@/lib/api';
import { adminTicketKeys } from './keys';

export const getAdminTicketUnread = async (signal?: AbortSignal) => (await read(client.admin.tickets.unread.$get(undefined, { init: { signal } }))).data.unread;

export const adminTicketUnreadQueryOptions = () =>
  queryOptions({
    queryKey: adminTicketKeys.unread,
    queryFn: ({ signal }) => getAdminTicketUnread(signal),
    refetchInterval: UNREAD_POLL_MS,
    refetchIntervalInBackground: false,
  });

export const useAdminTicketUnread = () => useQuery(adminTicketUnreadQueryOptions());
