// GET user/notification-settings: which emails the user gets, and the low-balance alert.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { notificationKeys } from './keys';

export const getNotificationSettings = (signal?: AbortSignal) => read(client.user['notification-settings'].$get(undefined, { init: { signal } }));

export const notificationSettingsQuery = queryOptions({
  queryKey: notificationKeys.settings,
  queryFn: async ({ signal }) => (await getNotificationSettings(signal)).data,
});

export const useNotificationSettings = () => useQuery(notificationSettingsQuery);
