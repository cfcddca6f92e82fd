// The reseller API (/api/v2): the SMM panel "API v2" protocol spoken by reseller tools, bots and
// child panels, on top of the same order service as the SPA (same checks, same idempotency, the
// same exactly-once money). This module knows the protocol: its actions, its answer shapes (ids
// and counts as the protocol's examples give them, money as naira text from kobo) and its words
// for refusals; the route only reads the request and writes the answer.
import { and, eq, inArray } from 'drizzle-orm';
import { orderRefills, orders } from '../../../drizzle/schema';
import type { Db } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import { AppError, invalid, rateLimited } from '../../lib/errors';
import { parseWith } from '../../lib/validation';
import { ProviderError } from '../../providers/http';
import {
  createOrderSchema,
  idempotencyKeySchema,
  LINK_INVALID,
  LINK_REQUIRED,
  QUANTITY_INVALID,
  SERVICE_UNAVAILABLE,
  USERNAME_INVALID,
} from '../../schemas/orders';
import {
  PANEL_ERRORS,
  REQUEST_ID_REUSED,
  RESELLER_WRITE_ACTIONS,
  type ResellerAction,
  resellerActionSchema,
  resellerAddSchema,
  resellerKeySchema,
  resellerOrderIdsSchema,
  resellerRefillIdsSchema,
  resellerRequestIdSchema,
} from '../../schemas/reseller-api';
import type { ResellerMeteredAction } from '../../schemas/settings';
import { type ApiCaller, apiCallerOf, apiCallerQuery, hashApiKey, type Meter, meterHit } from '../accounts';
import { listAllServices } from '../catalogue';
import { INSUFFICIENT_BALANCE } from '../money';
import { cancelOrder, getOrderRows, IDEMPOTENCY_KEY_REUSED, type OrderEnv, type OrderViewRow, pendingRequestOf, placeOrder, requestRefill } from '../orders';
import { resellerApiSettingsOf, resellerApiSettingsQuery } from '../settings';
import { CURRENCY, protocolOrderFields } from './protocol-order';

export const RATE_LIMITED = PANEL_ERRORS.tooManyRequests;
const PROVIDER_SILENT = 'The provider did not answer. Please try again later.';
/** Order and refill ids are Postgres integers. */
const MAX_ROW_ID = 2_147_483_647;

export type ResellerParams = Record<string, unknown>;

// ---------------------------------------------------------------- refusals in the protocol's words

/** The order service's refusals that panels word in fixed phrases reseller tools know. */
const PANEL_WORDS = new Map<string, string>([
  [SERVICE_UNAVAILABLE, PANEL_ERRORS.incorrectServiceId],
  [LINK_REQUIRED, PANEL_ERRORS.incorrectLink],
  [LINK_INVALID, PANEL_ERRORS.incorrectLink],
  [USERNAME_INVALID, PANEL_ERRORS.incorrectLink],
  [QUANTITY_INVALID, PANEL_ERRORS.incorrectQuantity],
  [INSUFFICIENT_BALANCE, PANEL_ERRORS.notEnoughFunds],
]);
/** The order service's "Minimum quantity is 1,000", which panels say as "Quantity less than minimal 1000". */
const QUANTITY_RANGE = /^(Minimum|Maximum) quantity is ([\d,]+)$/;

/** The {"error": ...} text for a refusal; refusals panels have no fixed words for keep ours. */
export function refusalText(error: AppError): string {
  if (error.kind === 'rate_limited') return RATE_LIMITED;
  const range = QUANTITY_RANGE.exec(error.message);
  if (range) return `Quantity ${range[1] === 'Minimum' ? 'less than minimal' : 'more than maximal'} ${range[2].replaceAll(',', '')}`;
  return PANEL_WORDS.get(error.message) ?? error.message;
}

/**
 * A JSON object answered with its keys in the order asked. A JavaScript object lists integer-like keys first and
 * ascending, so a multi-status answer built as one would come back sorted; tools read it in the order they asked.
 */
export class OrderedAnswer {
  constructor(private readonly entries: readonly (readonly [string, unknown])[]) {}

  toJSONText(): string {
    return `{${this.entries.map(([key, value]) => `${JSON.stringify(key)}:${JSON.stringify(value)}`).join(',')}}`;
  }
}

// ---------------------------------------------------------------- ids the caller gives

/** An id as the caller wrote it, as a number when it is one of ours; null when it cannot name a row. */
function idOf(text: string): number | null {
  if (!/^\d{1,10}$/.test(text)) return null;
  const id = Number(text);
  return id >= 1 && id <= MAX_ROW_ID ? id : null;
}

/** Batch answers echo each id: as a number when it is one, as given otherwise. */
const echo = (text: string) => idOf(text) ?? text;

/** The row found for an id as the caller wrote it. */
function foundFor<T>(found: Map<number, T>, text: string): T | undefined {
  const id = idOf(text);
  return id === null ? undefined : found.get(id);
}

type Outcome<T> = { ok: true; value: T } | { ok: false; error: string };

/**
 * Runs an order-service action on one of the caller's order ids. A refusal becomes that order's
 * error; an order that is not the caller's is "Incorrect order ID" (the order service answers
 * not_found for both a missing and another user's order, and nothing else in these actions).
 */
async function forOrder<T>(text: string, work: (orderId: number) => Promise<T>): Promise<Outcome<T>> {
  const orderId = idOf(text);
  if (orderId === null) return { ok: false, error: PANEL_ERRORS.incorrectOrderId };
  try {
    return { ok: true, value: await work(orderId) };
  } catch (error) {
    if (error instanceof AppError) return { ok: false, error: error.kind === 'not_found' ? PANEL_ERRORS.incorrectOrderId : refusalText(error) };
    if (error instanceof ProviderError) return { ok: false, error: PROVIDER_SILENT };
    throw error;
  }
}

/** Runs `work` on each id in turn (each may call the provider), answering in the order asked. */
async function eachInTurn<T>(ids: string[], work: (id: string) => Promise<T>): Promise<T[]> {
  const answers: T[] = [];
  for (const id of ids) answers.push(await work(id));
  return answers;
}

// ---------------------------------------------------------------- actions

/**
 * An order as `status` reports it: the protocol's fields (protocol-order.ts, shared with the order.status webhook) and,
 * while the provider has not answered a refill or cancel asked of it, `request` saying which (tools ignore fields they do
 * not know; `status` stays one of the six words they switch on).
 */
function orderStatus(row: OrderViewRow) {
  const request = pendingRequestOf(row);
  return { ...protocolOrderFields(row.order), ...(request ? { request } : {}) };
}

async function services(db: Db) {
  return (await listAllServices(db)).map((service) => ({
    service: service.id,
    name: service.name,
    type: service.type,
    category: service.category,
    rate: service.rate,
    min: String(service.min),
    max: String(service.max),
    refill: service.refill,
    cancel: service.cancel,
    dripfeed: service.dripfeed,
  }));
}

/**
 * Places an order through the order service. Without an Idempotency-Key nothing is derived from
 * the order's fields: the same service, link and quantity twice is a normal thing to buy, so only
 * the caller can say that a request is a retry.
 */
async function add(db: Db, env: OrderEnv, caller: ApiCaller, params: ResellerParams, idempotencyKey: string | undefined) {
  const input = parseWith(createOrderSchema, parseWith(resellerAddSchema, params));
  const headerKey = parseWith(idempotencyKeySchema, idempotencyKey);
  const { request_id: requestId } = parseWith(resellerRequestIdSchema, params);
  try {
    const { order } = await placeOrder(db, env, caller.userId, input, { idempotencyKey: headerKey ?? requestId, apiKeyId: caller.keyId });
    return { order: order.id };
  } catch (error) {
    if (headerKey === undefined && error instanceof AppError && error.message === IDEMPOTENCY_KEY_REUSED) throw invalid(REQUEST_ID_REUSED);
    throw error;
  }
}

async function status(db: Db, caller: ApiCaller, params: ResellerParams) {
  const { order, orders: many } = parseWith(resellerOrderIdsSchema, params);
  const asked = many ?? (order === undefined ? [] : [order]);
  const known = asked.map(idOf).filter((id) => id !== null);
  const rows = new Map((await getOrderRows(db, caller.userId, known)).map((row) => [row.order.id, row]));
  if (many) {
    return new OrderedAnswer(
      many.map((text) => {
        const row = foundFor(rows, text);
        return [text, row ? orderStatus(row) : { error: PANEL_ERRORS.incorrectOrderId }];
      }),
    );
  }
  const row = order === undefined ? undefined : foundFor(rows, order);
  if (!row) throw invalid(PANEL_ERRORS.incorrectOrderId);
  return orderStatus(row);
}

async function refill(db: Db, env: OrderEnv, caller: ApiCaller, params: ResellerParams) {
  const { order, orders: many } = parseWith(resellerOrderIdsSchema, params);
  const requestOne = (text: string) => forOrder(text, (orderId) => requestRefill(db, env, orderId, { userId: caller.userId, actorId: caller.userId }));
  if (many) {
    return eachInTurn(many, async (text) => {
      const outcome = await requestOne(text);
      return { order: echo(text), refill: outcome.ok ? outcome.value.refillId : { error: outcome.error } };
    });
  }
  if (order === undefined) throw invalid(PANEL_ERRORS.incorrectOrderId);
  const outcome = await requestOne(order);
  if (!outcome.ok) throw invalid(outcome.error);
  return { refill: String(outcome.value.refillId) };
}

/** Our refill states in the protocol's words: one still being sent to the provider is Pending. */
const refillStatusWord = (status: (typeof orderRefills.$inferSelect)['status']) => (status === 'Requesting' ? 'Pending' : status);

async function refillStatus(db: Db, caller: ApiCaller, params: ResellerParams) {
  const { refill: one, refills: many } = parseWith(resellerRefillIdsSchema, params);
  const asked = many ?? (one === undefined ? [] : [one]);
  const known = asked.map(idOf).filter((id) => id !== null);
  const rows =
    known.length === 0
      ? []
      : await db
          .select({ id: orderRefills.id, status: orderRefills.status })
          .from(orderRefills)
          .innerJoin(orders, eq(orders.id, orderRefills.orderId))
          .where(and(eq(orders.userId, caller.userId), inArray(orderRefills.id, known)));
  const statuses = new Map(rows.map((row) => [row.id, refillStatusWord(row.status)]));
  if (many) return many.map((text) => ({ refill: echo(text), status: foundFor(statuses, text) ?? { error: PANEL_ERRORS.refillNotFound } }));
  const single = one === undefined ? undefined : foundFor(statuses, one);
  if (!single) throw invalid(PANEL_ERRORS.incorrectRefillId);
  return { status: single };
}

/** Cancel requests for many orders (a single `order` is taken too); each answers 1 or its error. */
async function cancel(db: Db, env: OrderEnv, caller: ApiCaller, params: ResellerParams) {
  const { order, orders: many } = parseWith(resellerOrderIdsSchema, params);
  const asked = many ?? (order === undefined ? undefined : [order]);
  if (!asked) throw invalid(PANEL_ERRORS.incorrectRequest);
  return eachInTurn(asked, async (text) => {
    const outcome = await forOrder(text, (orderId) => cancelOrder(db, env, caller.userId, orderId));
    return { order: echo(text), cancel: outcome.ok ? 1 : { error: outcome.error } };
  });
}

// ---------------------------------------------------------------- one call

/** The meter each action counts against: writes (add, refill, cancel) share add's, reads of orders and refills status's. */
const METER_OF: Record<ResellerAction, ResellerMeteredAction> = {
  services: 'services',
  add: 'add',
  refill: 'add',
  cancel: 'add',
  status: 'status',
  refill_status: 'status',
  balance: 'balance',
};

export const meterKey = (keyId: number, metered: ResellerMeteredAction) => `api-key:${keyId}:${metered}`;
/** The rate limit counts fixed one-minute windows. */
const METER_WINDOW_SECONDS = 60;

export const WRITES_OVER_GET_REFUSED = 'This shop takes add, refill and cancel only with POST, with the key in the body';

export interface ResellerCall {
  params: ResellerParams;
  idempotencyKey: string | undefined;
  /** Sent as GET: a write that way is noted on the key (the API page tells its owner) and refused if the operator says so. */
  overGet: boolean;
}

/**
 * Answers one API call: the key first (refused before anything else, as panels do), read in one round trip with the
 * operator's settings; then the call counted against the key's meter for its kind of action, which `onMeter` hears
 * before anything can be refused, so every answer to a known key carries where it stands; then the action.
 * Refusals are thrown as AppError; the route words them with refusalText.
 */
export async function answerResellerCall(db: Db, env: OrderEnv, call: ResellerCall, onMeter: (meter: Meter) => void): Promise<unknown> {
  const { key } = parseWith(resellerKeySchema, call.params);
  const asked = resellerActionSchema.safeParse(call.params);
  const writeOverGet = call.overGet && asked.success && RESELLER_WRITE_ACTIONS.has(asked.data.action);
  const [callerRows, settingsRows] = await db.batch([apiCallerQuery(db, await hashApiKey(key), writeOverGet), resellerApiSettingsQuery(db)]);
  const caller = apiCallerOf(callerRows);
  if (!caller) throw invalid(PANEL_ERRORS.invalidKey);
  const settings = resellerApiSettingsOf(settingsRows);
  // A call with no action we know is counted as a read, so a tool looping on a typo is still held to a limit.
  const metered = asked.success ? METER_OF[asked.data.action] : 'status';
  const meter = await meterHit(db, { key: meterKey(caller.keyId, metered), limit: settings.perMinute[metered], windowSeconds: METER_WINDOW_SECONDS });
  onMeter(meter);
  if (meter.over) throw rateLimited(RATE_LIMITED);
  const { action } = parseWith(resellerActionSchema, call.params);
  if (writeOverGet && settings.refuseWritesOverGet) throw new AppError('method_not_allowed', WRITES_OVER_GET_REFUSED);
  const params = call.params;
  const actions: Record<ResellerAction, () => Promise<unknown>> = {
    services: () => services(db),
    add: () => add(db, env, caller, params, call.idempotencyKey),
    status: () => status(db, caller, params),
    balance: async () => ({ balance: koboToNaira(caller.balanceKobo), currency: CURRENCY }),
    refill: () => refill(db, env, caller, params),
    refill_status: () => refillStatus(db, caller, params),
    cancel: () => cancel(db, env, caller, params),
  };
  return actions[action]();
}
