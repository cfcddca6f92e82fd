// Placing an order: checking it against its service (order-plan.ts), charging the wallet and
// creating the order in one statement, then putting it on the submissions queue. The provider is
// never waited for. An order sent with the charge its customer saw is placed only at that charge:
// prices move with the markup, provider costs and exchange rates, and nobody is charged a price
// they were not shown. The statement itself is order-placing-statement.ts; a batch of orders is
// placed line by line through createPaidOrder in mass-order-placing.ts.
import type { Db } from '../../db';
import { formatNaira, koboToNaira, nairaToKobo } from '../../lib/decimal';
import { AppError, unauthenticated } from '../../lib/errors';
import type { CreateOrderData } from '../../schemas/orders';
import { chargeAndInsertOrder, type EarlierOrder, findByKey, type OrderTerms, type PlacingSession } from './order-placing-statement';
import { type OrderPlan, planOrder, readOrderableService, recentlyReadService, serviceIdOf } from './order-plan';
import { queueSubmissions } from './order-submissions';
import { getOrderView, type OrderView, type OrderViewRow, toOrderView } from './order-views';
import type { OrderEnv } from './orders';

type PaidOrder =
  | { created: true; id: number; view: OrderViewRow }
  /** The Idempotency-Key named an order placed earlier. */
  | { created: false; id: number };

interface PlacingOptions {
  idempotencyKey?: string;
  /** The charge the customer saw: the order is placed at this charge or not at all. */
  expectedChargeKobo?: bigint;
  /** The key of the reseller API call placing the order: API orders are told in a daily summary, not one by one. */
  apiKeyId?: number;
  /** A customer's session not yet checked (POST user/orders): see Admission. */
  admission?: Admission;
}

/**
 * The caller's session, checked by the placing statement itself so placing is one round trip. `admit` is the full
 * check, which throws why the session may not act: run when the statement found it not live, and before anything
 * else is read for the caller (an earlier order under its key) or a refusal is said.
 */
export interface Admission extends PlacingSession {
  admit(): Promise<unknown>;
}

/** A 409 for a price that moved since the customer saw it: nothing was placed, and `data` says what it costs now. */
export class PriceChanged extends AppError {
  constructor(
    message: string,
    readonly data: Record<string, string>,
  ) {
    super('conflict', message, { code: 'price_changed' });
  }

  override toBody(requestId: string) {
    return { ...super.toBody(requestId), data: this.data };
  }
}

const priceChanged = (shownKobo: bigint, nowKobo: bigint) =>
  new PriceChanged(`The price changed from ${formatNaira(shownKobo)} to ${formatNaira(nowKobo)}. Check the new price and confirm to place the order.`, {
    charge: koboToNaira(nowKobo),
  });

export const IDEMPOTENCY_KEY_REUSED = 'This Idempotency-Key was already used for an order with different details. Use a new key for a new order.';

/** JSON with the keys of every object sorted: jsonb hands objects back in its own key order. */
const canonicalJson = (value: unknown) =>
  JSON.stringify(value, (_key, inner: unknown) =>
    inner && typeof inner === 'object' && !Array.isArray(inner) ? Object.fromEntries(Object.entries(inner).sort(([a], [b]) => (a < b ? -1 : 1))) : inner,
  );

/** A link without what varies in writing the same one: case, scheme, "www.", a trailing slash, a leading "@". */
const looseLink = (link: string) =>
  link
    .trim()
    .toLowerCase()
    .replace(/^[a-z][a-z0-9+.-]*:\/\//, '')
    .replace(/^www\./, '')
    .replace(/\/+$/, '')
    .replace(/^@/, '');

/**
 * Whether a request repeats the one its key placed. A planned request must ask for exactly the
 * same: the link as stored, the quantity and every field sent to the provider. One the service
 * cannot take now (since disabled, say) is compared by what it says: the service, the quantity
 * if given, and a link to the same post or account (a username matches its profile link).
 */
function sameRequest(earlier: OrderTerms, asked: OrderPlan | CreateOrderData): boolean {
  if ('providerFields' in asked) {
    return (
      earlier.serviceId === asked.service.id &&
      earlier.link === asked.link &&
      earlier.quantity === asked.quantity &&
      canonicalJson(earlier.extras) === canonicalJson(asked.providerFields)
    );
  }
  const stored = looseLink(earlier.link);
  const given = asked.link === undefined ? undefined : looseLink(asked.link);
  return (
    String(earlier.serviceId) === String(asked.serviceId).trim() &&
    (asked.quantity === undefined || asked.quantity === earlier.quantity) &&
    (given === undefined || stored === given || stored.endsWith(`/${given}`) || stored.endsWith(`/@${given}`))
  );
}

/** The order a key placed earlier, if the request is the same one again; a different request under a used key is refused. */
function earlierOrder(earlier: EarlierOrder, asked: OrderPlan | CreateOrderData): PaidOrder {
  if (!sameRequest(earlier, asked)) throw new AppError('unprocessable', IDEMPOTENCY_KEY_REUSED);
  return { created: false, id: earlier.id };
}

/** A request that cannot be placed now is still answered with the order its key placed earlier, if any. */
async function earlierOrRefused(db: Db, userId: number, options: PlacingOptions, asked: OrderPlan | CreateOrderData, refusal: AppError): Promise<PaidOrder> {
  await options.admission?.admit();
  const earlier = options.idempotencyKey ? await findByKey(db, userId, options.idempotencyKey) : undefined;
  if (earlier) return earlierOrder(earlier, asked);
  throw refusal;
}

/**
 * Checks the order against its service and places it, paid, with one statement. A retry with an
 * Idempotency-Key gets the order the key placed earlier, even one that would be refused now (its
 * service since disabled, or its price since changed). The order is planned with the service as
 * this isolate last read it (recentlyRead); when that copy refuses the order, prices it otherwise
 * than the customer saw, or turns out to be out of date, the service is read again and the order
 * planned again. An expected charge is compared with the plan's, and the placing statement
 * inserts only if the service still has the rate the plan was priced with, so a price changed
 * between the two cannot be charged: the statement finds the service changed and the order is
 * planned again, and refused with the new charge.
 */
export async function createPaidOrder(db: Db, userId: number, input: CreateOrderData, options: PlacingOptions): Promise<PaidOrder> {
  const id = serviceIdOf(input.serviceId);
  let service = recentlyReadService(id);
  // Three rounds cover a refusing copy, then a service an administrator changes while the order is placed.
  for (let round = 0; round < 3; round += 1) {
    const fresh = service === undefined;
    let plan: OrderPlan;
    try {
      service ??= await readOrderableService(db, id);
      plan = planOrder(service, input);
    } catch (error) {
      if (!(error instanceof AppError)) throw error;
      if (!fresh) {
        service = undefined;
        continue;
      }
      return earlierOrRefused(db, userId, options, input, error);
    }
    if (options.expectedChargeKobo !== undefined && plan.chargeKobo !== options.expectedChargeKobo) {
      if (!fresh) {
        service = undefined;
        continue;
      }
      return earlierOrRefused(db, userId, options, plan, priceChanged(options.expectedChargeKobo, plan.chargeKobo));
    }
    const placement = await chargeAndInsertOrder(db, userId, plan, { ...options, session: options.admission });
    if (placement.outcome === 'not admitted') {
      await options.admission?.admit();
      throw unauthenticated();
    }
    if (placement.outcome === 'placed earlier') return earlierOrder(placement.order, plan);
    if (placement.outcome === 'placed') return { created: true, id: placement.view.order.id, view: placement.view };
    service = undefined;
  }
  throw new AppError('unavailable', 'The service changed while your order was being placed. Please try again.');
}

/**
 * POST user/orders (which hands over the caller's session for the statement to check, `admission`) and the
 * reseller API's `add` (which names its key, `apiKeyId`): the placing statement, then the order on the submissions
 * queue; the provider is never waited for. `created` is false when the idempotency key named an earlier order.
 */
export async function placeOrder(
  db: Db,
  env: OrderEnv,
  userId: number,
  input: CreateOrderData,
  options: Omit<PlacingOptions, 'expectedChargeKobo'> = {},
): Promise<{ order: OrderView; created: boolean }> {
  const expectedChargeKobo = input.expectedCharge === undefined ? undefined : nairaToKobo(input.expectedCharge);
  const paid = await createPaidOrder(db, userId, input, { ...options, expectedChargeKobo });
  if (!paid.created) return { order: await getOrderView(db, userId, paid.id), created: false };
  await queueSubmissions(env, [paid.id]);
  return { order: toOrderView(paid.view), created: true };
}
