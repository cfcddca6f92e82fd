// `npm run bench`: the hot calls of the shop measured on the stack `npm start` runs (built SPA,
// the Worker in workerd, embedded Postgres behind the WebSocket bridge and the SQL-over-HTTP endpoint,
// sandbox providers), on its own port and a throwaway database.
//
// It sees the network: the Worker runs at the edge near the user and Neon in one region, so
// BENCH_DB_LATENCY_MS (default 25, 0 for none) is added each way on the Worker's database link,
// to every WebSocket chunk and HTTP request and answer, and a new WebSocket connection is held for
// its handshake (TCP, TLS 1.3, upgrade: local/stack/ws-bridge.ts). Database round trips are counted at the
// link: the handshake's, each flight of Postgres messages that waits for an answer, and one per
// HTTP call. For each call: p50/p99 latency and requests per second under autocannon on loopback,
// round trips, statements, new connections and HTTP calls per request (while it waits for its
// answer; the round trips after it, waitUntil work and queued jobs, apart), and the ratio of its p50 to
// the true floor: one round trip plus an open-connection `select 1`, i.e. `select 1` on an open
// connection with the latency injected. Also admin credits per second under concurrency (then
// reconciled to the kobo), the SPA's first-load JavaScript gzipped, and the time Chromium takes to
// show the first row of the 5,000-service list. Prints one table; writes bench-results/latest.json.
// For quick iteration: BENCH_CALLS=services,verify measures only the calls whose name contains one of
// those (the floors always), and BENCH_BROWSER=0 leaves out the SPA build, its size, Chromium and Lighthouse.
// BENCH_PROFILE=1 also takes a CPU profile of the Worker under each call's load (worker-profile.ts).
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { root, startThrowawayStack } from '../stack/stack';
import { runScript, StartupError } from '../stack/startup-error';
import { BROWSER_LOADS, firstLoadJavaScript, timeToServicesList } from './browser';
import { callFilterFrom } from './call-filter';
import { auditPages } from './lighthouse-audit';
import { type Call, type CallResult, CONNECTIONS, type FloorResult, measure, measureFloor, SECONDS } from './measure';
import { CATALOGUE_SIZE, nextId, prepareUsers, routeExists, seedCatalogue, settledPayment } from './prepare';
import { callApi } from './shop-client';
import { printTable } from './table';
import { type CpuProfile, connectProfiler, reportProfile } from './worker-profile';

function databaseLatencyMs(): number {
  const value = Number(process.env.BENCH_DB_LATENCY_MS ?? 25);
  if (!Number.isFinite(value) || value < 0)
    throw new StartupError(`BENCH_DB_LATENCY_MS=${process.env.BENCH_DB_LATENCY_MS} is no latency: give milliseconds each way (0 for none).`);
  return value;
}

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);
const per = (value: number) => value.toFixed(Number.isInteger(value) ? 0 : 1);

const row = (result: FloorResult | CallResult, floorMs: number) => [
  result.name,
  ms(result.p50),
  ms(result.p99),
  result.perSecond.toFixed(0),
  (result.p50 / floorMs).toFixed(2),
  per(result.roundTrips),
  per(result.statements),
  per(result.connections),
  per(result.httpCalls),
  'roundTripsAfterAnswer' in result ? per(result.roundTripsAfterAnswer) : '-',
  'failures' in result ? String(result.failures) : '-',
];

async function main() {
  const latencyMs = databaseLatencyMs();
  const wanted = callFilterFrom(process.env.BENCH_CALLS);
  const browser = process.env.BENCH_BROWSER !== '0';
  const admin = { email: 'bench-admin@example.com', password: randomBytes(18).toString('base64url') };
  console.log(
    `Starting a stack of its own (${browser ? 'SPA build, ' : ''}Postgres, sandbox providers, the Worker; ${latencyMs} ms each way on the database link)...`,
  );
  const stack = await startThrowawayStack('bench', {
    admin,
    workerOutput: 'ignore',
    countDatabaseStatements: true,
    databaseLatencyMs: latencyMs,
    // The catalogue sync would mark the bench's copies of a sandbox service missing and disable them, mid-run.
    scheduledJobs: false,
    spa: browser,
  });
  try {
    const notes: string[] = [];
    const adminToken = (await callApi<{ accessToken: string }>(stack.url, 'POST', 'auth/login', { body: admin })).accessToken;
    const users = await prepareUsers(stack, adminToken);
    const catalogue = await seedCatalogue(stack);
    const payment = await settledPayment(stack, users[0].token);

    let turn = 0;
    const nextUser = () => users[turn++ % users.length];
    const asUser = () => ({ authorization: `Bearer ${nextUser().token}` });
    const json = { 'content-type': 'application/json' };
    const calls: Call[] = [
      { name: 'GET health', method: 'GET', path: '/api/v1/health', headers: () => ({}) },
      { name: 'GET user/getCurrentProfile', method: 'GET', path: '/api/v1/user/getCurrentProfile', headers: asUser },
      { name: 'GET user/getWalletBalance', method: 'GET', path: '/api/v1/user/getWalletBalance', headers: asUser },
    ];
    if ('orderable' in catalogue) {
      calls.push(
        { name: `GET services (${CATALOGUE_SIZE} services, page 1)`, method: 'GET', path: '/api/v1/services?limit=100', headers: () => ({}) },
        { name: 'GET services (page 40)', method: 'GET', path: '/api/v1/services?limit=100&page=40', headers: () => ({}) },
        { name: 'GET services (search)', method: 'GET', path: '/api/v1/services?search=zebra&limit=100', headers: () => ({}) },
      );
    } else {
      notes.push(`services list skipped: ${catalogue.skipped}`);
    }
    calls.push({
      name: 'POST user/verify-payment (settled)',
      method: 'POST',
      path: '/api/v1/user/verify-payment',
      headers: () => ({ ...json, authorization: `Bearer ${users[0].token}` }),
      body: () => JSON.stringify(payment),
    });
    if ('orderable' in catalogue && routeExists('POST', '/api/v1/user/orders')) {
      const service = catalogue.orderable;
      calls.push({
        name: 'POST user/orders',
        method: 'POST',
        path: '/api/v1/user/orders',
        headers: () => ({ ...json, ...asUser(), 'idempotency-key': `bench-order-${nextId()}` }),
        body: () => JSON.stringify({ serviceId: service.id, link: `https://instagram.com/p/bench${nextId()}`, quantity: service.min }),
        // The submissions queue hands its consumer a batch up to 1 s after the order (max_batch_timeout in wrangler.toml).
        quietMs: 1500,
      });
    } else {
      notes.push('order placement skipped: no POST user/orders route or no orderable service');
    }
    const credit: Call = {
      name: 'POST user/admin-credit-user-wallet',
      method: 'POST',
      path: '/api/v1/user/admin-credit-user-wallet',
      headers: () => ({ ...json, authorization: `Bearer ${adminToken}` }),
      body: () => JSON.stringify({ amount: 1.5, reference: `bench-credit-${nextId()}`, userId: nextUser().id }),
    };

    console.log('Measuring the floors: select 1 over an open connection, a new connection and HTTP...');
    const floor = await measureFloor(stack, 'floor: select 1, open connection', 'open connection');
    const floors = [
      floor,
      await measureFloor(stack, 'select 1, new WebSocket connection', 'new connection'),
      await measureFloor(stack, 'select 1 over HTTP', 'http'),
    ];
    const results: CallResult[] = [];
    const profiler = process.env.BENCH_PROFILE === '1' ? await connectProfiler(stack.inspectorPort) : undefined;
    const profilesDir = path.join(root, 'bench-results', 'profiles');
    for (const call of calls.filter((call) => wanted(call.name))) {
      console.log(`Measuring ${call.name}...`);
      const profiling = profiler && {
        profiler,
        onProfile: (profile: CpuProfile, requests: number) => reportProfile(profilesDir, call.name, profile, requests),
      };
      results.push(await measure(stack, call, floor.p50, profiling));
    }
    profiler?.close();
    let credits: CallResult | undefined;
    if (wanted(credit.name)) {
      console.log('Measuring admin credits under concurrency...');
      credits = await measure(stack, credit, floor.p50);
      results.push(credits);
    }
    const { data: reconciliation } = await callApi<{ data: { ok: boolean } }>(stack.url, 'GET', 'admin/reconciliation', { token: adminToken });
    const spa = browser ? firstLoadJavaScript(stack.distDir) : undefined;
    let servicesList: Awaited<ReturnType<typeof timeToServicesList>> = { skipped: 'BENCH_BROWSER=0' };
    if (browser) {
      console.log('Timing the services list in Chromium...');
      // A browser that cannot finish on a busy machine costs the note, not the figures measured so far.
      servicesList =
        'orderable' in catalogue
          ? await timeToServicesList(stack, users[0]).catch((error: Error) => ({ skipped: `Chromium did not finish: ${error.message.split('\n')[0]}` }))
          : { skipped: catalogue.skipped };
    }
    if ('skipped' in servicesList) notes.push(`services list in the browser skipped: ${servicesList.skipped}`);

    console.log(
      `\n${CONNECTIONS} connections, ${SECONDS} s per call, loopback; ${latencyMs} ms each way on the database link; ${os.cpus().length} CPUs, Node ${process.version}\n`,
    );
    printTable(
      ['call', 'p50 ms', 'p99 ms', 'req/s', 'p50 / floor', 'db round trips', 'statements', 'new connections', 'HTTP calls', 'after answer', 'failed'],
      [...floors.map((f) => row(f, floor.p50)), ...results.map((r) => row(r, floor.p50))],
    );
    console.log(
      '(database work per request, counted at the link while it waits for its answer; "after answer": round trips after it, waitUntil work and queued jobs)',
    );
    if (credits) console.log(`\nAdmin credits under ${CONNECTIONS} concurrent connections: ${credits.perSecond.toFixed(0)}/s`);
    console.log(`Reconciliation afterwards: ${reconciliation.ok ? 'ok' : 'MISMATCH'}`);
    if (spa) {
      console.log(
        `SPA first-load JavaScript: ${(spa.gzipBytes / 1024).toFixed(1)} KiB gzipped (${spa.files.map((f) => `${f.file} ${(f.gzipBytes / 1024).toFixed(1)} KiB`).join(', ')})`,
      );
    }
    if (!('skipped' in servicesList)) {
      console.log(
        `Time to show the services list (${CATALOGUE_SIZE} services; Chromium, phone width, empty cache, ${BROWSER_LOADS} loads): ${servicesList.map((t) => `${t.screen} p50 ${ms(t.p50)} ms (max ${ms(t.max)} ms)`).join(', ')}`,
      );
    }
    // Lighthouse's mobile profile on the same stack: it prints its table and writes bench-results/lighthouse.json too.
    const lighthouse = browser
      ? await auditPages(stack.url, users[0]).catch((error: Error) => void notes.push(`Lighthouse skipped: ${error.message.split('\n')[0]}`))
      : void notes.push('Lighthouse skipped: BENCH_BROWSER=0');
    for (const note of notes) console.log(`Note: ${note}`);

    const report = {
      at: new Date().toISOString(),
      dbLatencyMs: latencyMs,
      machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
      settings: { connections: CONNECTIONS, secondsPerCall: SECONDS, catalogueSize: 'orderable' in catalogue ? CATALOGUE_SIZE : null },
      floorMs: floor.p50,
      floors: floors.map((f) => ({
        name: f.name,
        p50Ms: f.p50,
        p99Ms: f.p99,
        requestsPerSecond: f.perSecond,
        dbRoundTrips: f.roundTrips,
        statements: f.statements,
        newConnections: f.connections,
        httpCalls: f.httpCalls,
      })),
      calls: results.map((r) => ({
        name: r.name,
        p50Ms: r.p50,
        p99Ms: r.p99,
        requestsPerSecond: r.perSecond,
        dbRoundTrips: r.roundTrips,
        floorRatio: r.floorRatio,
        dbRoundTripsAfterAnswer: r.roundTripsAfterAnswer,
        statements: r.statements,
        newConnections: r.connections,
        httpCalls: r.httpCalls,
        requests: r.requests,
        failures: r.failures,
      })),
      creditsPerSecond: credits?.perSecond ?? null,
      reconciliationOk: reconciliation.ok,
      spaFirstLoadJs: spa ?? null,
      timeToServicesList: 'skipped' in servicesList ? null : servicesList,
      lighthouse: lighthouse ?? null,
      notes,
    };
    mkdirSync(path.join(root, 'bench-results'), { recursive: true });
    writeFileSync(path.join(root, 'bench-results', 'latest.json'), `${JSON.stringify(report, null, 2)}\n`);
    console.log('Written to bench-results/latest.json');
    if (!reconciliation.ok || results.some((r) => r.failures > 0)) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

runScript(main);
