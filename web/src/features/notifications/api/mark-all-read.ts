// POST user/notifications/read without ids: every notification of the user.
import { client, read } from '@/lib/api';

export const markAllRead = () => read(client.user.notifications.read.$post({ json: {} }));
