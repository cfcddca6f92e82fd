// One call's latency through the real Worker (in workerd, the injected latency on its database link) and its
// database round trips, counted at the link for one request on a quiet database. Calls that take over a second
// alone are timed sequentially (SCALE_SLOW_REQUESTS times) instead of under autocannon, so an export or the
// reconciliation at full volume cannot eat the run.
import autocannon from 'autocannon';
import type { RunningStack } from '../../stack/stack';
import { untilDatabaseQuiet } from '../database-quiet';

export const SECONDS = Number(process.env.SCALE_SECONDS ?? 3);
export const CONNECTIONS = Number(process.env.SCALE_CONNECTIONS ?? 4);
const SLOW_MS = 1000;
/** How long the database link must carry nothing before a counted request. */
export const QUIET_MS = 300;
const VERY_SLOW_MS = 8000;
const SLOW_REQUESTS = Number(process.env.SCALE_SLOW_REQUESTS ?? 3);

export interface Measured {
  p50: number;
  p99: number;
  requests: number;
  failures: number;
  /** 'load': autocannon; 'sequential': a slow call, timed one request at a time. */
  mode: 'load' | 'sequential';
  roundTrips: number;
  statements: number;
  httpCalls: number;
  connections: number;
  status: number;
  /** The first failing answer's start, for the report. */
  error?: string;
}

async function timedFetch(url: string, headers: Record<string, string>): Promise<{ ms: number; status: number; text: string }> {
  const started = performance.now();
  const response = await fetch(url, { headers, signal: AbortSignal.timeout(300_000) });
  const text = await response.text();
  return { ms: performance.now() - started, status: response.status, text };
}

const median = (values: number[]) => [...values].sort((x, y) => x - y)[Math.floor(values.length / 2)];

export async function measureCall(stack: RunningStack, path: string, headers: Record<string, string>): Promise<Measured> {
  const url = `${stack.url.replace('localhost', '127.0.0.1')}${path}`;
  // The first request, alone on a quiet database, is counted; the phase warmed the isolate's caches before its first call.
  await untilDatabaseQuiet(stack, QUIET_MS);
  const before = stack.databaseTraffic();
  const counted = await timedFetch(url, headers);
  const after = stack.databaseTraffic();
  const work = {
    roundTrips: after.roundTrips - before.roundTrips,
    statements: after.statements - before.statements,
    httpCalls: after.httpCalls - before.httpCalls,
    connections: after.connections - before.connections,
    status: counted.status,
  };
  if (counted.status >= 400) {
    return { p50: counted.ms, p99: counted.ms, requests: 1, failures: 1, mode: 'sequential', ...work, error: counted.text.slice(0, 200) };
  }
  await untilDatabaseQuiet(stack, QUIET_MS);
  const sequential = async () => {
    const times = [counted.ms];
    let failures = 0;
    // A call of many seconds is timed once: at full volume the run would otherwise be its repeats.
    const repeats = counted.ms > VERY_SLOW_MS ? 0 : SLOW_REQUESTS - 1;
    for (let i = 0; i < repeats; i++) {
      const again = await timedFetch(url, headers);
      times.push(again.ms);
      if (again.status >= 400) failures += 1;
    }
    return { p50: median(times), p99: Math.max(...times), requests: times.length, failures, mode: 'sequential' as const, ...work };
  };
  // Too slow for a few seconds of load to say anything: timed one after another.
  if (counted.ms > Math.min(SLOW_MS, (SECONDS * 1000) / 5)) return sequential();
  const result = await autocannon({
    url,
    connections: CONNECTIONS,
    duration: SECONDS,
    timeout: 60,
    requests: [{ method: 'GET', path, headers }],
  });
  await untilDatabaseQuiet(stack, QUIET_MS);
  // No answer came back within the run (each took longer under load than alone): timed one after another instead.
  if (result.latency.p50 === 0 || result['2xx'] === 0) return sequential();
  return {
    p50: result.latency.p50,
    p99: result.latency.p99,
    requests: result.requests.total,
    failures: result.non2xx + result.errors + result.timeouts,
    mode: 'load',
    ...work,
  };
}
