// Measuring: the floors (a bare `select 1` over the Worker's database link, three ways) and each
// hot call's latency under load and database work per request, counted at the link.
import { neon, neonConfig } from '@neondatabase/serverless';
import autocannon from 'autocannon';
import { sql } from 'drizzle-orm';
import { openPoolDatabase } from '../../worker/db';
// Gives the driver Node's WebSocket.
import '../stack/node-db';
import type { DatabaseTraffic, RunningStack } from '../stack/stack';
import { untilDatabaseQuiet } from './database-quiet';
import type { CpuProfile, WorkerProfiler } from './worker-profile';

export const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
export const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Requests whose database work is counted, one at a time, per call. */
const COUNTED_REQUESTS = 5;
/** How long the database link must carry nothing before a counted request. */
const QUIET_MS = 500;

export interface Stats {
  p50: number;
  p99: number;
  perSecond: number;
}

/** Database work per request (or per query), counted at the link. */
export interface Work {
  roundTrips: number;
  statements: number;
  /** New WebSocket connections. */
  connections: number;
  httpCalls: number;
}

export interface CallResult extends Stats, Work {
  name: string;
  /** Round trips after the answer was sent (waitUntil work, the queue consumer): off the request's path, still paid for. */
  roundTripsAfterAnswer: number;
  floorRatio: number;
  requests: number;
  failures: number;
}

export interface FloorResult extends Stats, Work {
  name: string;
}

/** One benchmarked call; headers and body are made per request (rotating users, unique keys). */
export interface Call {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers(): Record<string, string>;
  body?(): string;
  /**
   * How long the database must stay untouched before its work counts as done: longer than a queue's
   * batch timeout for a call that queues work, or that work lands in the next request's count.
   */
  quietMs?: number;
}

export function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

function workBetween(before: DatabaseTraffic, after: DatabaseTraffic, count = 1): Work {
  return {
    roundTrips: (after.roundTrips - before.roundTrips) / count,
    statements: (after.statements - before.statements) / count,
    connections: (after.connections - before.connections) / count,
    httpCalls: (after.httpCalls - before.httpCalls) / count,
  };
}

const addWork = (total: Work, work: Work): Work => ({
  roundTrips: total.roundTrips + work.roundTrips,
  statements: total.statements + work.statements,
  connections: total.connections + work.connections,
  httpCalls: total.httpCalls + work.httpCalls,
});

/** How a floor's `select 1` reaches Postgres. */
export type FloorPath = 'open connection' | 'new connection' | 'http';

/** Opens what one loop of `select 1`s uses: a query function, and what to do after each query and at the end. */
function floorClient(stack: RunningStack, path: FloorPath) {
  const env = { DATABASE_URL: stack.databaseUrl, DB_WS_PROXY: stack.dbWsProxy };
  if (path === 'http') {
    neonConfig.fetchEndpoint = stack.dbHttpEndpoint;
    const query = neon(stack.databaseUrl);
    return { run: async () => void (await query`select 1`), afterEach: async () => {}, end: async () => {} };
  }
  if (path === 'open connection') {
    const shared = openPoolDatabase(env);
    return { run: async () => void (await shared.db.execute(sql`select 1`)), afterEach: async () => {}, end: () => shared.close() };
  }
  // Like the Worker's WebSocket path, which opens a new pool, hence a new connection, for every request.
  let current = openPoolDatabase(env);
  return {
    run: async () => void (await current.db.execute(sql`select 1`)),
    afterEach: async () => {
      await current.close();
      current = openPoolDatabase(env);
    },
    end: () => current.close(),
  };
}

/** `select 1` from CONNECTIONS loops for SECONDS, then the database work of one more, alone. */
export async function measureFloor(stack: RunningStack, name: string, path: FloorPath): Promise<FloorResult> {
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const loop = async () => {
    const client = floorClient(stack, path);
    try {
      // Steady state: the open connection opened, the endpoint's pool connected, before timing starts.
      if (path !== 'new connection') await client.run();
      while (performance.now() < deadline) {
        const started = performance.now();
        await client.run();
        latencies.push(performance.now() - started);
        await client.afterEach();
      }
    } finally {
      await client.end();
    }
  };
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const elapsed = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);

  const counted = floorClient(stack, path);
  try {
    if (path === 'open connection') await counted.run();
    await untilDatabaseQuiet(stack, QUIET_MS);
    const before = stack.databaseTraffic();
    await counted.run();
    await untilDatabaseQuiet(stack, QUIET_MS);
    return {
      name,
      p50: percentile(latencies, 0.5),
      p99: percentile(latencies, 0.99),
      perSecond: latencies.length / elapsed,
      ...workBetween(before, stack.databaseTraffic()),
    };
  } finally {
    await counted.end();
  }
}

async function send(stack: RunningStack, call: Call): Promise<number> {
  const response = await fetch(`${stack.url}${call.path}`, { method: call.method, headers: call.headers(), body: call.body?.() });
  await response.arrayBuffer();
  return response.status;
}

/**
 * Database work per request, counted at the link: what happens while the request waits for its
 * answer (its round trips are counted as Postgres answers, before the answer travels back), and
 * what follows it (waitUntil work, the queue consumer). One request at a time, the database quiet
 * before each, so no other work is counted with it.
 */
async function countDatabaseWork(stack: RunningStack, call: Call): Promise<{ during: Work; after: Work }> {
  const none: Work = { roundTrips: 0, statements: 0, connections: 0, httpCalls: 0 };
  let during = none;
  let after = none;
  for (let i = 0; i < COUNTED_REQUESTS; i++) {
    await untilDatabaseQuiet(stack, call.quietMs ?? QUIET_MS);
    const sent = stack.databaseTraffic();
    const status = await send(stack, call);
    const answered = stack.databaseTraffic();
    if (status >= 400) throw new Error(`${call.name} answered ${status} while being counted`);
    await untilDatabaseQuiet(stack, call.quietMs ?? QUIET_MS);
    during = addWork(during, workBetween(sent, answered, COUNTED_REQUESTS));
    after = addWork(after, workBetween(answered, stack.databaseTraffic(), COUNTED_REQUESTS));
  }
  return { during, after };
}

async function load(stack: RunningStack, call: Call) {
  const result = await autocannon({
    url: stack.url.replace('localhost', '127.0.0.1'),
    connections: CONNECTIONS,
    duration: SECONDS,
    requests: [{ method: call.method, path: call.path, setupRequest: (request) => ({ ...request, headers: call.headers(), body: call.body?.() }) }],
  });
  return { result, failures: result.non2xx + result.errors + result.timeouts };
}

/**
 * A call's latency under CONNECTIONS concurrent clients for SECONDS, and its database work per request; with a
 * profiler, the Worker's CPU profile over the load (`onProfile` gets it with the number of requests).
 */
export async function measure(
  stack: RunningStack,
  call: Call,
  floorMs: number,
  profiling?: { profiler: WorkerProfiler; onProfile(profile: CpuProfile, requests: number): void },
): Promise<CallResult> {
  const { during, after } = await countDatabaseWork(stack, call);
  await profiling?.profiler.start();
  const { result, failures } = await load(stack, call);
  if (profiling) profiling.onProfile(await profiling.profiler.stop(), result.requests.total);
  return {
    name: call.name,
    p50: result.latency.p50,
    p99: result.latency.p99,
    perSecond: result.requests.average,
    floorRatio: result.latency.p50 / floorMs,
    ...during,
    roundTripsAfterAnswer: after.roundTrips,
    requests: result.requests.total,
    failures,
  };
}
