// Order request-body schemas shared by the Worker (validation) and the SPA (forms).
// Pure zod, no other imports.
import { z } from 'zod';

const id = z.union([z.number().int().positive(), z.string().trim().min(1).max(64)], { error: 'Please choose a service' });
const optText = (max: number) => z.string().trim().max(max).optional();
const optInt = z.number().int().nonnegative().optional();

export const LINK_REQUIRED = 'Link is required';
export const QUANTITY_INVALID = 'Please enter a valid quantity';

/** POST user/orders (with an Idempotency-Key header). Per-type extras follow the common SMM-panel API. */
export const createOrderSchema = z.object({
  serviceId: id,
  link: z.string({ error: LINK_REQUIRED }).trim().min(1, { error: LINK_REQUIRED }).max(2048),
  quantity: z.number({ error: QUANTITY_INVALID }).int({ error: QUANTITY_INVALID }).positive({ error: QUANTITY_INVALID }),
  comments: optText(100_000),
  runs: z.number().int().positive().optional(),
  interval: z.number().int().positive().optional(),
  username: optText(200),
  usernames: optText(100_000),
  hashtags: optText(10_000),
  hashtag: optText(200),
  media: optText(2048),
  answerNumber: optText(20),
  min: optInt,
  max: optInt,
  posts: optInt,
  delay: optInt,
  expiry: optText(20),
});
export type CreateOrderInput = z.infer<typeof createOrderSchema>;

/** POST user/mass-order {orders}: one "serviceId|link|quantity" per line. */
export const MASS_ORDER_MAX_LINES = 100;
export const massOrderSchema = z.object({
  orders: z
    .string({ error: 'Enter at least one order' })
    .trim()
    .min(1, { error: 'Enter at least one order' })
    .refine((v) => v.split(/\r?\n/).filter((l) => l.trim() !== '').length <= MASS_ORDER_MAX_LINES, {
      error: `At most ${MASS_ORDER_MAX_LINES} orders at a time`,
    }),
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
    const quantity = /^\d+$/.test(qty) ? Number(qty) : Number.NaN;
    let error: string | undefined;
    if (parts.length !== 3) error = 'Use the format serviceId|link|quantity';
    else if (serviceId === '') error = 'Service ID is required';
    else if (link === '') error = LINK_REQUIRED;
    else if (!Number.isInteger(quantity) || quantity <= 0) error = QUANTITY_INVALID;
    out.push({ line: i + 1, serviceId, link, quantity, error });
  });
  return out;
}

/** Query of GET user/orders. */
export const listOrdersQuerySchema = z.object({
  page: z.coerce.number().int().positive().optional(),
  limit: z.coerce.number().int().positive().max(100).optional(),
  status: z.string().trim().max(50).optional(),
  search: z.string().trim().max(200).optional(),
});
