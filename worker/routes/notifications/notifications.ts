// Notifications: the bell and the email settings under user/ (guarded per route: other areas share
// the /user prefix), and the one-click unsubscribe of every email, which needs no sign-in.
import { Hono } from 'hono';
import { z } from 'zod';
import { API_ORDER_DIGEST } from '../../../vocabulary';
import type { AppEnv } from '../../context';
import { validJson, validQuery } from '../../lib/validation';
import { requireUser } from '../../middleware/auth';
import { labelInSentence, markReadSchema, notificationSettingsSchema, unsubscribeSchema } from '../../schemas/notifications';
import {
  listNotifications,
  markRead,
  notificationSettingsOf,
  readUnsubscribeToken,
  turnEmailOff,
  updateNotificationSettings,
} from '../../services/notifications';

const listQuerySchema = z.object({
  limit: z.coerce.number({ error: 'limit must be a number' }).int().min(1).max(50, { error: 'limit must be at most 50' }).default(10),
});

export const notificationRoutes = new Hono<AppEnv>()
  .get('/notifications', requireUser, validQuery(listQuerySchema), async (c) => {
    const { limit } = c.req.valid('query');
    return c.json({ message: 'Notifications fetched successfully', data: await listNotifications(c.var.db, c.var.principal.id, limit) });
  })
  .post('/notifications/read', requireUser, validJson(markReadSchema), async (c) => {
    const { ids } = c.req.valid('json');
    await markRead(c.var.db, c.var.principal.id, ids);
    return c.json({ message: 'Marked as read', data: null });
  })
  .get('/notification-settings', requireUser, async (c) =>
    c.json({ message: 'Notification settings', data: await notificationSettingsOf(c.var.db, c.var.principal.id) }),
  )
  .put('/notification-settings', requireUser, validJson(notificationSettingsSchema), async (c) => {
    const input = c.req.valid('json');
    return c.json({ message: 'Settings saved', data: await updateNotificationSettings(c.var.db, c.var.principal.id, input) });
  });

export const unsubscribeRoutes = new Hono<AppEnv>().post('/unsubscribe', validJson(unsubscribeSchema), async (c) => {
  const { token } = c.req.valid('json');
  const { userId, kind } = await readUnsubscribeToken(c.env, token);
  await turnEmailOff(c.var.db, userId, kind);
  const message =
    kind === API_ORDER_DIGEST
      ? 'You will no longer get the daily summary of orders placed through the API.'
      : `You will no longer get emails about ${labelInSentence(kind)}.`;
  return c.json({ message, data: { kind } });
});
