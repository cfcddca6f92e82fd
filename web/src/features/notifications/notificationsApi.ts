// The user's notifications (user/notifications: the bell) and email settings (user/notification-settings).
import { useQuery } from '@tanstack/react-query';
import type { NotificationKind, NotificationSettingsInput } from '@schemas/notifications';
import { api, publicApi } from '@/lib/api';

export interface Notification {
  id: number;
  kind: NotificationKind;
  title: string;
  body: string;
  link: string | null;
  createdAt: string;
  read: boolean;
}

export interface NotificationSettings {
  email: Record<NotificationKind, boolean>;
  /** Naira, 2 decimals; null: no alert. */
  lowBalance: string | null;
}

export const notificationKeys = {
  all: ['notifications'] as const,
  bell: ['notifications', 'bell'] as const,
  settings: ['notifications', 'settings'] as const,
};

/** How often the bell looks for news while the page is visible (and on focus, as every query does). */
const BELL_POLL_MS = 60_000;
const BELL_SIZE = 10;

export function useBell() {
  return useQuery({
    queryKey: notificationKeys.bell,
    queryFn: ({ signal }) => api.get<{ data: { unread: number; items: Notification[] } }>('user/notifications', { query: { limit: BELL_SIZE }, signal }),
    select: (r) => r.data,
    refetchInterval: BELL_POLL_MS,
    refetchIntervalInBackground: false,
  });
}

export const markAllRead = () => api.post<{ message: string }>('user/notifications/read', {});

export function useNotificationSettings() {
  return useQuery({
    queryKey: notificationKeys.settings,
    queryFn: ({ signal }) => api.get<{ data: NotificationSettings }>('user/notification-settings', { signal }),
    select: (r) => r.data,
  });
}

export const saveNotificationSettings = (input: NotificationSettingsInput) =>
  api.put<{ message: string; data: NotificationSettings }>('user/notification-settings', input);

/** The one-click unsubscribe of an email's link: no sign-in needed, the token is the proof. */
export const unsubscribe = (token: string) => publicApi.post<{ message: string; data: { kind: NotificationKind } }>('notifications/unsubscribe', { token });
