// What one seed's run knows: the stack it drives, its random source, the users it signed up, the
// deposits it started, the Idempotency-Keys it sent and what each was answered, and its tallies.
import type pg from 'pg';
import type { Answer, Session } from './http';
import { said } from './http';
import type { Random } from './prng';

/** The parts of a running stack the simulator drives. */
export interface SimStack {
  url: string;
  paystackUrl: string;
  smmProviderUrl: string;
  dropDatabaseConnections(): number;
}

export interface SimUser {
  id: number;
  session: Session;
  /** The user's reseller API key (/api/v2). */
  apiKey: string;
}

export interface SimDeposit {
  userId: number;
  reference: string;
  /** What the return page sends back to verify-payment. */
  payload: { checkoutUrl: string; signature: string; amount: number };
  /** What the payer did at the sandbox checkout. */
  outcome: 'success' | 'failed' | 'abandoned';
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
  deposits: SimDeposit[];
  keys: Map<string, KeyRecord>;
  /** Orders the simulator placed or tried to place (ids as the shop answered them). */
  orderIds: Set<number>;
  counter: number;
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
    keys: new Map(),
    orderIds: new Set(),
    counter: 0,
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
