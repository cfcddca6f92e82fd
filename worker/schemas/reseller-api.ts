// The parameters of the reseller API (/api/v2, the SMM panel "API v2" protocol), with the protocol's
// field names and refusal words. Clients send everything as text (form fields or the query string;
// numbers may come as JSON numbers), and PHP clients often send every field, so an empty field
// counts as absent. `add` maps onto the order service's input (createOrderSchema), which then
// checks it exactly as it checks the SPA's orders.

import { type CreateOrderInput, WHOLE_NUMBER_TEXT } from './orders';
import { z } from './zod';

/** The protocol's limit on ids per batch call (status, refill, refill_status, cancel). */
export const RESELLER_BATCH_LIMIT = 100;

export const RESELLER_ACTIONS = ['services', 'add', 'status', 'balance', 'refill', 'refill_status', 'cancel'] as const;
export type ResellerAction = (typeof RESELLER_ACTIONS)[number];
/**
 * The actions that spend money or ask a provider to act. Tools should POST them, so the key never rides in a URL that
 * servers, proxies and browsers keep; many bots send GET, so GET works unless the operator refuses it, and the key's
 * owner is told on the API page.
 */
export const RESELLER_WRITE_ACTIONS: ReadonlySet<ResellerAction> = new Set(['add', 'refill', 'cancel']);

/** The protocol's fixed refusals, which reseller tools recognise by their words. */
export const PANEL_ERRORS = {
  invalidKey: 'Invalid API key',
  incorrectRequest: 'Incorrect request',
  incorrectOrderId: 'Incorrect order ID',
  incorrectRefillId: 'Incorrect refill ID',
  refillNotFound: 'Refill not found',
  incorrectServiceId: 'Incorrect service ID',
  incorrectLink: 'Incorrect link',
  incorrectQuantity: 'Incorrect quantity',
  notEnoughFunds: 'Not enough funds on balance',
  tooManyIds: `Maximum ${RESELLER_BATCH_LIMIT} IDs per request`,
  /** The words reseller tools wait and retry on. */
  tooManyRequests: 'Too many requests, please try again later',
} as const;

const isBlank = (value: unknown) => value === undefined || value === null || (typeof value === 'string' && value.trim() === '');

/** A protocol field: trimmed text (a JSON number becomes its text); blank is absent. */
function field<T extends z.ZodType<unknown, string>>(inner: T) {
  return z.preprocess(
    (value) => (isBlank(value) ? undefined : typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : value),
    inner.optional(),
  );
}

const text = (message: string) => field(z.string({ error: message }));

/** A whole number written in digits ("100", "100.0", or 100 in JSON); anything else is refused with the protocol's word. */
const whole = (message: string) => field(z.string({ error: message }).regex(WHOLE_NUMBER_TEXT, { error: message }).transform(Number));

/** One item per line; JSON clients may send a list, which is joined the same way. */
const lines = (message: string) =>
  z.preprocess((value) => (Array.isArray(value) && value.every((item) => typeof item === 'string') ? value.join('\n') : value), text(message));

/** A field that must be there: absent or blank is refused with `message`, like a wrong value. */
const required = <T extends z.ZodType<unknown, string>>(message: string, inner: T) => text(message).pipe(z.string({ error: message }).pipe(inner));

/** Checked first, as panels do: a missing key is refused like a wrong one. */
export const resellerKeySchema = z.object({ key: required(PANEL_ERRORS.invalidKey, z.string().max(200, { error: PANEL_ERRORS.invalidKey })) });

export const resellerActionSchema = z.object({
  action: required(PANEL_ERRORS.incorrectRequest, z.enum(RESELLER_ACTIONS, { error: PANEL_ERRORS.incorrectRequest })),
});

/** `add`: the fields of every service type, under the protocol's names, mapped to the order service's. */
export const resellerAddSchema = z
  .object({
    service: required(PANEL_ERRORS.incorrectServiceId, z.string().regex(/^\d{1,9}$/, { error: PANEL_ERRORS.incorrectServiceId })),
    link: text(PANEL_ERRORS.incorrectLink),
    quantity: whole(PANEL_ERRORS.incorrectQuantity),
    runs: whole('Incorrect runs'),
    interval: whole('Incorrect interval'),
    comments: lines('Incorrect comments'),
    usernames: lines('Incorrect usernames'),
    hashtags: lines('Incorrect hashtags'),
    hashtag: text('Incorrect hashtag'),
    username: text('Incorrect username'),
    media: text('Incorrect media'),
    answer_number: whole('Incorrect answer number'),
    min: whole('Incorrect min'),
    max: whole('Incorrect max'),
    posts: whole('Incorrect posts'),
    old_posts: whole('Incorrect old_posts'),
    delay: whole('Incorrect delay'),
    expiry: text('Incorrect expiry'),
  })
  .transform(
    (params): CreateOrderInput => ({
      serviceId: params.service,
      link: params.link,
      quantity: params.quantity,
      runs: params.runs,
      interval: params.interval,
      comments: params.comments,
      usernames: params.usernames,
      hashtags: params.hashtags,
      hashtag: params.hashtag,
      username: params.username,
      media: params.media,
      answerNumber: params.answer_number,
      min: params.min,
      max: params.max,
      posts: params.posts,
      oldPosts: params.old_posts,
      delay: params.delay,
      expiry: params.expiry,
    }),
  );

/**
 * `add`'s request_id: the tool's name for one request, so a retry after a lost answer gets the first order back
 * (the Idempotency-Key header does the same, and wins when both come). Within one account, like the header.
 */
export const resellerRequestIdSchema = z.object({
  request_id: field(
    z
      .string()
      .max(200, { error: 'request_id must be at most 200 characters' })
      .regex(/^[\x21-\x7e]+$/, { error: 'request_id must be visible ASCII characters' }),
  ),
});
export const REQUEST_ID_REUSED = 'This request_id was already used for an order with different details. Use a new request_id for a new order.';

/** "1, 2,3" -> ['1', '2', '3'], each once, at most the batch limit; a list of nothing is absent. */
const idList = (message: string) =>
  text(message)
    .transform((value) => {
      const ids = [
        ...new Set(
          (value ?? '')
            .split(',')
            .map((id) => id.trim())
            .filter((id) => id !== ''),
        ),
      ];
      return ids.length > 0 ? ids : undefined;
    })
    .refine((ids) => ids === undefined || ids.length <= RESELLER_BATCH_LIMIT, { error: PANEL_ERRORS.tooManyIds });

/** `status`, `refill` and `cancel`: one `order` or a list in `orders` (the list wins when both come). */
export const resellerOrderIdsSchema = z.object({ order: text(PANEL_ERRORS.incorrectOrderId), orders: idList(PANEL_ERRORS.incorrectOrderId) });

/** `refill_status`: one `refill` or a list in `refills`. */
export const resellerRefillIdsSchema = z.object({ refill: text(PANEL_ERRORS.incorrectRefillId), refills: idList(PANEL_ERRORS.incorrectRefillId) });
