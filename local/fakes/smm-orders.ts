// The fake panel's orders: what `add` bills for each service type (validated as panels do), and
// how an order moves through Pending -> In progress -> Completed / Partial / Canceled as time
// passes. Drip-feed orders deliver whole runs and subscriptions whole posts and say how many are
// done (`runs`, `posts`), so one canceled or expired part-way has delivered part of what was bought.

import { ceilDiv, parseDecimal } from '../../worker/lib/decimal';
import type { CatalogueService } from './smm-catalogue';

export type Outcome = 'completed' | 'partial' | 'canceled';
type OrderKind = 'units' | 'drip-feed' | 'subscription';

export interface PanelOrder {
  id: number;
  service: CatalogueService;
  link: string;
  kind: OrderKind;
  /** Units billed and to deliver: every run, every post. */
  quantity: number;
  /** Units per run or post; 1 for other orders. */
  chunk: number;
  /** What `add` took from the balance, in micro-USD. */
  chargeMicros: bigint;
  createdAt: number;
  outcome: Outcome;
  startCount: number;
  canceledAt: number | null;
  /** Set by POST /__orders/:id: the status answer's fields, reported exactly so from then on. */
  pinned: Record<string, unknown> | null;
  /** Whether the final state's refund went back to the balance. */
  settled: boolean;
}

export interface OrderView {
  /** The status word the panel shows. */
  status: string;
  remains: number;
  startCount: number;
  chargeMicros: bigint;
  /** Runs or posts done, for drip-feed orders and subscriptions. */
  chunksDone: number | null;
  final: boolean;
}

export class PanelError extends Error {}

export const STEPS_TO_FINISH = 3;
/** Panels charge in units of 0.00001 USD, shown with five decimals. */
const CHARGE_GRANULARITY_MICROS = 10n;
const SUBSCRIPTION_DELAYS = new Set([0, 5, 10, 15, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 360, 420, 480, 540, 600]);
const FINAL_WORDS = /^(completed?|partial|cancell?ed|refunded|fail(ed)?|error|expired)$/i;

const roundCharge = (micros: bigint) => ceilDiv(micros, CHARGE_GRANULARITY_MICROS) * CHARGE_GRANULARITY_MICROS;

function requireWhole(value: string | undefined, message: string): number {
  if (value === undefined || !/^\d+$/.test(value.trim())) throw new PanelError(message);
  const parsed = Number(value.trim());
  if (!Number.isSafeInteger(parsed)) throw new PanelError(message);
  return parsed;
}

export function requireText(value: string | undefined, message: string): string {
  if (value === undefined || value.trim() === '') throw new PanelError(message);
  return value.trim();
}

function lines(value: string | undefined, message: string): string[] {
  const items = requireText(value, message)
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter((line) => line !== '');
  if (items.length === 0) throw new PanelError(message);
  return items;
}

function checkRange(service: CatalogueService, quantity: number): void {
  if (quantity < service.min) throw new PanelError(`Quantity less than minimal ${service.min}`);
  if (quantity > service.max) throw new PanelError(`Quantity more than maximal ${service.max}`);
}

type Plan = Pick<PanelOrder, 'link' | 'kind' | 'quantity' | 'chunk'> & { units: number };

/** Validates the fields the service type needs, as panels do; `units` is what the rate (per 1000) applies to. */
function plan(service: CatalogueService, params: Record<string, string>): Plan {
  if (service.type === 'Subscriptions') {
    const username = requireText(params.username, 'Incorrect username');
    const min = requireWhole(params.min, 'Incorrect min');
    const max = requireWhole(params.max, 'Incorrect max');
    if (min > max) throw new PanelError('Incorrect max');
    checkRange(service, min);
    checkRange(service, max);
    if (!SUBSCRIPTION_DELAYS.has(requireWhole(params.delay, 'Incorrect delay'))) throw new PanelError('Incorrect delay');
    const posts =
      (params.posts ? requireWhole(params.posts, 'Incorrect posts') : 1) + (params.old_posts ? requireWhole(params.old_posts, 'Incorrect old posts') : 0);
    // Billed up front for every post at the top of the range; what is not delivered goes back at the end.
    return { link: username, kind: 'subscription', quantity: max * posts, chunk: max, units: max * posts };
  }
  const link = requireText(params.link, 'Incorrect link');
  switch (service.type) {
    case 'Package': {
      const packages = params.quantity ? requireWhole(params.quantity, 'Incorrect quantity') : 1;
      checkRange(service, packages);
      return { link, kind: 'units', quantity: packages, chunk: 1, units: packages * 1000 };
    }
    case 'Custom Comments': {
      const quantity = lines(params.comments, 'Incorrect comments').length;
      checkRange(service, quantity);
      return { link, kind: 'units', quantity, chunk: 1, units: quantity };
    }
    case 'Mentions Custom List': {
      const quantity = lines(params.usernames, 'Incorrect usernames').length;
      checkRange(service, quantity);
      return { link, kind: 'units', quantity, chunk: 1, units: quantity };
    }
    default: {
      const quantity = requireWhole(params.quantity, 'Incorrect quantity');
      checkRange(service, quantity);
      if (service.type === 'Mentions with Hashtags') {
        lines(params.usernames, 'Incorrect usernames');
        lines(params.hashtags, 'Incorrect hashtags');
      }
      if (service.type === 'Mentions User Followers' || service.type === 'Comment Likes') requireText(params.username, 'Incorrect username');
      if (service.type === 'Mentions Media Likers') requireText(params.media, 'Incorrect media');
      if (service.type === 'Poll') requireWhole(params.answer_number, 'Incorrect answer number');
      if (params.runs !== undefined && params.runs !== '') {
        if (!service.dripfeed) throw new PanelError('Drip-feed is disabled for this service');
        const runs = requireWhole(params.runs, 'Incorrect runs');
        requireWhole(params.interval, 'Incorrect interval');
        if (runs < 1) throw new PanelError('Incorrect runs');
        return { link, kind: 'drip-feed', quantity: quantity * runs, chunk: quantity, units: quantity * runs };
      }
      return { link, kind: 'units', quantity, chunk: 1, units: quantity };
    }
  }
}

/** The order `add` would create (without id, time and outcome), priced in micro-USD. */
export function planOrder(service: CatalogueService, params: Record<string, string>): Omit<Plan, 'units'> & { chargeMicros: bigint } {
  const { units, ...rest } = plan(service, params);
  return { ...rest, chargeMicros: roundCharge(ceilDiv(parseDecimal(service.rate, 6) * BigInt(units), 1000n)) };
}

/** Where an order stands at `now`, given the time each progress step takes. */
export function progress(order: PanelOrder, stepMs: number, now = Date.now()): OrderView {
  if (order.pinned) {
    const status = String(order.pinned.status ?? '');
    return {
      status,
      remains: Number(order.pinned.remains) || 0,
      startCount: order.startCount,
      chargeMicros: order.chargeMicros,
      chunksDone: null,
      final: FINAL_WORDS.test(status),
    };
  }
  const chunks = order.quantity / order.chunk;
  const at = (done: number, status: string, final: boolean): OrderView => ({
    status,
    remains: order.quantity - done * order.chunk,
    startCount: status === 'Pending' ? 0 : order.startCount,
    // The panel keeps only what the delivered part costs once the order is over.
    chargeMicros: final && done < chunks ? roundCharge((order.chargeMicros * BigInt(done)) / BigInt(chunks)) : order.chargeMicros,
    chunksDone: order.kind === 'units' ? null : done,
    final,
  });
  const stepsAt = (time: number) => Math.floor((time - order.createdAt) / Math.max(1, stepMs));
  const doneAt = (step: number) => Math.floor((chunks * Math.min(step, STEPS_TO_FINISH)) / STEPS_TO_FINISH);
  if (order.canceledAt !== null) return at(doneAt(stepsAt(order.canceledAt)), 'Canceled', true);
  const step = stepsAt(now);
  if (step === 0) return at(0, 'Pending', false);
  if (step < STEPS_TO_FINISH) return at(doneAt(step), order.kind === 'subscription' ? 'Active' : 'In progress', false);
  if (order.outcome === 'completed' || chunks <= 1) {
    return order.outcome === 'canceled' ? at(0, 'Canceled', true) : at(chunks, 'Completed', true);
  }
  // Deterministic per id: 15% to 34% of the order is left undelivered.
  const partDone = chunks - Math.max(1, Math.floor((chunks * (15 + (order.id % 20))) / 100));
  if (order.outcome === 'partial') return at(partDone, order.kind === 'subscription' ? 'Expired' : 'Partial', true);
  // A single delivery is canceled before it starts; runs and posts already delivered stay delivered.
  return at(order.kind === 'units' ? 0 : partDone, 'Canceled', true);
}
