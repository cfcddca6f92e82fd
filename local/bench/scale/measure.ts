// One call's latency through the real Worker (in workerd, the injected latency on its database link) and its
// database round trips, counted at the link for one request on a quiet database. Under load, CONNECTIONS clients ask
// one after another for SECONDS, each reading the whole answer with node:http. Not autocannon: its HTTP parser (in
// JavaScript) took 8 ms to read a 580 KB answer from workerd that node:http reads in 1.5 (curl 1.4), so a download's
// figure was the measuring client's. Calls that take over a second alone are timed sequentially (SCALE_SLOW_REQUESTS
// times) instead, so an export or the reconciliation at full volume cannot eat the run.
import http from 'node:http';
import type { RunningStack } from '../../stack/stack';
import { untilDatabaseQuiet } from '../database-quiet';

export const SECONDS = Number(process.env.SCALE_SECONDS ?? 3);
export const CONNECTIONS = Number(process.env.SCALE_CONNECTIONS ?? 4);
const SLOW_MS = 1000;
/** How long the database link must carry nothing before a counted request. */
export const QUIET_MS = 300;
const VERY_SLOW_MS = 8000;
const SLOW_REQUESTS = Number(process.env.SCALE_SLOW_REQUESTS ?? 3);
/** How long a request under load may go without a byte before it counts as failed. */
const LOAD_TIMEOUT_MS = 60_000;
/** What Chromium says it takes: a screen's download (the ledger export's file) comes as the browser would get it. */
const BROWSER_ACCEPT_ENCODING = 'gzip, deflate, br, zstd';

export interface Measured {
  p50: number;
  p99: number;
  requests: number;
  failures: number;
  /** 'load': CONNECTIONS clients for SECONDS; 'sequential': a slow call, timed one request at a time. */
  mode: 'load' | 'sequential';
  roundTrips: number;
  statements: number;
  httpCalls: number;
  connections: number;
  status: number;
  /** The counted answer's size as it came on the wire. */
  bytes: number;
  /** The first failing answer's start, for the report. */
  error?: string;
}

/** Kept-alive connections, as autocannon's and a browser's are. */
const agent = new http.Agent({ keepAlive: true, maxSockets: CONNECTIONS });

/**
 * One GET, timed to its answer's last byte as it came on the wire (gzipped, if the Worker gzipped it): the shop's
 * time, not the client's unpacking. The body is read as text only for a failure's message.
 */
function timedGet(url: string, headers: Record<string, string>, timeoutMs = 300_000): Promise<{ ms: number; status: number; bytes: number; text: string }> {
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const request = http.get(url, { headers, agent }, (response) => {
      const status = response.statusCode ?? 0;
      const failed: Buffer[] = [];
      let bytes = 0;
      response.on('data', (chunk: Buffer) => {
        bytes += chunk.length;
        if (status >= 300) failed.push(chunk);
      });
      response.on('error', reject);
      response.on('end', () => resolve({ ms: performance.now() - started, status, bytes, text: Buffer.concat(failed).toString('utf8') }));
    });
    request.setTimeout(timeoutMs, () => request.destroy(new Error(`nothing came for ${timeoutMs} ms`)));
    request.on('error', reject);
  });
}

const sorted = (values: number[]) => [...values].sort((x, y) => x - y);
const median = (values: number[]) => sorted(values)[Math.floor(values.length / 2)];

/** CONNECTIONS clients, each asking again as soon as its answer is read, for SECONDS: every answer's time, and the failures. */
async function underLoad(url: string, headers: Record<string, string>): Promise<{ times: number[]; failures: number }> {
  const times: number[] = [];
  let failures = 0;
  const until = performance.now() + SECONDS * 1000;
  const client = async () => {
    while (performance.now() < until) {
      const answer = await timedGet(url, headers, LOAD_TIMEOUT_MS).catch(() => null);
      if (answer && answer.status < 300) times.push(answer.ms);
      else failures += 1;
    }
  };
  await Promise.all(Array.from({ length: CONNECTIONS }, client));
  return { times, failures };
}

export async function measureCall(stack: RunningStack, path: string, sessionHeaders: Record<string, string>): Promise<Measured> {
  const headers = { 'accept-encoding': BROWSER_ACCEPT_ENCODING, ...sessionHeaders };
  const url = `${stack.url.replace('localhost', '127.0.0.1')}${path}`;
  // The first request, alone on a quiet database, is counted; the phase warmed the isolate's caches before its first call.
  await untilDatabaseQuiet(stack, QUIET_MS);
  const before = stack.databaseTraffic();
  const counted = await timedGet(url, headers);
  const after = stack.databaseTraffic();
  const work = {
    roundTrips: after.roundTrips - before.roundTrips,
    statements: after.statements - before.statements,
    httpCalls: after.httpCalls - before.httpCalls,
    connections: after.connections - before.connections,
    status: counted.status,
    bytes: counted.bytes,
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
      const again = await timedGet(url, headers);
      times.push(again.ms);
      if (again.status >= 400) failures += 1;
    }
    return { p50: median(times), p99: Math.max(...times), requests: times.length, failures, mode: 'sequential' as const, ...work };
  };
  // Too slow for a few seconds of load to say anything: timed one after another.
  if (counted.ms > Math.min(SLOW_MS, (SECONDS * 1000) / 5)) return sequential();
  const { times, failures } = await underLoad(url, headers);
  await untilDatabaseQuiet(stack, QUIET_MS);
  // Every answer under load failed (a limit, a timeout): timed one after another instead.
  if (times.length === 0) return sequential();
  const inOrder = sorted(times);
  return {
    p50: median(inOrder),
    p99: inOrder[Math.min(inOrder.length - 1, Math.floor(inOrder.length * 0.99))],
    requests: times.length + failures,
    failures,
    mode: 'load',
    ...work,
  };
}
