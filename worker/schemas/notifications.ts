// Notification kinds and settings shared by the Worker (validation) and the SPA (the Settings
// screen). Pure zod, no other imports.
import { z } from 'zod';

/** What a user can be told about, by email and in the bell. */
export const NOTIFICATION_KINDS = [
  'deposit_credited',
  'order_completed',
  'order_partial',
  'order_canceled',
  'refill_completed',
  'ticket_answered',
  'low_balance',
] as const;
export type NotificationKind = (typeof NOTIFICATION_KINDS)[number];
