// Order request schemas shared by the Worker (validation) and the SPA (forms). Pure zod.
// The fields a service type requires (comments, username, …) are checked against the chosen
// service by the order service; here each field only gets its shape.

import { ORDER_STATUSES, type OrderStatus, SUBMISSION_STATES } from '../../vocabulary';
import { dateQueryParam, idParam, paginationSchema, trimmedText } from './common';
import { LINK_REQUIRED, LINK_TOO_LONG, MAX_RUNS, QUANTITY_INVALID } from './order-constants';
import { z } from './zod';

// The order messages live without zod (order-constants.ts); the Worker keeps importing them from here.
export * from './order-constants';

/**
 * Naira text with at most two decimals ("3596.60", as the answers give money), or a number:
 * the price the customer was shown, which the order must still cost.
 */
const shownNaira = (name: string) =>
  z
    .union([z.number(), z.string().trim()], { error: `${name} must be an amount in naira, e.g. "1234.50"` })
    .transform(String)
    .refine((value) => /^\d{1,15}(\.\d{1,2})?$/.test(value), { error: `${name} must be an amount in naira, e.g. "1234.50"` });

/**
 * A whole number as tools write it: 100, "100", or 100.0 / "100.00" from tools that compute
 * quantities as floats; not 100.5, "1e3" or "0x10".
 */
export const WHOLE_NUMBER_TEXT = /^\d{1,10}(?:\.0+)?$/;

/** A positive whole number given as a JSON number or as text (WHOLE_NUMBER_TEXT); anything else is refused with `message`. */
const positiveWhole = (message: string) =>
  z.union([z.number(), z.string()], { error: message }).transform((value, ctx) => {
    const number = typeof value === 'number' ? value : WHOLE_NUMBER_TEXT.test(value.trim()) ? Number(value.trim()) : Number.NaN;
    if (Number.isSafeInteger(number) && number > 0) return number;
    ctx.addIssue({ code: 'custom', message });
    return z.NEVER;
  });

const id = z.union([z.number().int().positive(), z.string().trim().min(1).max(64)], { error: 'Please choose a service' });
const optText = (name: string, max: number) =>
  z
    .string({ error: `${name} must be text` })
    .trim()
    .max(max, { error: `${name} must be at most ${max} characters` })
    .optional();
const optWhole = (name: string) =>
  z
    .number({ error: `${name} must be a whole number` })
    .int({ error: `${name} must be a whole number` })
    .nonnegative({ error: `${name} must be a whole number` })
    .optional();

/** POST user/orders (with an optional Idempotency-Key header). */
export const createOrderSchema = z.object({
  serviceId: id,
  /** Required by every type but Subscriptions (which name a username). */
  link: z.string({ error: LINK_REQUIRED }).trim().max(2048, { error: LINK_TOO_LONG }).optional(),
  /** Required unless the type derives it (comments, usernames, packages, subscriptions). */
  quantity: positiveWhole(QUANTITY_INVALID).optional(),
  comments: optText('Comments', 100_000),
  runs: z
    .number({ error: 'Runs must be a whole number' })
    .int({ error: 'Runs must be a whole number' })
    .min(1, { error: 'Runs must be at least 1' })
    .max(MAX_RUNS, { error: `Runs must be at most ${MAX_RUNS}` })
    .optional(),
  interval: z
    .number({ error: 'Interval must be a whole number of minutes' })
    .int({ error: 'Interval must be a whole number of minutes' })
    .min(1, { error: 'Interval must be at least 1 minute' })
    .max(10_080, { error: 'Interval must be at most 10080 minutes' })
    .optional(),
  username: optText('Username', 200),
  usernames: optText('Usernames', 100_000),
  hashtags: optText('Hashtags', 10_000),
  hashtag: optText('Hashtag', 200),
  media: optText('Media', 2048),
  answerNumber: z
    .union([z.string().trim().max(20), z.number().int().nonnegative()], { error: 'Answer number must be a whole number' })
    .transform(String)
    .optional(),
  min: optWhole('min'),
  max: optWhole('max'),
  posts: optWhole('posts'),
  /** Subscriptions: existing posts to deliver to as well, paid like future ones. */
  oldPosts: optWhole('oldPosts'),
  delay: optWhole('delay'),
  expiry: optText('Expiry', 20),
  /**
   * The charge the customer saw (naira text). When the order would cost anything else now, nothing
   * is placed and the answer is 409 with the charge it costs now. The reseller API sends none.
   */
  expectedCharge: shownNaira('expectedCharge').optional(),
});
export type CreateOrderInput = z.input<typeof createOrderSchema>;
export type CreateOrderData = z.output<typeof createOrderSchema>;

/** The Idempotency-Key header: a retry or a double click with the same key places one order. */
export const idempotencyKeySchema = z
  .string()
  .trim()
  .min(1, { error: 'Idempotency-Key must not be empty' })
  .max(200, { error: 'Idempotency-Key must be at most 200 characters' })
  .regex(/^[\x21-\x7e]+$/, { error: 'Idempotency-Key must be visible ASCII characters' })
  .optional();

/** POST user/mass-order {orders}: one "serviceId|link|quantity" per line. */
export const MASS_ORDER_MAX_LINES = 100;
export const massOrderSchema = z.object({
  orders: trimmedText({ required: 'Enter at least one order', max: 300_000, tooLong: 'The order list is too long' }).refine(
    (v) => v.split(/\r?\n/).filter((l) => l.trim() !== '').length <= MASS_ORDER_MAX_LINES,
    {
      error: `At most ${MASS_ORDER_MAX_LINES} orders at a time`,
    },
  ),
  /** The total the customer saw for the lines (massLineCharge of each); as expectedCharge, 409 with the total now if it differs. */
  expectedTotal: shownNaira('expectedTotal').optional(),
});
export type MassOrderInput = z.infer<typeof massOrderSchema>;

export interface MassOrderLine {
  line: number;
  serviceId: string;
  link: string;
  quantity: number;
  error?: string;
}

/** Splits mass-order text into numbered lines (blank lines skipped) and flags malformed ones. */
export function parseMassOrderLines(text: string): MassOrderLine[] {
  const out: MassOrderLine[] = [];
  text.split(/\r?\n/).forEach((raw, i) => {
    const trimmed = raw.trim();
    if (trimmed === '') return;
    const parts = trimmed.split('|').map((p) => p.trim());
    const [serviceId = '', link = '', qty = ''] = parts;
    const quantity = WHOLE_NUMBER_TEXT.test(qty) ? Number(qty) : Number.NaN;
    let error: string | undefined;
    if (parts.length !== 3) error = 'Use the format serviceId|link|quantity';
    else if (serviceId === '') error = 'Service ID is required';
    else if (link === '') error = LINK_REQUIRED;
    else if (!Number.isSafeInteger(quantity) || quantity <= 0) error = QUANTITY_INVALID;
    out.push({ line: i + 1, serviceId, link, quantity, error });
  });
  return out;
}

/**
 * Who canceled an order, as the admin order detail says it: its customer, an administrator (by
 * name; null once the account is deleted), the provider, or the shop itself (an order no
 * provider could take within a day).
 */
export type CanceledBy = { by: 'customer' } | { by: 'administrator'; name: string | null } | { by: 'provider' } | { by: 'shop' };

const statusFilter = z.enum(ORDER_STATUSES, { error: `status must be one of: ${ORDER_STATUSES.join(', ')}` }).optional();
const orderSearch = z.string().trim().max(200, { error: 'search must be at most 200 characters' }).optional();

/** Query of GET user/orders. */
export const listOrdersQuerySchema = paginationSchema.extend({ status: statusFilter, search: orderSearch });
export type ListOrdersQuery = z.infer<typeof listOrdersQuerySchema>;

/** Query of GET admin/orders. */
export const adminOrdersQuerySchema = paginationSchema.extend({
  status: statusFilter,
  search: orderSearch,
  userId: idParam('userId').optional(),
  serviceId: idParam('serviceId').optional(),
  providerId: idParam('providerId').optional(),
  submission: z.enum(SUBMISSION_STATES, { error: 'Unknown submission state' }).optional(),
  /** Placed on or after this day (UTC). */
  from: dateQueryParam('from'),
  /** Placed before this day (UTC). */
  to: dateQueryParam('to'),
});
export type AdminOrdersQuery = z.infer<typeof adminOrdersQuerySchema>;

const reason = z.string().trim().max(500, { error: 'reason must be at most 500 characters' }).optional();
/** The status the administrator's screen showed: the change is refused (409) if the order has moved on since. */
const expectedStatus = z.enum(ORDER_STATUSES, { error: 'expectedStatus must be an order status' }).optional();

/** POST admin/orders/:id/status: a manual status change; Partial needs what remains undelivered. */
export const adminOrderStatusSchema = z
  .object({
    status: z.enum(ORDER_STATUSES.filter((s) => s !== 'Pending Submission') as [OrderStatus, ...OrderStatus[]], {
      error: 'status must be Pending, In progress, Processing, Completed, Partial or Canceled',
    }),
    remains: z
      .number({ error: 'remains must be a whole number' })
      .int({ error: 'remains must be a whole number' })
      .nonnegative({ error: 'remains must be a whole number' })
      .optional(),
    reason,
    expectedStatus,
  })
  .refine((v) => v.status !== 'Partial' || v.remains !== undefined, { error: 'remains is required for Partial', path: ['remains'] });
export type AdminOrderStatusInput = z.infer<typeof adminOrderStatusSchema>;

/** POST admin/orders/:id/resend: an order whose submission is unknown is only sent again on the administrator's word that the provider has no such order. */
export const adminResendSchema = z.object({
  confirmNotAtProvider: z.boolean({ error: 'confirmNotAtProvider must be true or false' }).optional(),
});

/** POST admin/orders/:id/link: ties an order whose submission is unknown to the order the administrator found at the provider. */
export const adminLinkOrderSchema = z.object({
  providerOrderId: z.string({ error: 'providerOrderId is required' }).trim().min(1, { error: 'providerOrderId is required' }).max(64),
});

export const adminCancelSchema = z.object({ reason, expectedStatus });
export type AdminCancelInput = z.infer<typeof adminCancelSchema>;

/** POST admin/orders/:id/refund-without-provider: for what an administrator checked by hand, so the reason is required. */
export const adminRefundWithoutProviderSchema = z.object({
  reason: trimmedText({
    required: 'reason is required',
    min: 3,
    tooShort: 'Say why the order is refunded without the provider',
    max: 500,
    tooLong: 'reason must be at most 500 characters',
  }),
  expectedStatus,
});
export type AdminRefundWithoutProviderInput = z.infer<typeof adminRefundWithoutProviderSchema>;
