// GET user/notifications: the bell's unread count and latest notifications.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { notificationKeys } from './keys';

/** How often the bell looks for news while the page is visible (and on focus, as every query does). */
const BELL_POLL_MS = 60_000;
const BELL_SIZE = 10;

export const getNotifications = (signal?: AbortSignal) => read(client.user.notifications.$get({ query: { limit: String(BELL_SIZE) } }, { init: { signal } }));

export const bellQuery = queryOptions({
  queryKey: notificationKeys.bell,
  queryFn: async ({ signal }) => (await getNotifications(signal)).data,
  refetchInterval: BELL_POLL_MS,
  refetchIntervalInBackground: false,
});

export const useBell = () => useQuery(bellQuery);
