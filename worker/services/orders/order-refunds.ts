// What a closed order pays back: the rule for every order type, in one place, as a pure function
// (closeOrder applies it; the sync asks it first whether a provider's answer is enough to close on).
//
// A Canceled or Partial order refunds exactly its undelivered part, floor(charge × undelivered /
// deliverable) kobo, in BigInt so no product can overflow. `deliverable` is what the order was
// billed for (planOrder), and each type says how the provider's answer counts against it:
//   - default orders count units, packages count packages, custom comments count lines (billed
//     lines = sent lines): the provider's `remains` is in the same unit;
//   - drip-feed: deliverable = quantity × runs; `remains` is against that, or else the runs done
//     (`runs`) leave (runs − done) × quantity undelivered;
//   - subscriptions: deliverable = max × posts; the posts done (`posts`) leave (posts − done) × max
//     undelivered, or else `remains` against deliverable. Panels charge subscriptions per post, so
//     one that ends (Completed, Expired) with fewer posts done than bought refunds the rest too;
//     so does a drip-feed reported Completed with fewer runs done.
// Over-delivery (negative remains) counts as fully delivered. An answer that does not fit the order
// (remains missing on a Partial, more than deliverable, runs or posts beyond the order) decides
// nothing: the order stays open for a person, and no money moves on a guess.
// A Canceled order that reports no progress was delivered nothing when the provider says so by
// charging nothing, or by saying nothing at all; one that charged something is left for a person.
import type { orders } from '../../../drizzle/schema';

type OrderRow = typeof orders.$inferSelect;
export type RefundableOrder = Pick<OrderRow, 'chargeKobo' | 'quantity' | 'deliverable' | 'extras'>;
export type FinalStatus = 'Completed' | 'Partial' | 'Canceled';

/** What is known about an order's delivery as it closes: the provider's answer, or an administrator's remains. */
export interface Delivery {
  /** Units not delivered, against `deliverable`; negative when over-delivered. */
  remains?: number | null;
  /** Drip-feed runs done. */
  runsDone?: number | null;
  /** Subscription posts done. */
  postsDone?: number | null;
  /** What the provider says it charged, in any currency: only "nothing" or "something" is read here. */
  chargeMicros?: bigint | null;
  /** Delivery fields the provider sent that could not be read. */
  unreadable?: readonly string[];
}

export type RefundOutcome = { status: FinalStatus; refundKobo: bigint; remains: number } | { status: null; problem: string };

type DeliveryKind = 'units' | 'drip-feed' | 'subscription';

/** The order's type as far as delivery goes, from the fields it was sent with. */
export function deliveryKind(order: Pick<RefundableOrder, 'extras'>): DeliveryKind {
  const extras = order.extras as Record<string, unknown> | null;
  if (extras?.posts !== undefined) return 'subscription';
  if (extras?.runs !== undefined) return 'drip-feed';
  return 'units';
}

/** A drip-feed's runs or a subscription's posts: what deliverable is quantity times. */
const runsOrPosts = (order: RefundableOrder) => Math.floor(order.deliverable / order.quantity);

type Undelivered = { units: number } | { problem: string } | null;

function fromRemains(remains: number | null | undefined, deliverable: number): Undelivered {
  if (remains === null || remains === undefined) return null;
  if (remains > deliverable) return { problem: `remains ${remains} is more than the ${deliverable} ordered` };
  return { units: Math.max(remains, 0) };
}

/** Runs or posts done out of `total`, each worth `per` units. */
function fromDone(done: number | null | undefined, total: number, per: number, what: string): Undelivered {
  if (done === null || done === undefined) return null;
  if (done < 0 || done > total) return { problem: `${what} done ${done} is outside the ${total} ordered` };
  return { units: (total - done) * per };
}

/** Undelivered units as the order's type reads the answer; null when the answer carries no progress. */
function undelivered(order: RefundableOrder, delivery: Delivery): Undelivered {
  const { quantity, deliverable } = order;
  switch (deliveryKind(order)) {
    case 'drip-feed':
      return fromRemains(delivery.remains, deliverable) ?? fromDone(delivery.runsDone, runsOrPosts(order), quantity, 'runs');
    case 'subscription':
      return fromDone(delivery.postsDone, runsOrPosts(order), quantity, 'posts') ?? fromRemains(delivery.remains, deliverable);
    case 'units':
      return fromRemains(delivery.remains, deliverable);
  }
}

/** Progress counted in runs or posts, which panels report for drip-feed and subscriptions even once they call them done. */
function shortOfRunsOrPosts(order: RefundableOrder, delivery: Delivery): number {
  const kind = deliveryKind(order);
  if (kind === 'units') return 0;
  const done = kind === 'drip-feed' ? delivery.runsDone : delivery.postsDone;
  const counted = fromDone(done, runsOrPosts(order), order.quantity, kind);
  return counted !== null && 'units' in counted ? counted.units : 0;
}

const share = (order: RefundableOrder, units: number) => (order.chargeKobo * BigInt(units)) / BigInt(order.deliverable);

/** The refund an order closing in `status` owes, and the status and remains it closes with. */
export function refundOwed(order: RefundableOrder, status: FinalStatus, delivery: Delivery = {}): RefundOutcome {
  if (status === 'Completed') {
    const short = shortOfRunsOrPosts(order, delivery);
    return short > 0 ? { status: 'Partial', refundKobo: share(order, short), remains: short } : { status: 'Completed', refundKobo: 0n, remains: 0 };
  }
  if (status === 'Canceled' && delivery.chargeMicros === 0n) {
    return { status, refundKobo: order.chargeKobo, remains: order.deliverable };
  }
  const counted = undelivered(order, delivery);
  if (counted !== null && 'problem' in counted) return { status: null, problem: counted.problem };
  if (counted !== null) {
    if (status === 'Canceled' && counted.units === 0) return { status: null, problem: 'canceled, yet reported fully delivered' };
    return { status, refundKobo: share(order, counted.units), remains: counted.units };
  }
  if (status === 'Partial') return { status: null, problem: 'partial, without saying how much was delivered' };
  if (delivery.chargeMicros !== null && delivery.chargeMicros !== undefined) {
    return { status: null, problem: 'canceled, yet charged without saying how much was delivered' };
  }
  if (delivery.unreadable?.length) return { status: null, problem: `canceled, with ${delivery.unreadable.join(', ')}` };
  return { status, refundKobo: order.chargeKobo, remains: order.deliverable };
}
