// Notification kinds and settings shared by the Worker (validation) and the SPA (the Settings
// screen and the bell). Pure zod, no other imports but the shared amount rule.

import { NOTIFICATION_KINDS, type NotificationKind } from '../../vocabulary';
import { nairaAmount } from './wallet';
import { z } from './zod';

/** How Settings names each kind, and how an unsubscribe confirms it ("You will no longer get emails about ..."). */
export const NOTIFICATION_LABELS: Record<NotificationKind, string> = {
  deposit_credited: 'Deposits credited to your wallet',
  deposit_reversed: 'Deposits refunded or disputed',
  order_completed: 'Orders completed',
  order_partial: 'Orders partly delivered, with the refund',
  order_canceled: 'Orders canceled, with the refund',
  refill_completed: 'Refills done',
  ticket_answered: 'Answers from support',
  low_balance: 'Low balance alerts',
  referral_earned: 'Referral commission earned',
  referral_released: 'Referral commission ready to spend',
  referral_reversed: 'Referral commission taken back or returned',
};

/** PUT user/notification-settings: which kinds are emailed, and the balance to be alerted under (naira; null: no alert). */
export const notificationSettingsSchema = z.object({
  email: z.partialRecord(z.enum(NOTIFICATION_KINDS, { error: 'Unknown notification' }), z.boolean({ error: 'Choose on or off' })),
  lowBalance: nairaAmount('Low balance alert must be an amount in naira, like 1000').nullable(),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsSchema>;

/** POST user/notifications/read: these, or every notification when none are named. */
export const markReadSchema = z.object({ ids: z.array(z.number().int().positive()).max(100).optional() });

/** POST notifications/unsubscribe: the token of an email's unsubscribe link. */
export const unsubscribeSchema = z.object({
  token: z.string({ error: 'This unsubscribe link is not valid.' }).trim().min(1, { error: 'This unsubscribe link is not valid.' }).max(200),
});
