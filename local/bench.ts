// `npm run bench`: the hot calls of the shop measured on the stack `npm start` runs (built SPA,
// wrangler dev, embedded Postgres behind the WebSocket bridge, sandbox providers), on its own
// port and a throwaway database. For each call: p50/p99 latency and requests per second under
// autocannon on loopback, the ratio of its p50 to the floor (a bare `select 1` through the same
// Neon driver and bridge), and the database statements and connections it makes, counted at the
// bridge. Also admin credits per second under concurrency (then reconciled to the kobo), the
// SPA's first-load JavaScript gzipped, and the time Chromium takes to show the first row of the
// 5,000-service list. Prints one table; writes bench-results/latest.json.
import autocannon from 'autocannon';
import { eq, sql } from 'drizzle-orm';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { chromium } from 'playwright-core';
import { services } from '../drizzle/schema';
import { app } from '../worker/app';
import { openDatabase } from './node-db';
import { callApi, payDeposit, signUp, type SignedInUser } from './shop-client';
import { root, startThrowawayStack, type RunningStack } from './stack';
import { runScript } from './startup-error';

const SECONDS = Number(process.env.BENCH_SECONDS ?? 5);
const CONNECTIONS = Number(process.env.BENCH_CONNECTIONS ?? 10);
/** Registrations and sign-ins are rate limited to 10 a minute per address; the admin signs in too. */
const USERS = 8;
const CATALOGUE_SIZE = 5000;
/** Sequential requests whose database statements are counted, per call. */
const COUNTED_REQUESTS = 10;

interface Stats {
  p50: number;
  p99: number;
  perSecond: number;
}

interface CallResult extends Stats {
  call: string;
  floorRatio: number;
  statementsPerRequest: number;
  connectionsPerRequest: number;
  requests: number;
  failures: number;
}

/** One benchmarked call; headers and body are made per request (rotating users, unique keys). */
interface Call {
  name: string;
  method: 'GET' | 'POST';
  path: string;
  headers(): Record<string, string>;
  body?(): string;
}

let sequence = 0;
const nextId = () => `${process.pid}-${++sequence}`;

function routeExists(method: string, routePath: string): boolean {
  return app.routes.some((route) => route.method === method && route.path === routePath);
}

// ---------------------------------------------------------------- preparing the shop

interface BenchUser extends SignedInUser {
  email: string;
  password: string;
}

async function prepareUsers(stack: RunningStack, adminToken: string): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < USERS; i++) {
    const credentials = { email: `bench-${process.pid}-${i}@example.com`, password: randomBytes(12).toString('base64url') };
    const user = await signUp(stack.url, { fullName: `Bench User ${i}`, ...credentials });
    await callApi(stack.url, 'POST', 'user/admin-credit-user-wallet', { token: adminToken, body: { amount: 1_000_000, reference: `bench-fund-${nextId()}`, userId: user.id } });
    users.push({ ...user, ...credentials });
  }
  return users;
}

/**
 * Tops the catalogue up to CATALOGUE_SIZE services with copies of a sandbox service, straight in
 * Postgres. Returns the sandbox service orders can be placed on, or why the catalogue was skipped.
 */
async function seedCatalogue(stack: RunningStack): Promise<{ orderable: typeof services.$inferSelect } | { skipped: string }> {
  if (!routeExists('GET', '/api/v1/services')) return { skipped: 'the app has no GET services route' };
  const { db, close } = openDatabase({ DATABASE_URL: stack.databaseUrl, DB_WS_PROXY: stack.dbWsProxy });
  try {
    const { rows } = await db.execute<{ exists: boolean }>(sql`select to_regclass('public.services') is not null as exists`);
    if (!rows[0].exists) return { skipped: 'the database has no services table' };
    // The sandbox panel's Instagram Likes: a Default service, ordered by link and quantity.
    const [template] = await db.select().from(services).where(eq(services.providerServiceId, '1031'));
    if (!template) return { skipped: 'the demo catalogue has no sandbox service 1031 to copy' };
    const [{ count }] = (await db.execute<{ count: number }>(sql`select count(*)::int as count from ${services}`)).rows;
    const copies = Array.from({ length: Math.max(0, CATALOGUE_SIZE - count) }, (_, i) => ({
      ...template, id: undefined, createdAt: undefined, updatedAt: undefined,
      providerServiceId: `bench-${i}`, name: `${template.name} (bench copy ${i}${i % 10 === 0 ? ', zebra' : ''})`,
    }));
    for (let start = 0; start < copies.length; start += 1000) await db.insert(services).values(copies.slice(start, start + 1000));
    return { orderable: template };
  } finally {
    await close();
  }
}

/** A settled card payment: verifying its payload again is the idempotent path the return page retries. */
async function settledPayment(stack: RunningStack, token: string) {
  const deposit = await payDeposit(stack.url, stack.fakes.paystackUrl, token, 1000, 'success');
  const { checkoutUrl, signature, amount } = deposit;
  const verified = await callApi<{ data: { orderStatus: number } }>(stack.url, 'POST', 'user/verify-payment', { token, body: { checkoutUrl, signature, amount } });
  if (verified.data.orderStatus !== 2) throw new Error(`the sandbox payment was not credited (orderStatus ${verified.data.orderStatus})`);
  return { checkoutUrl, signature, amount };
}

// ---------------------------------------------------------------- measuring

function percentile(sorted: number[], fraction: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * fraction))];
}

interface FloorStats extends Stats {
  statementsPerQuery: number;
  connectionsPerQuery: number;
}

/** `select 1` through the Neon driver and the same bridge, from CONNECTIONS loops for SECONDS. */
async function measureFloor(stack: RunningStack, connectionPerQuery: boolean): Promise<FloorStats> {
  const env = { DATABASE_URL: stack.databaseUrl, DB_WS_PROXY: stack.dbWsProxy };
  const latencies: number[] = [];
  const deadline = performance.now() + SECONDS * 1000;
  const loop = async () => {
    const shared = connectionPerQuery ? null : openDatabase(env);
    try {
      while (performance.now() < deadline) {
        const started = performance.now();
        // Like the Worker, which opens a new pool, hence a new connection, for every request.
        const database = shared ?? openDatabase(env);
        await database.db.execute(sql`select 1`);
        latencies.push(performance.now() - started);
        if (!shared) await database.close();
      }
    } finally {
      await shared?.close();
    }
  };
  const before = stack.databaseTraffic();
  const started = performance.now();
  await Promise.all(Array.from({ length: CONNECTIONS }, loop));
  const elapsed = (performance.now() - started) / 1000;
  const after = stack.databaseTraffic();
  latencies.sort((a, b) => a - b);
  return {
    p50: percentile(latencies, 0.5),
    p99: percentile(latencies, 0.99),
    perSecond: latencies.length / elapsed,
    statementsPerQuery: (after.statements - before.statements) / latencies.length,
    connectionsPerQuery: (after.connections - before.connections) / latencies.length,
  };
}

async function send(stack: RunningStack, call: Call): Promise<number> {
  const response = await fetch(`${stack.url}${call.path}`, { method: call.method, headers: call.headers(), body: call.body?.() });
  await response.arrayBuffer();
  return response.status;
}

/** Waits until nothing has reached the database for a moment: requests of the last load run may still be finishing. */
async function untilDatabaseQuiet(stack: RunningStack): Promise<void> {
  for (let last = stack.databaseTraffic(); ; ) {
    await new Promise((resolve) => setTimeout(resolve, 500));
    const now = stack.databaseTraffic();
    if (now.statements === last.statements && now.connections === last.connections) return;
    last = now;
  }
}

/** Statements and connections per request, counted at the bridge over a few sequential requests. */
async function countDatabaseWork(stack: RunningStack, call: Call): Promise<{ statements: number; connections: number }> {
  await untilDatabaseQuiet(stack);
  const before = stack.databaseTraffic();
  for (let i = 0; i < COUNTED_REQUESTS; i++) {
    const status = await send(stack, call);
    if (status >= 400) throw new Error(`${call.name} answered ${status} while being counted`);
  }
  await untilDatabaseQuiet(stack);
  const after = stack.databaseTraffic();
  return {
    statements: (after.statements - before.statements) / COUNTED_REQUESTS,
    connections: (after.connections - before.connections) / COUNTED_REQUESTS,
  };
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

async function measure(stack: RunningStack, call: Call, floor: Stats): Promise<CallResult> {
  const work = await countDatabaseWork(stack, call);
  const { result, failures } = await load(stack, call);
  return {
    call: call.name,
    p50: result.latency.p50,
    p99: result.latency.p99,
    perSecond: result.requests.average,
    floorRatio: result.latency.p50 / floor.p50,
    statementsPerRequest: work.statements,
    connectionsPerRequest: work.connections,
    requests: result.requests.total,
    failures,
  };
}

/** The scripts the SPA's index.html loads before anything renders: its entry and modulepreloads. */
function firstLoadJavaScript(dist: string): { files: Array<{ file: string; bytes: number; gzipBytes: number }>; gzipBytes: number } {
  const html = readFileSync(path.join(dist, 'index.html'), 'utf8');
  const sources = [
    ...[...html.matchAll(/<script\b[^>]*\btype="module"[^>]*>/g)].map((tag) => /\bsrc="([^"]+)"/.exec(tag[0])?.[1]),
    ...[...html.matchAll(/<link\b[^>]*\brel="modulepreload"[^>]*>/g)].map((tag) => /\bhref="([^"]+)"/.exec(tag[0])?.[1]),
  ].filter((source): source is string => Boolean(source) && !/^https?:/.test(source!));
  const files = [...new Set(sources)].map((source) => {
    const content = readFileSync(path.join(dist, source.replace(/^\//, '')));
    return { file: source, bytes: content.length, gzipBytes: gzipSync(content, { level: 9 }).length };
  });
  return { files, gzipBytes: files.reduce((sum, file) => sum + file.gzipBytes, 0) };
}

/** Page loads per screen for the time to the first service row. */
const BROWSER_LOADS = 5;

interface ScreenTiming {
  screen: string;
  p50: number;
  max: number;
}

/**
 * Time from navigation to the first service row on screen, with the bench's 5,000 services, in
 * Debian's Chromium at phone width with an empty cache each time: the public /services, and
 * /user/services signed in (the session set up once through the login form, then loaded into
 * each fresh context).
 */
async function timeToServicesList(stack: RunningStack, user: BenchUser): Promise<ScreenTiming[] | { skipped: string }> {
  const executablePath = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
  if (!existsSync(executablePath)) return { skipped: `no Chromium at ${executablePath} (apt-get install chromium)` };
  const browser = await chromium.launch({ executablePath, args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking'] });
  try {
    const viewport = { width: 390, height: 844 };
    const signingIn = await browser.newContext({ baseURL: stack.url, viewport });
    const loginPage = await signingIn.newPage();
    await loginPage.goto('/auth/login');
    await loginPage.getByLabel('Email').fill(user.email);
    await loginPage.getByLabel('Password', { exact: true }).fill(user.password);
    await loginPage.getByRole('button', { name: 'Sign In' }).click();
    await loginPage.waitForURL((url) => url.pathname.startsWith('/user'));
    const session = await signingIn.storageState();
    await signingIn.close();

    const load = async (screen: string, storageState?: typeof session) => {
      const context = await browser.newContext({ baseURL: stack.url, viewport, storageState });
      try {
        const page = await context.newPage();
        const started = performance.now();
        await page.goto(screen, { waitUntil: 'commit' });
        await page.getByRole('list', { name: 'Services' }).getByRole('listitem').first().waitFor({ state: 'visible', timeout: 30_000 });
        return performance.now() - started;
      } finally {
        await context.close();
      }
    };
    const timings: ScreenTiming[] = [];
    for (const [screen, storageState] of [['/services', undefined], ['/user/services', session]] as const) {
      const loads: number[] = [];
      for (let i = 0; i < BROWSER_LOADS; i++) loads.push(await load(screen, storageState));
      loads.sort((a, b) => a - b);
      timings.push({ screen, p50: percentile(loads, 0.5), max: loads[loads.length - 1] });
    }
    return timings;
  } finally {
    await browser.close();
  }
}

// ---------------------------------------------------------------- the report

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 1);

const floorRow = (name: string, measured: FloorStats, floor: FloorStats) => [
  name, ms(measured.p50), ms(measured.p99), measured.perSecond.toFixed(0), (measured.p50 / floor.p50).toFixed(2),
  measured.statementsPerQuery.toFixed(1), measured.connectionsPerQuery.toFixed(2), '0',
];

function printTable(headers: string[], rows: string[][]) {
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) => cells.map((cell, column) => (column === 0 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  console.log(line(headers));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

async function main() {
  const admin = { email: 'bench-admin@example.com', password: randomBytes(18).toString('base64url') };
  console.log('Starting a stack of its own (SPA build, Postgres, sandbox providers, wrangler dev)...');
  const stack = await startThrowawayStack('bench', {
    admin, wranglerOutput: 'ignore', countDatabaseStatements: true,
    // The catalogue sync would mark the bench's copies of a sandbox service missing and disable them, mid-run.
    scheduledJobs: false,
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
    calls.push({ name: 'POST user/verify-payment (settled)', method: 'POST', path: '/api/v1/user/verify-payment', headers: () => ({ ...json, authorization: `Bearer ${users[0].token}` }), body: () => JSON.stringify(payment) });
    if ('orderable' in catalogue && routeExists('POST', '/api/v1/user/orders')) {
      const service = catalogue.orderable;
      calls.push({
        name: 'POST user/orders', method: 'POST', path: '/api/v1/user/orders',
        headers: () => ({ ...json, ...asUser(), 'idempotency-key': `bench-order-${nextId()}` }),
        body: () => JSON.stringify({ serviceId: service.id, link: `https://instagram.com/p/bench${nextId()}`, quantity: service.min }),
      });
    } else {
      notes.push('order placement skipped: no POST user/orders route or no orderable service');
    }
    const credit: Call = {
      name: 'POST user/admin-credit-user-wallet', method: 'POST', path: '/api/v1/user/admin-credit-user-wallet',
      headers: () => ({ ...json, authorization: `Bearer ${adminToken}` }),
      body: () => JSON.stringify({ amount: 1.5, reference: `bench-credit-${nextId()}`, userId: nextUser().id }),
    };

    console.log('Measuring the floor: select 1 through the Neon driver and the bridge...');
    const floor = await measureFloor(stack, true);
    const warmFloor = await measureFloor(stack, false);
    const results: CallResult[] = [];
    for (const call of calls) {
      console.log(`Measuring ${call.name}...`);
      results.push(await measure(stack, call, floor));
    }
    console.log('Measuring admin credits under concurrency...');
    const credits = await measure(stack, credit, floor);
    results.push(credits);
    const { data: reconciliation } = await callApi<{ data: { ok: boolean } }>(stack.url, 'GET', 'admin/reconciliation', { token: adminToken });
    const spa = firstLoadJavaScript(stack.distDir);
    console.log('Timing the services list in Chromium...');
    const servicesList = 'orderable' in catalogue ? await timeToServicesList(stack, users[0]) : { skipped: catalogue.skipped };
    if ('skipped' in servicesList) notes.push(`services list in the browser skipped: ${servicesList.skipped}`);

    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s per call, loopback; ${os.cpus().length} CPUs, Node ${process.version}\n`);
    printTable(
      ['call', 'p50 ms', 'p99 ms', 'req/s', 'p50 / floor', 'statements/req', 'connections/req', 'failed'],
      [
        floorRow('floor: select 1, new connection', floor, floor),
        floorRow('floor: select 1, open connection', warmFloor, floor),
        ...results.map((r) => [
          r.call, ms(r.p50), ms(r.p99), r.perSecond.toFixed(0), r.floorRatio.toFixed(2), r.statementsPerRequest.toFixed(1), r.connectionsPerRequest.toFixed(1), String(r.failures),
        ]),
      ],
    );
    console.log(`\nAdmin credits under ${CONNECTIONS} concurrent connections: ${credits.perSecond.toFixed(0)}/s; reconciliation afterwards: ${reconciliation.ok ? 'ok' : 'MISMATCH'}`);
    console.log(`SPA first-load JavaScript: ${(spa.gzipBytes / 1024).toFixed(1)} KiB gzipped (${spa.files.map((f) => `${f.file} ${(f.gzipBytes / 1024).toFixed(1)} KiB`).join(', ')})`);
    if (!('skipped' in servicesList)) {
      console.log(`Time to show the services list (${CATALOGUE_SIZE} services; Chromium, phone width, empty cache, ${BROWSER_LOADS} loads): ${servicesList.map((t) => `${t.screen} p50 ${ms(t.p50)} ms (max ${ms(t.max)} ms)`).join(', ')}`);
    }
    for (const note of notes) console.log(`Note: ${note}`);

    const report = {
      at: new Date().toISOString(),
      machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
      settings: { connections: CONNECTIONS, secondsPerCall: SECONDS, catalogueSize: 'orderable' in catalogue ? CATALOGUE_SIZE : null },
      floor: { newConnection: floor, openConnection: warmFloor },
      calls: results,
      creditsPerSecond: credits.perSecond,
      reconciliationOk: reconciliation.ok,
      spaFirstLoadJs: spa,
      timeToServicesList: 'skipped' in servicesList ? null : servicesList,
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
