// Notification kinds and settings shared by the Worker (validation) and the SPA (the Settings
// screen and the bell). Pure zod, no other imports but the shared amount rule.

import { API_ORDER_DIGEST, NOTIFICATION_KINDS, type NotificationKind } from '../../vocabulary';
import { nairaAmount } from './wallet';
import { z } from './zod';

/** How Settings names each kind, and how an unsubscribe confirms it ("You will no longer get emails about ..."). */
export const NOTIFICATION_LABELS: Record<NotificationKind, string> = {
  deposit_credited: 'Deposits credited to your wallet',
  deposit_reversed: 'Deposits refunded or disputed',
  wallet_adjusted: 'Credits and corrections by an administrator',
  order_completed: 'Orders completed',
  order_partial: 'Orders partly delivered, with the refund',
  order_canceled: 'Orders canceled, with the refund',
  refill_completed: 'Refills done',
  ticket_answered: 'Answers from support',
  low_balance: 'Low balance alerts',
  referral_earned: 'Referral commission earned',
  referral_released: 'Referral commission ready to spend',
  referral_reversed: 'Referral commission taken back or returned',
  api_order_digest: 'Orders placed through the API: a daily summary by email',
};

/** A kind's label inside a sentence ("emails about orders completed"), keeping words such as API in capitals. */
export const labelInSentence = (kind: NotificationKind) => NOTIFICATION_LABELS[kind].charAt(0).toLowerCase() + NOTIFICATION_LABELS[kind].slice(1);

/** The kinds with an email on/off switch, on until turned off; the API order digest is its own setting (apiOrderDigest), off until turned on. */
export const emailSwitchedKindSchema = z
  .enum(NOTIFICATION_KINDS, { error: 'Unknown notification' })
  .exclude([API_ORDER_DIGEST], { error: 'Unknown notification' });
export const EMAIL_SWITCHED_KINDS = emailSwitchedKindSchema.options;
export type EmailSwitchedKind = (typeof EMAIL_SWITCHED_KINDS)[number];

/**
 * PUT user/notification-settings: which kinds are emailed, the balance to be alerted under (naira; null: no alert), and
 * whether orders placed through the API are told in a daily summary (left out: as it was).
 */
export const notificationSettingsSchema = z.object({
  email: z.partialRecord(emailSwitchedKindSchema, z.boolean({ error: 'Choose on or off' })),
  lowBalance: nairaAmount('Low balance alert must be an amount in naira, like 1000').nullable(),
  apiOrderDigest: z.boolean({ error: 'Choose on or off' }).optional(),
});
export type NotificationSettingsInput = z.infer<typeof notificationSettingsSchema>;

/** POST user/notifications/read: these, or every notification when none are named. */
export const markReadSchema = z.object({ ids: z.array(z.number().int().positive()).max(100).optional() });

/** POST notifications/unsubscribe: the token of an email's unsubscribe link. */
export const unsubscribeSchema = z.object({
  token: z.string({ error: 'This unsubscribe link is not valid.' }).trim().min(1, { error: 'This unsubscribe link is not valid.' }).max(200),
});
