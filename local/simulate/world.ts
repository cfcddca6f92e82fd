// What one seed's run knows: the stack it drives, its random source, the users it signed up (and who
// referred them), the deposits and bank transfers it started, the refunds and disputes it made at the
// payment providers with their webhooks and how each delivery went, the Idempotency-Keys it sent and what
// each was answered, and its tallies.
import type pg from 'pg';
import type { Answer, Session } from './http';
import { said } from './http';
import type { Random } from './prng';

/** The parts of a running stack the simulator drives. */
export interface SimStack {
  url: string;
  paystackUrl: string;
  flutterwaveUrl: string;
  smmProviderUrl: string;
  /** The sandbox mailbox, where a sign-up's confirmation link is read as its owner would. */
  mailboxUrl: string;
  dropDatabaseConnections(): number;
}

export type PaymentProviderName = 'paystack' | 'flutterwave';

export interface SimUser {
  id: number;
  email: string;
  session: Session;
  /** The user's reseller API key (/api/v2); none until the address is confirmed. */
  apiKey: string | null;
  /** The (public) address the account was registered from. */
  ip: string;
  /** The browser it was registered on: the shop's device cookie at sign-up (null if the shop set none). */
  device: string | null;
  /** Who referred the user (the sign-up carried their code), or null. */
  referrerId: number | null;
  /** The user's own referral code, once asked for (GET user/referrals). */
  code: string | null;
  /** The user's dedicated account number for bank transfers, once asked for. */
  accountNumber: string | null;
}

export interface SimDeposit {
  userId: number;
  reference: string;
  provider: PaymentProviderName;
  channel: 'card' | 'bank_transfer';
  amountKobo: number;
  /**
   * What paid: `card:<name>` (the fakes' card of that name, by default the payer's lower-cased email) or
   * `bank:<name>` (the sending bank account of a transfer). The same text is the same card or account.
   */
  instrument: string;
  /** What the return page sends back to verify-payment; null for a bank transfer (no return page). */
  payload: { checkoutUrl: string; signature: string; amount: number } | null;
  /** What the payer did at the sandbox checkout (a transfer is always paid). */
  outcome: 'success' | 'failed' | 'abandoned';
}

/** How far one webhook got: never sent to the shop, answered 200, or sent without a 200 (it may or may not have acted). */
export type Delivery = 'pending' | 'delivered' | 'doubt';

/** A refund or dispute event the simulator made a provider send, as the provider recorded it. */
export interface SimReversalEvent {
  provider: PaymentProviderName;
  /** The payment's reference (ours for a card payment, the provider's for a transfer). */
  reference: string;
  /** The provider's webhook record: its place in the provider's log, the exact bytes and their signature. */
  record: { id: number; event: string; body: string; signature: string };
  kind: 'refund' | 'dispute';
  /** The refund or dispute it is about (the provider's id): events with one key are one reversal's history. */
  key: string;
  /** What it says of that reversal: a refund is taken; a dispute open, won by the shop, or lost (accepted) by it. */
  state: 'taken' | 'open' | 'won' | 'lost';
  /** The amount it states in kobo (a lost dispute's: what was accepted). */
  amountKobo: number;
  delivery: Delivery;
}

/** A dispute the simulator opened at a provider, until it resolves it. */
export interface SimDispute {
  provider: PaymentProviderName;
  id: number;
  reference: string;
  amountKobo: number;
  /** Flutterwave's "declined" (the merchant contests it) leaves it open; then it is won or lost. */
  declined: boolean;
  resolved: boolean;
}

/** The referral programme as this seed set it (admin/referrals/settings). */
export interface SimReferralSettings {
  enabled: boolean;
  ratePercent: string;
  holdDays: number;
  /** Naira, or null for no cap. */
  capPerReferred: string | null;
}

/** An Idempotency-Key and everything the shop answered under it. */
export interface KeyRecord {
  userId: number;
  key: string;
  link: string;
  /** Order ids the answers named. */
  orderIds: Set<number>;
  /** Answers that said the order was created now (201 from /api/v1). */
  created: number;
}

export interface Tallies {
  /** Operations done, by name. */
  ops: Map<string, number>;
  /** Answers no operation expects (a 500 without a dropped connection, say), by call and status: worth reading, not failures. */
  surprises: Map<string, number>;
  /** Database connections cut. */
  dropped: number;
  /** Requests the simulator hung up on. */
  aborted: number;
}

export interface World {
  seed: number;
  /** Unique to this run and seed: links and keys never repeat across runs against the same panel. */
  tag: string;
  step: number;
  users: SimUser[];
  /** Card deposits and bank transfers, paid or not. */
  deposits: SimDeposit[];
  /** The provider new card deposits go to (the shop's payment settings, as this seed set them). */
  provider: PaymentProviderName;
  referral: SimReferralSettings | null;
  /** Every refund and dispute event of this seed, in the order the providers sent them. */
  reversalEvents: SimReversalEvent[];
  disputes: SimDispute[];
  keys: Map<string, KeyRecord>;
  /** Orders the simulator placed or tried to place (ids as the shop answered them). */
  orderIds: Set<number>;
  counter: number;
  /** Where the sandbox panel sends its webhooks this seed, and its secret; null when it sends none (ops-panel-webhooks.ts). */
  panelWebhooks: { url: string; secret: string } | null;
  /** Step at which a whole-panel mode the simulator switched on (no_balance, fail, garbage) ends; null when none is on. */
  panelModeUntil: number | null;
  /** Set while the step cuts the database connections: answers of 5xx and lost requests are then expected. */
  dropping: boolean;
  /** Set while the step hangs up on its main request this many ms after sending it (takeHangUp). */
  hangUpAfterMs: number | null;
  tallies: Tallies;
}

export interface Sim {
  stack: SimStack;
  rng: Random;
  /** A direct connection to the stack's Postgres (not through the bridge the simulator cuts). */
  pg: pg.Client;
  admin: Session;
  world: World;
  verbose: boolean;
}

export function newWorld(seed: number, tag: string): World {
  return {
    seed,
    tag,
    step: 0,
    users: [],
    deposits: [],
    provider: 'paystack',
    referral: null,
    reversalEvents: [],
    disputes: [],
    keys: new Map(),
    orderIds: new Set(),
    counter: 0,
    panelWebhooks: null,
    panelModeUntil: null,
    dropping: false,
    hangUpAfterMs: null,
    tallies: { ops: new Map(), surprises: new Map(), dropped: 0, aborted: 0 },
  };
}

/** A name no earlier step, seed or run used: for links, usernames, keys and references. */
export function fresh(world: World, prefix: string): string {
  world.counter += 1;
  return `${prefix}-${world.tag}-${world.counter}`;
}

/**
 * Notes an answer outside `expected` as a surprise (a 5xx while the database was cut is expected by
 * the operations that cut it). Returns whether it was expected.
 */
export function expect(sim: Sim, what: string, answer: Answer, expected: readonly number[]): boolean {
  if (answer.kind === 'aborted') {
    sim.world.tallies.aborted += 1;
    return true;
  }
  if (answer.kind === 'answered' && expected.includes(answer.status)) return true;
  // A cut connection fails the statement in flight: the shop answers 5xx (or the request is lost).
  if (sim.world.dropping && (answer.kind === 'failed' || answer.status >= 500)) return true;
  const message = answer.kind === 'answered' ? String(answer.body?.message ?? answer.body?.error ?? answer.text).slice(0, 120) : answer.error.slice(0, 120);
  const key = `${what} ${said(answer)}: ${message}`;
  sim.world.tallies.surprises.set(key, (sim.world.tallies.surprises.get(key) ?? 0) + 1);
  return false;
}

/** The hang-up the step asked for, for its main request only (the retry that follows is sent in full). */
export function takeHangUp(sim: Sim): number | undefined {
  const ms = sim.world.hangUpAfterMs;
  sim.world.hangUpAfterMs = null;
  return ms ?? undefined;
}

/** Counts an operation (by its name) in the seed's tallies. */
export function tally(sim: Sim, name: string): void {
  sim.world.tallies.ops.set(name, (sim.world.tallies.ops.get(name) ?? 0) + 1);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Posts a control body to one of the sandbox fakes. */
export async function control(baseUrl: string, body: Record<string, unknown>): Promise<void> {
  const response = await fetch(`${baseUrl}/__control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  if (!response.ok) throw new Error(`${baseUrl}/__control refused ${JSON.stringify(body)}: ${response.status} ${await response.text()}`);
}
