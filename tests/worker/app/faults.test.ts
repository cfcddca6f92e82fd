// Faults on the money paths. The database connection dies in the middle of a money
// transaction; the payment provider times out, answers garbage or a server error, or
// answers twice; a webhook comes back days later. In every case the wallet is credited
// exactly once or not at all, nothing is half-written, and reconciliation stays clean.
//
// Requests go straight into the real app with the test bindings, except that Paystack is
// this file's own copy of the fake (its /__scope): the root copy's failure switches are
// shared with wallet.test.ts, which runs alongside and would see a timeout set here.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { eq, type SQL, sql, TransactionRollbackError } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { paymentIntents, walletTransactions } from '../../../drizzle/schema';
import { app } from '../../../worker/app';
import { reconcile } from '../../../worker/services/money/reconciliation';
import { auditEntries, BASE, createAdmin, registerAndLogin, type TestAccount, unique, uniqueIp, withDb } from '../../support/api';
import { fakeScope } from '../providers/fake-scope';

const paystack = fakeScope(inject('paystackUrl'));
const bindings = { ...env, PAYSTACK_BASE_URL: paystack.url };

/** What these tests read of the shop's answers: a refusal's message and error, a verified payment's order status. */
interface ShopAnswer {
  message?: string;
  error?: string;
  data?: { orderStatus: number };
}

interface Answer<Body = ShopAnswer> {
  status: number;
  body: Body;
}

async function api<Body = ShopAnswer>(path: string, options: { token?: string; body?: unknown; headers?: Record<string, string> } = {}): Promise<Answer<Body>> {
  const headers: Record<string, string> = { 'cf-connecting-ip': uniqueIp(), ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] ??= 'application/json';
  const request = new Request(`${BASE}/${path}`, {
    method: options.body === undefined ? 'GET' : 'POST',
    headers,
    body: options.body === undefined ? undefined : typeof options.body === 'string' ? options.body : JSON.stringify(options.body),
  });
  const ctx = createExecutionContext();
  const response = await app.fetch(request, bindings, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const balanceOf = async (account: TestAccount) =>
  (await api<{ walletBalance: number }>('user/getWalletBalance', { token: account.accessToken })).body.walletBalance;
const ledgerRowsFor = (reference: string) => withDb((db) => db.select().from(walletTransactions).where(eq(walletTransactions.sourceRef, reference)));

async function expectBooksReconcile() {
  const report = await withDb((db) => reconcile(db));
  expect(report.balanceMismatches).toEqual([]);
  expect(report.brokenRunningBalances).toEqual([]);
  expect(report.paymentMismatches).toEqual([]);
  expect(report.ok).toBe(true);
}

/** The money under this reference reached the wallet exactly once, and the books still add up. */
async function expectCreditedOnce(account: TestAccount, reference: string, naira: number) {
  expect(await balanceOf(account)).toBe(naira);
  expect(await ledgerRowsFor(reference)).toHaveLength(1);
  await expectBooksReconcile();
}

afterEach(async () => {
  await paystack.post('/__control', { verifyMode: 'normal', overrideAmount: null, overrideCurrency: null });
});

interface Deposit {
  checkoutUrl: string;
  signature: string;
  amount: number;
  reference: string;
}

async function paidDeposit(account: TestAccount, amount: number): Promise<Deposit> {
  const started = await api<Deposit>('user/add-fund', { token: account.accessToken, body: { amount } });
  expect(started.status).toBe(201);
  await paystack.post('/__complete', { reference: started.body.reference, outcome: 'success' });
  return started.body;
}

const verify = (account: TestAccount, { checkoutUrl, signature, amount }: Deposit) =>
  api('user/verify-payment', { token: account.accessToken, body: { checkoutUrl, signature, amount } });

async function chargeSuccessWebhook(reference: string): Promise<{ body: string; signature: string }> {
  const { webhooks } = (await paystack.get('/__webhooks')) as { webhooks: Array<{ reference: string; body: string; signature: string }> };
  const hook = webhooks.find((candidate) => candidate.reference === reference);
  if (!hook) throw new Error(`no charge.success recorded for ${reference}`);
  return hook;
}

/** A new user's paid deposit, and the charge.success webhook Paystack recorded for it (not yet delivered). */
async function paidDepositAndHook(amount: number) {
  const user = await registerAndLogin();
  const deposit = await paidDeposit(user, amount);
  return { user, deposit, hook: await chargeSuccessWebhook(deposit.reference) };
}

const postWebhook = (hook: { body: string; signature: string }) =>
  api('webhooks/paystack', { body: hook.body, headers: { 'x-paystack-signature': hook.signature } });

// ---------------------------------------------------------------- the database connection drops

/**
 * Holds a lock in a transaction of its own, so that a request's transaction stops at a known
 * statement and its connection can be ended there with pg_terminate_backend.
 */
async function holdLock(statement: SQL) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let lockHeld!: (pid: number) => void;
  const holderPid = new Promise<number>((resolve) => (lockHeld = resolve));
  const finished = withDb((db) =>
    db.transaction(async (tx) => {
      await tx.execute(statement);
      lockHeld((await tx.execute<{ pid: number }>(sql`select pg_backend_pid() as pid`)).rows[0].pid);
      await released;
      tx.rollback();
    }),
  ).catch((error) => {
    if (!(error instanceof TransactionRollbackError)) throw error;
  });
  const pid = await Promise.race([holderPid, finished.then(() => Promise.reject(new Error('the lock was never taken')))]);
  return {
    /**
     * Waits for the transaction that is blocked on this lock and has already written the row
     * `writtenRow` selects (the row's xmax is that transaction's id), and ends its connection.
     */
    async terminateBlockedWriter(writtenRow: SQL): Promise<void> {
      const deadline = Date.now() + 10_000;
      while (Date.now() < deadline) {
        const { rows } = await withDb((db) =>
          db.execute<{ pid: number }>(
            sql`select a.pid from pg_stat_activity a where ${pid}::int = any(pg_blocking_pids(a.pid)) and a.backend_xid = (${writtenRow})`,
          ),
        );
        if (rows.length === 1) {
          await withDb((db) => db.execute(sql`select pg_terminate_backend(${rows[0].pid}::int)`));
          return;
        }
        await new Promise((resolve) => setTimeout(resolve, 25));
      }
      throw new Error('the request never reached the locked statement');
    },
    async release(): Promise<void> {
      release();
      await finished;
    },
  };
}

/** Sends `request` while `lockStatement` holds its lock, ends the request's connection once it has written `writtenRow`, and gives back its answer. */
async function cutMidTransaction(lockStatement: SQL, request: () => Promise<Answer>, writtenRow: SQL): Promise<Answer> {
  const lock = await holdLock(lockStatement);
  const pending = request();
  try {
    await lock.terminateBlockedWriter(writtenRow);
  } finally {
    await lock.release();
  }
  return pending;
}

describe('the database connection drops mid-transaction', () => {
  it('an admin credit cut after its wallet update moves no money and writes no audit row; the retry credits once', async () => {
    const [admin, user] = await Promise.all([createAdmin(), registerAndLogin()]);
    const reference = unique('cut');
    const credit = () => api('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 250, reference, userId: user.id } });

    // The credit is one statement: it updates the wallet, then waits here to write its ledger row
    // (an uncommitted row with the same reference holds the unique index), before its audit row.
    const held = sql`
      insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description)
      values (${user.id}, 1, 1, 1, 'admin_credit', ${reference}, 'held by the test')`;
    const answer = await cutMidTransaction(held, credit, sql`select xmax from wallets where user_id = ${user.id}`);

    expect(answer.status).toBe(503);
    expect(answer.body).toMatchObject({ message: expect.any(String), error: 'Service Unavailable' });
    expect(await balanceOf(user)).toBe(0);
    expect(await ledgerRowsFor(reference)).toEqual([]);
    const audits = await auditEntries({ action: 'wallet.credit', targetId: user.id });
    expect(audits).toEqual([]);
    await expectBooksReconcile();

    expect((await credit()).status).toBe(200);
    expect((await credit()).status).toBe(409);
    await expectCreditedOnce(user, reference, 250);
  });

  it('a card payment cut between claiming the payment and crediting the wallet stays pending; the next verify credits once', async () => {
    const user = await registerAndLogin();
    const deposit = await paidDeposit(user, 700);

    // The verification claims the payment intent, then waits here for the wallet row.
    const answer = await cutMidTransaction(
      sql`select 1 from wallets where user_id = ${user.id} for update`,
      () => verify(user, deposit),
      sql`select xmax from payment_intents where reference = ${deposit.reference}`,
    );

    expect(answer.status).toBe(503);
    expect(answer.body.error).toBe('Service Unavailable');
    const [intent] = await withDb((db) => db.select().from(paymentIntents).where(eq(paymentIntents.reference, deposit.reference)));
    expect(intent.status).toBe('pending');
    expect(await balanceOf(user)).toBe(0);
    await expectBooksReconcile();

    expect((await verify(user, deposit)).body.data?.orderStatus).toBe(2);
    expect((await verify(user, deposit)).body.data?.orderStatus).toBe(2);
    await expectCreditedOnce(user, deposit.reference, 700);
  });
});

// ---------------------------------------------------------------- the payment provider misbehaves

describe('the payment provider', () => {
  it('timing out: the verify answers 503 and credits nothing; a later verify credits once', async () => {
    const user = await registerAndLogin();
    const deposit = await paidDeposit(user, 300);
    await paystack.post('/__control', { verifyMode: 'timeout' });
    const timedOut = await verify(user, deposit);
    expect(timedOut.status).toBe(503);
    expect(timedOut.body).toMatchObject({ message: expect.stringMatching(/not answering/), error: 'Service Unavailable' });
    expect(await balanceOf(user)).toBe(0);

    await paystack.post('/__control', { verifyMode: 'normal' });
    expect((await verify(user, deposit)).body.data?.orderStatus).toBe(2);
    expect(await balanceOf(user)).toBe(300);
    await expectBooksReconcile();
  }, 40_000);

  it.each(['garbage', 'error'] as const)('answering %s: no credit, a clean 503, and one credit once it recovers', async (verifyMode) => {
    const { user, deposit, hook } = await paidDepositAndHook(400);
    await paystack.post('/__control', { verifyMode });
    const broken = await verify(user, deposit);
    expect(broken.status).toBe(503);
    expect(broken.body.error).toBe('Service Unavailable');
    // The webhook is re-verified with the provider too, so it cannot credit on the provider's word alone.
    expect((await postWebhook(hook)).status).toBe(503);
    expect(await balanceOf(user)).toBe(0);
    const [intent] = await withDb((db) => db.select().from(paymentIntents).where(eq(paymentIntents.reference, deposit.reference)));
    expect(intent.status).toBe('pending');

    await paystack.post('/__control', { verifyMode: 'normal' });
    expect((await postWebhook(hook)).status).toBe(200);
    expect((await verify(user, deposit)).body.data?.orderStatus).toBe(2);
    await expectCreditedOnce(user, deposit.reference, 400);
  });

  it('answering twice: the same webhook delivered three times, racing two return-page verifies, credits once', async () => {
    const { user, deposit, hook } = await paidDepositAndHook(1500);
    const answers = await Promise.all([postWebhook(hook), verify(user, deposit), postWebhook(hook), postWebhook(hook), verify(user, deposit)]);
    expect(answers.map((answer) => answer.status)).toEqual([200, 200, 200, 200, 200]);
    await expectCreditedOnce(user, deposit.reference, 1500);
  });

  it('a webhook arriving after the return page already credited changes nothing', async () => {
    const user = await registerAndLogin();
    const deposit = await paidDeposit(user, 800);
    expect((await verify(user, deposit)).body.data?.orderStatus).toBe(2);
    expect((await postWebhook(await chargeSuccessWebhook(deposit.reference))).status).toBe(200);
    expect(await balanceOf(user)).toBe(800);
    expect(await ledgerRowsFor(deposit.reference)).toHaveLength(1);
  });
});

// ---------------------------------------------------------------- webhooks replayed days later

/** Moves a payment (and any credit of it) back in time, as if it happened `days` ago. */
async function age(reference: string, days: number) {
  await withDb(async (db) => {
    await db
      .update(paymentIntents)
      .set({ createdAt: sql`created_at - make_interval(days => ${days})` })
      .where(eq(paymentIntents.reference, reference));
    await db
      .update(walletTransactions)
      .set({ createdAt: sql`created_at - make_interval(days => ${days})` })
      .where(eq(walletTransactions.sourceRef, reference));
  });
}

describe('a webhook replayed days later', () => {
  it('for a payment credited at the time credits nothing more', async () => {
    const { user, deposit, hook } = await paidDepositAndHook(1200);
    expect((await postWebhook(hook)).status).toBe(200);
    await age(deposit.reference, 5);
    expect((await postWebhook(hook)).status).toBe(200);
    expect((await postWebhook(hook)).status).toBe(200);
    await expectCreditedOnce(user, deposit.reference, 1200);
  });

  it('for a payment nobody verified (past the scheduled re-check window) credits it exactly once', async () => {
    const { user, deposit, hook } = await paidDepositAndHook(900);
    await age(deposit.reference, 4);
    const replays = await Promise.all([postWebhook(hook), postWebhook(hook), postWebhook(hook)]);
    expect(replays.map((answer) => answer.status)).toEqual([200, 200, 200]);
    await expectCreditedOnce(user, deposit.reference, 900);
  });
});
