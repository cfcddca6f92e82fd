// PUT user/notification-settings.
import type { NotificationSettingsInput } from '@schemas/notifications';
import { client, read } from '@/lib/api';

export const saveNotificationSettings = (input: NotificationSettingsInput) => read(client.user['notification-settings'].$put({ json: input }));
