// `npm run load`: a load test of the stack `npm start` runs (the Worker in workerd, embedded Postgres
// behind the WebSocket bridge, sandbox providers, the submissions queue, the scheduled jobs on their local timer), on
// its own port and a throwaway database. With LOAD_VOLUME=<factor> that database first gets a busy panel's year
// (bench:scale's seeder, load-volume.ts; 1 is 2,000,000 orders). It signs up a few hundred users, funds them (admin
// credits, plus card deposits paid in the sandbox and left for the load to verify), and LOAD_RESELLERS resellers
// with an API key (load-reseller.ts), then for a bounded time runs a mix from hundreds of concurrent connections on
// loopback: browsing the catalogue, balance checks, orders with an Idempotency-Key (some sent again with the same
// key, some of those while the first is still in flight), payment verification (duplicated, and racing Paystack's
// delayed webhooks) and the resellers' API v2 calls (add with request_id, status of one and many orders, balance,
// services). It prints p50/p99, statuses, errors and 503s per kind (load-report.ts), then checks that every kobo is
// where it should be (load-books.ts) and exits non-zero on any discrepancy or error. Knobs: load-settings.ts.

import { randomBytes } from 'node:crypto';
import os from 'node:os';
import autocannon, { type RequestTemplate } from 'autocannon';
import { and, eq, inArray } from 'drizzle-orm';
import { services } from '../../drizzle/schema';
import { startLocalCron } from '../stack/cron';
import { openDatabase } from '../stack/node-db';
import { type RunningStack, startThrowawayStack } from '../stack/stack';
import { runScript } from '../stack/startup-error';
import { checkBooks, type PreparedDeposit, untilQueueDrained } from './load-books';
import { printChecks, printTraffic, type Run } from './load-report';
import { prepareResellers, type Reseller, resellerRequest } from './load-reseller';
import {
  CONNECTIONS,
  type CustomerKind,
  connectionsOf,
  count,
  DRAIN_SECONDS,
  inBatches,
  type KeyOutcome,
  ORDER_REPEAT_SHARE,
  ORDERED_PROVIDER_SERVICES,
  type OrderAttempt,
  type Orderable,
  pick,
  RECONCILIATION_SCOPE,
  RESELLER_RATE,
  RESELLERS,
  SECONDS,
  SETUP_PARALLELISM,
  type SignedInAccount,
  type Tally,
  TOKEN_LIFE_MS,
  USERS,
  VOLUME,
} from './load-settings';
import { seedVolume } from './load-volume';
import { callApi, payDeposit, type SignedInUser, signUp } from './shop-client';

declare module 'autocannon' {
  interface Options {
    /** Requests per second over all the connections (autocannon paces them). */
    overallRate?: number;
  }
}

const CREDIT_NAIRA = 20_000;
/**
 * Card deposits paid (or, one in five, declined) in the sandbox before the load, verified during it, one per user and
 * reseller in turn. With a seeded volume at least 30, so the 20 newest credited payments the reconciliation asks
 * Paystack about again are the sandbox's own, not seeded ones it never saw.
 */
const DEPOSITS = Math.max(Math.ceil(USERS / 2), VOLUME === null ? 0 : 30);
const DEPOSIT_NAIRA = 1_000;
/** Paystack's webhooks for those deposits arrive this long after payment: in the middle of the load. */
const WEBHOOK_DELAY_MS = (SECONDS * 1000) / 2;

// ---------------------------------------------------------------- preparing the shop

async function prepareUsers(stack: RunningStack, adminToken: string): Promise<SignedInAccount[]> {
  const indexes = Array.from({ length: USERS }, (_, i) => i);
  return inBatches(indexes, SETUP_PARALLELISM, async (i) => {
    const account = {
      email: `load-${process.pid}-${i}@example.com`,
      password: randomBytes(12).toString('base64url'),
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    };
    const user = await signUp(stack.url, { fullName: `Load User ${i}`, ...account });
    await callApi(stack.url, 'POST', 'user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: CREDIT_NAIRA, reference: `load-credit-${process.pid}-${i}`, userId: user.id },
    });
    return { ...user, ...account, signedInAt: Date.now() };
  });
}

/**
 * Signs in again (in place) the users whose token would run out before the load and its checks end: a long setup
 * (hundreds of sign-ups on a busy machine) and a 300 s load come close to an access token's 15 minutes.
 */
async function freshenTokens(stack: RunningStack, accounts: SignedInAccount[]): Promise<number> {
  const needed = Date.now() + SECONDS * 1000 + 3 * 60_000;
  const stale = accounts.filter((account) => account.signedInAt + TOKEN_LIFE_MS < needed);
  await inBatches(stale, SETUP_PARALLELISM, async (account) => {
    const signedIn = await callApi<{ accessToken: string }>(stack.url, 'POST', 'auth/login', {
      ip: account.ip,
      body: { email: account.email, password: account.password },
    });
    account.token = signedIn.accessToken;
    account.signedInAt = Date.now();
  });
  return stale.length;
}

async function prepareDeposits(stack: RunningStack, users: SignedInUser[]): Promise<PreparedDeposit[]> {
  const control = await fetch(`${stack.fakes.paystackUrl}/__control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhookMode: 'delay', webhookDelayMs: WEBHOOK_DELAY_MS }),
  });
  if (!control.ok) throw new Error('the sandbox Paystack refused its controls');
  const payers = Array.from({ length: DEPOSITS }, (_, i) => users[i % users.length]);
  return inBatches(payers, SETUP_PARALLELISM, async (user, i) => {
    const outcome = i % 5 === 4 ? 'failed' : 'success';
    return { user, outcome, payload: await payDeposit(stack.url, stack.fakes.paystackUrl, user.token, DEPOSIT_NAIRA, outcome) };
  });
}

async function orderableServiceIds(stack: RunningStack): Promise<Orderable[]> {
  const { db, close } = openDatabase({ DATABASE_URL: stack.databaseUrl, DB_WS_PROXY: stack.dbWsProxy });
  try {
    const rows = await db
      .select({ id: services.id, min: services.min })
      .from(services)
      .where(and(inArray(services.providerServiceId, ORDERED_PROVIDER_SERVICES), eq(services.enabled, true)));
    if (rows.length === 0) throw new Error(`the demo catalogue has none of the sandbox services ${ORDERED_PROVIDER_SERVICES.join(', ')}`);
    return rows;
  } finally {
    await close();
  }
}

// ---------------------------------------------------------------- the traffic

interface Traffic {
  kind: CustomerKind | 'reseller';
  request: RequestTemplate;
}

function trafficMix(users: SignedInUser[], deposits: PreparedDeposit[], orderable: Orderable[], keys: Map<string, KeyOutcome>): Traffic[] {
  const json = { 'content-type': 'application/json' };
  const bearer = (user: SignedInUser) => ({ authorization: `Bearer ${user.token}` });
  let sequence = 0;
  const recentAttempts: OrderAttempt[] = [];

  const browsing = [
    () => `/api/v1/services?limit=100&page=${1 + Math.floor(Math.random() * 3)}`,
    () => `/api/v1/services?search=${pick(['instagram', 'likes', 'views', 'tiktok', 'followers'])}&limit=20`,
    () => '/api/v1/services/categories',
    () => '/api/v1/settings/public',
  ];
  const balance = ['/api/v1/user/getWalletBalance', '/api/v1/user/getMai'];

  const nextOrderAttempt = (): OrderAttempt => {
    if (recentAttempts.length > 0 && Math.random() < ORDER_REPEAT_SHARE) return pick(recentAttempts);
    const user = pick(users);
    const service = pick(orderable);
    const n = ++sequence;
    const link = `https://instagram.com/p/load-${process.pid}-${n}`;
    const attempt: OrderAttempt = {
      via: 'customer',
      userId: user.id,
      token: user.token,
      key: `load-${process.pid}-${n}`,
      link,
      body: JSON.stringify({ serviceId: service.id, link, quantity: service.min * (1 + (n % 3)) }),
    };
    recentAttempts.push(attempt);
    if (recentAttempts.length > 200) recentAttempts.shift();
    // Known from the moment it is built: the load may stop with its request placed but unanswered.
    keys.set(attempt.key, { attempt, statuses: [], orderIds: new Set(), created: 0 });
    return attempt;
  };

  return [
    { kind: 'browsing', request: { setupRequest: (request) => ({ ...request, method: 'GET', path: pick(browsing)() }) } },
    { kind: 'balance', request: { setupRequest: (request) => ({ ...request, method: 'GET', path: pick(balance), headers: bearer(pick(users)) }) } },
    {
      kind: 'orders',
      request: {
        setupRequest: (request, context) => {
          const attempt = nextOrderAttempt();
          context.attempt = attempt;
          return {
            ...request,
            method: 'POST',
            path: '/api/v1/user/orders',
            headers: { ...json, authorization: `Bearer ${attempt.token}`, 'idempotency-key': attempt.key },
            body: attempt.body,
          };
        },
        onResponse: (status, body, context) => {
          const outcome = keys.get((context.attempt as OrderAttempt).key)!;
          outcome.statuses.push(status);
          if (status === 201) outcome.created += 1;
          if (status === 200 || status === 201) outcome.orderIds.add((JSON.parse(body) as { data: { id: number } }).data.id);
        },
      },
    },
    {
      kind: 'payments',
      request: {
        setupRequest: (request) => {
          const { user, payload } = pick(deposits);
          const { checkoutUrl, signature, amount } = payload;
          return {
            ...request,
            method: 'POST',
            path: '/api/v1/user/verify-payment',
            headers: { ...json, ...bearer(user) },
            body: JSON.stringify({ checkoutUrl, signature, amount }),
          };
        },
      },
    },
  ];
}

function serverErrorMessage(body: string): string {
  try {
    return String((JSON.parse(body) as { message?: unknown }).message);
  } catch {
    return body.slice(0, 200);
  }
}

async function runTraffic(stack: RunningStack, traffic: Traffic[], serverErrors: Tally): Promise<Run[]> {
  return Promise.all(
    traffic.map(async ({ kind, request }) => ({
      kind,
      result: await autocannon({
        url: stack.url.replace('localhost', '127.0.0.1'),
        connections: connectionsOf(kind),
        // Resellers' tools are paced; the customers' connections send as fast as they are answered.
        ...(kind === 'reseller' ? { overallRate: Math.max(1, Math.round(RESELLERS * RESELLER_RATE)) } : {}),
        duration: SECONDS,
        timeout: 60,
        requests: [
          {
            ...request,
            setupRequest: (raw, context) => {
              const built = request.setupRequest ? request.setupRequest(raw, context) : raw;
              context.path = built.path;
              return built;
            },
            onResponse: (status, body, context) => {
              if (status >= 500) count(serverErrors, `${kind} ${status} ${String(context.path).split('?')[0]}: ${serverErrorMessage(body)}`);
              request.onResponse?.(status, body, context);
            },
          },
        ],
      }),
    })),
  );
}

// ---------------------------------------------------------------- the run

async function main() {
  const started = performance.now();
  const admin = { email: 'load-admin@example.com', password: randomBytes(18).toString('base64url') };
  console.log('Starting a stack of its own (SPA build, Postgres, sandbox providers, the Worker, scheduled jobs)...');
  const stack = await startThrowawayStack('load', {
    admin,
    // LOAD_WORKER_LOG=1 shows the Worker's log (what a 5xx said), mixed with the report.
    workerOutput: process.env.LOAD_WORKER_LOG === '1' ? 'inherit' : 'ignore',
    // With a seeded volume the timer starts after the seed (below), as bench:scale keeps the jobs off while it seeds.
    scheduledJobs: VOLUME === null,
  });
  let cron: { stop(): Promise<void> } | null = null;
  try {
    // Signed in afresh where it is needed: an access token lasts 15 minutes, less than a full volume's seed and load.
    const adminToken = async () => (await callApi<{ accessToken: string }>(stack.url, 'POST', 'auth/login', { body: admin })).accessToken;
    const seeded = VOLUME === null ? null : await seedVolume(stack, VOLUME, admin.email);
    if (VOLUME !== null) cron = startLocalCron(stack.url);
    console.log(
      `Signing up and funding ${USERS} users${RESELLERS > 0 ? ` and ${RESELLERS} resellers (address confirmed from the mailbox, API key)` : ''}, paying ${DEPOSITS} card deposits in the sandbox...`,
    );
    const setupStarted = performance.now();
    const setupToken = await adminToken();
    const users = await prepareUsers(stack, setupToken);
    const resellers: Reseller[] = await prepareResellers(stack, setupToken, RESELLERS, () => randomBytes(12).toString('base64url'));
    const deposits = await prepareDeposits(stack, [...users, ...resellers]);
    const orderable = await orderableServiceIds(stack);
    const freshened = await freshenTokens(stack, [...users, ...resellers]);
    if (freshened > 0) console.log(`Signed ${freshened} users in again: their tokens would have run out during the load.`);
    const setupSeconds = (performance.now() - setupStarted) / 1000;

    console.log(
      `Running the mix from ${CONNECTIONS} connections${RESELLERS > 0 ? ` and ${RESELLERS} resellers' (${RESELLER_RATE} calls/s each)` : ''} for ${SECONDS} s...`,
    );
    const keys = new Map<string, KeyOutcome>();
    const serverErrors: Tally = new Map();
    const refusals: Tally = new Map();
    const traffic = trafficMix(users, deposits, orderable, keys);
    if (RESELLERS > 0) traffic.push({ kind: 'reseller', request: resellerRequest(resellers, orderable, keys, refusals) });
    const runs = await runTraffic(stack, traffic, serverErrors);
    // Paystack's delayed webhooks and the requests still finishing settle before the books are read.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    if (DRAIN_SECONDS > 0) {
      const drainStarted = performance.now();
      const waiting = await untilQueueDrained(stack, [...users, ...resellers], DRAIN_SECONDS);
      console.log(`Waited ${((performance.now() - drainStarted) / 1000).toFixed(0)} s for the queue: ${waiting} of the load's orders still queued or sending.`);
    }
    const { checks, submissions } = await checkBooks(stack, await adminToken(), [...users, ...resellers], deposits, keys);

    console.log(
      `\n${CONNECTIONS} connections${RESELLERS > 0 ? ` + ${RESELLERS} resellers at ${RESELLER_RATE}/s each` : ''}, ${SECONDS} s, loopback; ${os.cpus().length} CPUs, Node ${process.version}`,
    );
    if (seeded)
      console.log(
        `Seeded volume LOAD_VOLUME ${VOLUME}: ${seeded.counts.orders} orders, ${seeded.counts.users} users, ${seeded.counts.ledgerRows} ledger rows, ${seeded.counts.payments} payments, ${seeded.counts.services} services, ${seeded.counts.openOrders} open orders; seeded in ${seeded.seconds.toFixed(1)} s (books after the seed: ${seeded.books.balanceMismatches} wallets off their ledger, ${seeded.books.brokenRunningBalances} broken running balances)`,
      );
    console.log(`Setup (sign-ups, keys, deposits) ${setupSeconds.toFixed(0)} s; reconciliation scope: ${RECONCILIATION_SCOPE ?? 'default'}\n`);
    const errors = printTraffic(runs, serverErrors, refusals);
    const outcomes = [...keys.values()];
    const repeats = outcomes.filter((outcome) => outcome.statuses.length > 1).length;
    const answered = outcomes.filter((outcome) => outcome.statuses.length > 0).length;
    const viaResellers = outcomes.filter((outcome) => outcome.attempt.via === 'reseller').length;
    console.log(
      `\nOrders: ${keys.size} Idempotency-Keys and request_ids (${viaResellers} of them resellers'; ${answered} answered before the end), ${repeats} of them sent more than once; deposits: ${deposits.length} (${deposits.filter((d) => d.outcome === 'failed').length} declined).\n`,
    );
    console.log(
      `The load's orders by submission to the provider when the books were read (the queue sends them): ${Object.entries(submissions)
        .map(([state, n]) => `${state} ${n}`)
        .join(', ')}.\n`,
    );
    printChecks(checks);
    const failed = checks.some((check) => check.problems.length > 0);
    console.log(
      `\n${failed ? 'BOOKS NOT CLEAN' : 'Books clean'}; ${errors ? 'errors above' : '0 errors, no 503'}; whole run ${((performance.now() - started) / 60_000).toFixed(1)} min.`,
    );
    // A load that kept the books but answered with errors (a 5xx, a 503, a lost connection, a refusal) did not pass either.
    if (failed || errors) process.exitCode = 1;
  } finally {
    await cron?.stop();
    await stack.stop();
  }
}

runScript(main);
