// `npm run load`: a load test of the stack `npm start` runs (wrangler dev, embedded Postgres
// behind the WebSocket bridge, sandbox providers, the scheduled jobs on their local timer), on
// its own port and a throwaway database. It signs up a few hundred users, funds them (admin
// credits, plus card deposits paid in the sandbox and left for the load to verify), then for a
// bounded time runs a mix from hundreds of concurrent connections on loopback: browsing the
// catalogue, balance checks, orders with an Idempotency-Key (some sent again with the same key,
// some of those while the first is still in flight) and payment verification (duplicated, and
// racing Paystack's delayed webhooks). Afterwards it checks that every kobo is where it should
// be and exits non-zero on any discrepancy:
//   - the shop's own reconciliation (GET admin/reconciliation) is clean;
//   - each user's balance is their credits - charges + refunds, by ledger source;
//   - each order has exactly one debit of its charge and a refund row exactly when it refunded;
//   - each deposit paid in the sandbox is credited once, each declined one never;
//   - each Idempotency-Key gave one order, created once, and `add` reached the provider at most once per order.

import { randomBytes } from 'node:crypto';
import os from 'node:os';
import autocannon, { type RequestTemplate, type Result } from 'autocannon';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { orders, paymentIntents, services, walletTransactions } from '../../drizzle/schema';
import { openDatabase } from '../stack/node-db';
import { type RunningStack, startThrowawayStack } from '../stack/stack';
import { runScript } from '../stack/startup-error';
import { callApi, type DepositPayload, payDeposit, type SignedInUser, signUp } from './shop-client';

const SECONDS = Number(process.env.LOAD_SECONDS ?? 60);
const CONNECTIONS = Number(process.env.LOAD_CONNECTIONS ?? 200);
const USERS = Number(process.env.LOAD_USERS ?? 300);
/** Each kind of traffic gets this share of the connections. */
const MIX = { browsing: 0.35, balance: 0.2, orders: 0.35, payments: 0.1 } as const;
/** Order requests that repeat an earlier order request of the same user, key and body. */
const ORDER_REPEAT_SHARE = 0.15;
const CREDIT_NAIRA = 20_000;
/** Card deposits paid (or, one in five, declined) in the sandbox before the load, verified during it. */
const DEPOSITS = Math.ceil(USERS / 2);
const DEPOSIT_NAIRA = 1_000;
/** Paystack's webhooks for those deposits arrive this long after payment: in the middle of the load. */
const WEBHOOK_DELAY_MS = (SECONDS * 1000) / 2;
/** Sign-ups run this many at a time (each hashes a password in the Worker). */
const SETUP_PARALLELISM = 16;

type Kind = keyof typeof MIX;

/** The sandbox panel's services the orders use: Instagram Likes and Views, ordered by link and quantity. */
const ORDERED_PROVIDER_SERVICES = ['1031', '1041'];

interface OrderAttempt {
  userId: number;
  token: string;
  key: string;
  body: string;
  link: string;
}

interface KeyOutcome {
  attempt: OrderAttempt;
  statuses: number[];
  orderIds: Set<number>;
  created: number;
}

const pick = <T>(items: readonly T[]): T => items[Math.floor(Math.random() * items.length)];

async function inBatches<T, R>(items: readonly T[], size: number, work: (item: T, index: number) => Promise<R>): Promise<R[]> {
  const results: R[] = [];
  for (let start = 0; start < items.length; start += size) {
    results.push(...(await Promise.all(items.slice(start, start + size).map((item, offset) => work(item, start + offset)))));
  }
  return results;
}

// ---------------------------------------------------------------- preparing the shop

async function prepareUsers(stack: RunningStack, adminToken: string): Promise<SignedInUser[]> {
  const indexes = Array.from({ length: USERS }, (_, i) => i);
  return inBatches(indexes, SETUP_PARALLELISM, async (i) => {
    const user = await signUp(stack.url, {
      fullName: `Load User ${i}`,
      email: `load-${process.pid}-${i}@example.com`,
      password: randomBytes(12).toString('base64url'),
      ip: `10.${(i >> 16) & 255}.${(i >> 8) & 255}.${i & 255}`,
    });
    await callApi(stack.url, 'POST', 'user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: CREDIT_NAIRA, reference: `load-credit-${process.pid}-${i}`, userId: user.id },
    });
    return user;
  });
}

interface PreparedDeposit {
  user: SignedInUser;
  payload: DepositPayload;
  outcome: 'success' | 'failed';
}

async function prepareDeposits(stack: RunningStack, users: SignedInUser[]): Promise<PreparedDeposit[]> {
  const control = await fetch(`${stack.fakes.paystackUrl}/__control`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ webhookMode: 'delay', webhookDelayMs: WEBHOOK_DELAY_MS }),
  });
  if (!control.ok) throw new Error('the sandbox Paystack refused its controls');
  return inBatches(users.slice(0, DEPOSITS), SETUP_PARALLELISM, async (user, i) => {
    const outcome = i % 5 === 4 ? 'failed' : 'success';
    return { user, outcome, payload: await payDeposit(stack.url, stack.fakes.paystackUrl, user.token, DEPOSIT_NAIRA, outcome) };
  });
}

async function orderableServiceIds(stack: RunningStack): Promise<Array<{ id: number; min: number }>> {
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
  kind: Kind;
  request: RequestTemplate;
}

function trafficMix(
  users: SignedInUser[],
  deposits: PreparedDeposit[],
  orderable: Array<{ id: number; min: number }>,
  keys: Map<string, KeyOutcome>,
): Traffic[] {
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
    const attempt = {
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

/** What the server errors (5xx) said, per kind of traffic and message, with how often. */
type ServerErrors = Map<string, number>;

function serverErrorMessage(body: string): string {
  try {
    return String((JSON.parse(body) as { message?: unknown }).message);
  } catch {
    return body.slice(0, 200);
  }
}

async function runTraffic(stack: RunningStack, traffic: Traffic[], serverErrors: ServerErrors): Promise<Array<{ kind: Kind; result: Result }>> {
  return Promise.all(
    traffic.map(async ({ kind, request }) => ({
      kind,
      result: await autocannon({
        url: stack.url.replace('localhost', '127.0.0.1'),
        connections: Math.max(1, Math.round(CONNECTIONS * MIX[kind])),
        duration: SECONDS,
        timeout: 60,
        requests: [
          {
            ...request,
            onResponse: (status, body, context) => {
              if (status >= 500) {
                const key = `${kind} ${status}: ${serverErrorMessage(body)}`;
                serverErrors.set(key, (serverErrors.get(key) ?? 0) + 1);
              }
              request.onResponse?.(status, body, context);
            },
          },
        ],
      }),
    })),
  );
}

// ---------------------------------------------------------------- the checks

interface Check {
  name: string;
  problems: string[];
}

async function checkBooks(
  stack: RunningStack,
  adminToken: string,
  users: SignedInUser[],
  deposits: PreparedDeposit[],
  keys: Map<string, KeyOutcome>,
): Promise<Check[]> {
  const checks: Check[] = [];
  const { data: reconciliation } = await callApi<{ data: { ok: boolean } & Record<string, unknown> }>(stack.url, 'GET', 'admin/reconciliation', {
    token: adminToken,
  });
  checks.push({
    name: 'reconciliation (GET admin/reconciliation): each wallet equals its ledger, running balances follow, each successful payment credited once',
    problems: reconciliation.ok ? [] : [JSON.stringify(reconciliation).slice(0, 2000)],
  });

  const userIds = users.map((user) => user.id);
  const { db, close } = openDatabase({ DATABASE_URL: stack.databaseUrl, DB_WS_PROXY: stack.dbWsProxy });
  try {
    // One snapshot for every check: the scheduled jobs may be refunding an order meanwhile.
    await db.transaction(
      async (tx) => {
        const balances = await tx.execute<{ user_id: number; balance: string; credits: string; charges: string; refunds: string; debits: string }>(sql`
        select w.user_id, w.balance_kobo as balance,
          coalesce(sum(t.amount_kobo) filter (where t.source_kind in ('payment', 'admin_credit')), 0) as credits,
          coalesce(sum(t.amount_kobo) filter (where t.source_kind = 'order'), 0) as charges,
          coalesce(sum(t.amount_kobo) filter (where t.source_kind = 'order_refund'), 0) as refunds,
          coalesce(sum(t.amount_kobo) filter (where t.source_kind = 'admin_debit'), 0) as debits
        from wallets w left join ${walletTransactions} t on t.user_id = w.user_id
        where w.user_id in ${userIds}
        group by w.user_id, w.balance_kobo`);
        checks.push({
          name: "each user's balance = credits - charges + refunds (- administrators' debits), and never negative",
          problems: balances.rows
            .filter(
              (row) => BigInt(row.balance) !== BigInt(row.credits) - BigInt(row.charges) + BigInt(row.refunds) - BigInt(row.debits) || BigInt(row.balance) < 0n,
            )
            .map(
              (row) =>
                `user ${row.user_id}: balance ${row.balance}, credits ${row.credits}, charges ${row.charges}, refunds ${row.refunds}, debits ${row.debits}`,
            ),
        });

        const orderMoney = await tx.execute<{
          id: number;
          charge: string;
          debits: number;
          debited: string;
          refunded: string;
          refund_rows: number;
          refund: string;
        }>(sql`
        select o.id, o.charge_kobo as charge, o.refunded_kobo as refunded,
          (select count(*)::int from ${walletTransactions} d where d.source_kind = 'order' and d.source_ref = o.id::text) as debits,
          (select coalesce(sum(d.amount_kobo), 0) from ${walletTransactions} d where d.source_kind = 'order' and d.source_ref = o.id::text) as debited,
          (select count(*)::int from ${walletTransactions} r where r.source_kind = 'order_refund' and r.source_ref = o.id::text) as refund_rows,
          (select coalesce(sum(r.amount_kobo), 0) from ${walletTransactions} r where r.source_kind = 'order_refund' and r.source_ref = o.id::text) as refund
        from ${orders} o
        where o.user_id in ${userIds}`);
        const orphanDebits = await tx.execute<{ id: string; source_ref: string }>(sql`
        select t.id, t.source_ref from ${walletTransactions} t
        where t.user_id in ${userIds} and t.source_kind in ('order', 'order_refund')
          and not exists (select 1 from ${orders} o where o.id::text = t.source_ref and o.user_id = t.user_id)`);
        checks.push({
          name: `each of ${orderMoney.rows.length} orders is debited its charge once and refunded exactly what it records`,
          problems: [
            ...orderMoney.rows
              .filter(
                (row) =>
                  row.debits !== 1 ||
                  BigInt(row.debited) !== BigInt(row.charge) ||
                  BigInt(row.refund) !== BigInt(row.refunded) ||
                  row.refund_rows !== (BigInt(row.refunded) > 0n ? 1 : 0),
              )
              .map(
                (row) =>
                  `order ${row.id}: charge ${row.charge}, ${row.debits} debit(s) of ${row.debited}, refunded ${row.refunded} in ${row.refund_rows} row(s)`,
              ),
            ...orphanDebits.rows.map((row) => `ledger row ${row.id} names order ${row.source_ref}, which this user does not have`),
          ],
        });

        const references = deposits.map((deposit) => deposit.payload.reference);
        const payments = await tx.execute<{ reference: string; status: string; credits: number }>(sql`
        select p.reference, p.status, count(t.id)::int as credits
        from ${paymentIntents} p left join ${walletTransactions} t on t.source_kind = 'payment' and t.source_ref = p.reference
        where p.reference in ${references}
        group by p.reference, p.status`);
        const byReference = new Map(payments.rows.map((row) => [row.reference, row]));
        checks.push({
          name: `each of ${deposits.length} card deposits is credited once if paid, never if declined`,
          problems: deposits.flatMap(({ payload, outcome }) => {
            const row = byReference.get(payload.reference);
            const expected = outcome === 'success' ? 1 : 0;
            return row?.credits === expected && (outcome === 'success') === (row.status === 'success')
              ? []
              : [`${payload.reference} (${outcome} in the sandbox): ${row ? `${row.status}, credited ${row.credits} time(s)` : 'missing'}`];
          }),
        });

        const placed = await tx
          .select({ id: orders.id, key: orders.idempotencyKey, userId: orders.userId, link: orders.link })
          .from(orders)
          .where(inArray(orders.userId, userIds));
        const placedByKey = new Map(placed.map((order) => [`${order.userId}:${order.key}`, order]));
        const keyProblems: string[] = [];
        for (const { attempt, orderIds, created, statuses } of keys.values()) {
          const inDatabase = placedByKey.get(`${attempt.userId}:${attempt.key}`);
          if (orderIds.size > 1) keyProblems.push(`key ${attempt.key} answered orders ${[...orderIds].join(', ')}`);
          if (created > 1) keyProblems.push(`key ${attempt.key} created an order ${created} times`);
          if (orderIds.size === 1 && inDatabase?.id !== [...orderIds][0])
            keyProblems.push(`key ${attempt.key} answered order ${[...orderIds][0]}, the database has ${inDatabase?.id ?? 'none'}`);
          if (inDatabase && statuses.length > 0 && statuses.every((status) => status >= 400 && status < 500))
            keyProblems.push(`key ${attempt.key} was refused (${statuses.join(', ')}) yet placed order ${inDatabase.id}`);
        }
        const sentKeys = new Set([...keys.values()].map(({ attempt }) => `${attempt.userId}:${attempt.key}`));
        for (const [userKey, order] of placedByKey)
          if (!sentKeys.has(userKey)) keyProblems.push(`order ${order.id} has key ${order.key}, which the load never sent`);
        const fakeOrders = (await (await fetch(`${stack.fakes.smmProviderUrl}/__orders`)).json()) as { addCallsByLink: Record<string, number> };
        for (const order of placed) {
          const adds = fakeOrders.addCallsByLink[order.link] ?? 0;
          if (adds > 1) keyProblems.push(`order ${order.id} reached the provider ${adds} times`);
        }
        checks.push({ name: `each of ${keys.size} Idempotency-Keys placed one order at most once and sent \`add\` at most once`, problems: keyProblems });
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  } finally {
    await close();
  }
  return checks;
}

// ---------------------------------------------------------------- the report

const ms = (value: number) => value.toFixed(value < 10 ? 2 : 0);

function printTraffic(runs: Array<{ kind: Kind; result: Result }>): void {
  const rows = runs.map(({ kind, result }) => [
    kind,
    String(Math.max(1, Math.round(CONNECTIONS * MIX[kind]))),
    String(result.requests.total),
    result.requests.average.toFixed(0),
    ms(result.latency.p50),
    ms(result.latency.p99),
    Object.entries(result.statusCodeStats)
      .map(([status, { count }]) => `${status}×${count}`)
      .join(' '),
    String(result.errors + result.timeouts),
  ]);
  const headers = ['traffic', 'connections', 'requests', 'req/s', 'p50 ms', 'p99 ms', 'statuses', 'errors'];
  const widths = headers.map((header, column) => Math.max(header.length, ...rows.map((row) => row[column].length)));
  const line = (cells: string[]) =>
    cells.map((cell, column) => (column === 0 || column === 6 ? cell.padEnd(widths[column]) : cell.padStart(widths[column]))).join('  ');
  console.log(line(headers));
  console.log(widths.map((width) => '-'.repeat(width)).join('  '));
  for (const row of rows) console.log(line(row));
}

async function main() {
  const admin = { email: 'load-admin@example.com', password: randomBytes(18).toString('base64url') };
  console.log('Starting a stack of its own (SPA build, Postgres, sandbox providers, wrangler dev, scheduled jobs)...');
  const stack = await startThrowawayStack('load', {
    admin,
    wranglerOutput: 'ignore',
  });
  try {
    const adminToken = (await callApi<{ accessToken: string }>(stack.url, 'POST', 'auth/login', { body: admin })).accessToken;
    console.log(`Signing up and funding ${USERS} users, paying ${DEPOSITS} card deposits in the sandbox...`);
    const users = await prepareUsers(stack, adminToken);
    const deposits = await prepareDeposits(stack, users);
    const orderable = await orderableServiceIds(stack);

    console.log(`Running the mix from ${CONNECTIONS} connections for ${SECONDS} s...`);
    const keys = new Map<string, KeyOutcome>();
    const serverErrors: ServerErrors = new Map();
    const runs = await runTraffic(stack, trafficMix(users, deposits, orderable, keys), serverErrors);
    // Paystack's delayed webhooks and the requests still finishing settle before the books are read.
    await new Promise((resolve) => setTimeout(resolve, 5000));
    const checks = await checkBooks(stack, adminToken, users, deposits, keys);

    console.log(`\n${CONNECTIONS} connections, ${SECONDS} s, loopback; ${os.cpus().length} CPUs, Node ${process.version}\n`);
    printTraffic(runs);
    const repeats = [...keys.values()].filter((outcome) => outcome.statuses.length > 1).length;
    const answered = [...keys.values()].filter((outcome) => outcome.statuses.length > 0).length;
    console.log(
      `\nOrders: ${keys.size} Idempotency-Keys (${answered} answered before the end), ${repeats} of them sent more than once; deposits: ${deposits.length} (${deposits.filter((d) => d.outcome === 'failed').length} declined).\n`,
    );
    for (const check of checks) {
      console.log(`${check.problems.length === 0 ? 'ok  ' : 'FAIL'}  ${check.name}`);
      for (const problem of check.problems.slice(0, 20)) console.log(`        ${problem}`);
      if (check.problems.length > 20) console.log(`        ... and ${check.problems.length - 20} more`);
    }
    if (serverErrors.size > 0) {
      // Not money discrepancies (the checks above are), but worth reading: a 503 is the shop asking to retry.
      console.log('\nServer errors:');
      for (const [error, count] of [...serverErrors].sort((a, b) => b[1] - a[1])) console.log(`  ${count}× ${error}`);
    }
    if (checks.some((check) => check.problems.length > 0)) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

runScript(main);
