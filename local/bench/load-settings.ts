// `npm run load`'s knobs (environment variables), the kinds of traffic and what the runs and the checks share.
//
// Without LOAD_VOLUME: today's run (300 users, 200 connections, 60 s, no resellers). With LOAD_VOLUME=<factor>:
// the throwaway database first gets a busy panel's year at that factor (1: 2,000,000 orders), then 500 customers
// and 50 resellers for 300 s. Each default is overridable.

function numberFrom(name: string, fallback: number, { integer = true, positive = false } = {}): number {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isFinite(value) || value < 0 || (positive && value === 0) || (integer && !Number.isInteger(value)))
    throw new Error(`${name} must be a ${positive ? 'positive' : 'non-negative'} ${integer ? 'whole ' : ''}number, not ${raw}`);
  return value;
}

/** The seeded volume's share of a busy panel's year (bench:scale's SCALE_FACTOR); null: no seeding, today's run. */
export const VOLUME: number | null = process.env.LOAD_VOLUME ? numberFrom('LOAD_VOLUME', 0, { integer: false, positive: true }) : null;
export const SECONDS = numberFrom('LOAD_SECONDS', VOLUME === null ? 60 : 300, { positive: true });
export const CONNECTIONS = numberFrom('LOAD_CONNECTIONS', 200, { positive: true });
export const USERS = numberFrom('LOAD_USERS', VOLUME === null ? 300 : 500, { positive: true });
/** Users with an API key who speak the reseller API v2; none by default without LOAD_VOLUME, so today's run stays comparable. */
export const RESELLERS = numberFrom('LOAD_RESELLERS', VOLUME === null ? 0 : 50);
/** Calls per second each reseller's tool makes (paced, round robin over the keys: well inside the per-key limits). */
export const RESELLER_RATE = numberFrom('LOAD_RESELLER_RATE', 2, { integer: false, positive: true });
/**
 * The reconciliation asked after the load: `full` reads every wallet and ledger row (a minute of database time at
 * full volume, still inside the request's wait), `recent` what the hourly run reads. Without LOAD_VOLUME no scope is
 * sent, as before (on a fresh shop with no clean run yet, the shop reads everything anyway).
 */
export const RECONCILIATION_SCOPE: 'full' | 'recent' | null = (() => {
  const asked = process.env.LOAD_RECONCILIATION;
  if (asked === 'full' || asked === 'recent') return asked;
  if (asked) throw new Error(`LOAD_RECONCILIATION must be full or recent, not ${asked}`);
  return VOLUME === null ? null : 'full';
})();

/**
 * After the load, wait up to this long for the submissions queue to send the load's orders to the provider before the
 * books are read (0: read them at once, as before), so `add` at most once is checked on orders that were sent.
 */
export const DRAIN_SECONDS = numberFrom('LOAD_DRAIN_SECONDS', 0);

/** Each customer kind of traffic gets this share of the connections; resellers get one connection each on top. */
export const MIX = { browsing: 0.35, balance: 0.2, orders: 0.35, payments: 0.1 } as const;
export type CustomerKind = keyof typeof MIX;
export type Kind = CustomerKind | 'reseller';

export const connectionsOf = (kind: Kind) => (kind === 'reseller' ? RESELLERS : Math.max(1, Math.round(CONNECTIONS * MIX[kind])));

/** Order requests that repeat an earlier order request of the same user, key and body. */
export const ORDER_REPEAT_SHARE = 0.15;
/** Sign-ups run this many at a time (each hashes a password in the Worker). */
export const SETUP_PARALLELISM = 16;
/** The sandbox panel's services the orders use: Instagram Likes and Views, ordered by link and quantity. */
export const ORDERED_PROVIDER_SERVICES = ['1031', '1041'];

/** An access token lasts 15 minutes; the load and the checks must end before it does. */
export const TOKEN_LIFE_MS = 15 * 60_000;

/** A user the load signed up, with what signs them in again when their access token would run out before the end. */
export interface SignedInAccount {
  id: number;
  token: string;
  email: string;
  password: string;
  ip: string;
  signedInAt: number;
}

export interface Orderable {
  id: number;
  min: number;
}

/** One order request (and its repeats): a customer's Idempotency-Key or a reseller's request_id. */
export interface OrderAttempt {
  userId: number;
  /** A customer's access token, or a reseller's API key. */
  token: string;
  key: string;
  body: string;
  link: string;
  via: 'customer' | 'reseller';
}

export interface KeyOutcome {
  attempt: OrderAttempt;
  /** HTTP statuses; a reseller's refusal (HTTP 200 with {"error"}) is written down as 400. */
  statuses: number[];
  orderIds: Set<number>;
  /** 201s (customers only: the reseller API answers a first order and a replay alike). */
  created: number;
}

export const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

export async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map((item, offset) => work(item, start + offset)))));
  }
  return results;
}

/** What the server errors (5xx) said and the resellers' refusals, per kind of traffic and message, with how often. */
export type Tally = Map<string, number>;
export const count = (tally: Tally, key: string) => tally.set(key, (tally.get(key) ?? 0) + 1);
