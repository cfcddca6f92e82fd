import { env, SELF } from 'cloudflare:test';
import { and, eq, TransactionRollbackError } from 'drizzle-orm';
import { afterEach, describe, expect, inject, it } from 'vitest';
import { notifications, paymentIntents, walletLedgerSums, wallets, walletTransactions } from '../../../drizzle/schema';
import { adminCredit } from '../../../worker/services/money/admin-entries';
import { applyLedgerEntry } from '../../../worker/services/money/ledger';
import { reverifyPendingDeposits } from '../../../worker/services/money/payments';
import { reconcile } from '../../../worker/services/money/reconciliation';
import { auditEntries, BASE, call, countingRoundTrips, createAdmin, registerAndLogin, type TestAccount, unique, withDb } from '../../support/api';
import { exportedCsv } from '../../support/ledger-export';
import { expectBooksKept } from '../fixtures/wallet-fixtures';

const paystack = inject('paystackUrl');
const paystackControl = (controls: Record<string, unknown>) =>
  fetch(`${paystack}/__control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(controls) });
const completeCheckout = (reference: string, outcome: 'success' | 'failed') =>
  fetch(`${paystack}/__complete`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference, outcome }) });
const webhooksFor = async (reference: string): Promise<Array<{ body: string; signature: string }>> => {
  const { webhooks } = (await (await fetch(`${paystack}/__webhooks`)).json()) as { webhooks: Array<{ reference: string; body: string; signature: string }> };
  return webhooks.filter((hook) => hook.reference === reference);
};
const postWebhook = (body: string, signature?: string) =>
  SELF.fetch(`${BASE}/webhooks/paystack`, {
    method: 'POST',
    body,
    headers: { 'content-type': 'application/json', ...(signature ? { 'x-paystack-signature': signature } : {}) },
  });

const balanceOf = async (account: TestAccount) => (await call('user/getWalletBalance', { token: account.accessToken })).body.walletBalance as number;

afterEach(async () => {
  await paystackControl({ verifyMode: 'normal', overrideAmount: null, overrideCurrency: null, webhookMode: 'normal' });
});

async function startDeposit(account: TestAccount, amount: number | string = 5000) {
  const response = await call('user/add-fund', { token: account.accessToken, body: { amount } });
  expect(response.status).toBe(201);
  return response.body as { checkoutUrl: string; signature: string; amount: number; reference: string };
}

/** A deposit started and paid on the sandbox checkout, not yet verified by anyone. */
async function paidDeposit(account: TestAccount, amount: number) {
  const payload = await startDeposit(account, amount);
  await completeCheckout(payload.reference, 'success');
  return payload;
}

const verify = (account: TestAccount, payload: { checkoutUrl: string; signature: string; amount: number | string }) =>
  call('user/verify-payment', { token: account.accessToken, body: { checkoutUrl: payload.checkoutUrl, signature: payload.signature, amount: payload.amount } });

/** The sums per kind the ledger's statements kept for the user (wallet_ledger_sums). */
const keptSums = async (userId: number) =>
  Object.fromEntries(
    (await withDb((db) => db.select().from(walletLedgerSums).where(eq(walletLedgerSums.userId, userId)))).map((row) => [row.sourceKind, row.amountKobo]),
  );

describe('balances', () => {
  it('start at zero for users and are refused to visitors and admins', async () => {
    const user = await registerAndLogin();
    expect(await call('user/getWalletBalance', { token: user.accessToken })).toMatchObject({ status: 200, body: { walletBalance: 0, walletDebt: 0 } });
    expect(await call('user/getMai', { token: user.accessToken })).toMatchObject({ status: 200, body: { smmBalance: 0 } });
    expect((await call('user/getWalletBalance')).status).toBe(401);
    const admin = await createAdmin();
    expect((await call('user/getWalletBalance', { token: admin.accessToken })).status).toBe(403);
    // Admins still reach their own profile under user/.
    expect((await call('user/getCurrentProfile', { token: admin.accessToken })).status).toBe(200);
  });
});

describe('the ledger', () => {
  it('never lets concurrent spends take a balance below zero', async () => {
    const user = await registerAndLogin();
    await withDb((db) =>
      applyLedgerEntry(db, {
        userId: user.id,
        direction: 'credit',
        amountKobo: 10_000n,
        source: 'admin_credit',
        sourceRef: unique('seed'),
        description: 'seed',
      }),
    );
    const results = await Promise.allSettled(
      Array.from({ length: 40 }, () =>
        withDb((db) =>
          applyLedgerEntry(db, { userId: user.id, direction: 'debit', amountKobo: 1_000n, source: 'order', sourceRef: unique('spend'), description: 'spend' }),
        ),
      ),
    );
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(10);
    for (const failure of results.filter((r): r is PromiseRejectedResult => r.status === 'rejected'))
      expect(failure.reason.message).toBe('Insufficient wallet balance');
    expect(await balanceOf(user)).toBe(0);
    const rows = await withDb((db) => db.select().from(walletTransactions).where(eq(walletTransactions.userId, user.id)));
    expect(rows).toHaveLength(11);
    expect(rows.every((row) => row.balanceAfterKobo >= 0n)).toBe(true);
    // The refused debits added nothing to the kept sums either.
    expect(await keptSums(user.id)).toEqual({ admin_credit: 10_000n, order: 10_000n });
  });

  it('refuses a second entry for the same source and reference', async () => {
    const user = await registerAndLogin();
    const entry = {
      userId: user.id,
      direction: 'credit' as const,
      amountKobo: 500n,
      source: 'order_refund' as const,
      sourceRef: unique('refund'),
      description: 'refund',
    };
    await withDb((db) => applyLedgerEntry(db, entry));
    await expect(withDb((db) => applyLedgerEntry(db, entry))).rejects.toThrow(/already exists/);
    expect(await balanceOf(user)).toBe(5);
  });
});

describe('POST user/admin-credit-user-wallet', () => {
  it('credits once per reference, records the admin and writes the audit log', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = unique('ref');
    const first = await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 1500.5, reference, userId: user.id } });
    expect(first.status).toBe(200);
    expect(first.body.message).toBe('Added successfully!');
    expect(await balanceOf(user)).toBe(1500.5);

    const again = await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 1500.5, reference, userId: user.id } });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe('This reference has already been used. Please use a new reference.');
    expect(await balanceOf(user)).toBe(1500.5);

    const [row] = await withDb((db) =>
      db
        .select()
        .from(walletTransactions)
        .where(and(eq(walletTransactions.sourceKind, 'admin_credit'), eq(walletTransactions.sourceRef, reference))),
    );
    expect(row).toMatchObject({ createdBy: admin.id, amountKobo: 150050n, transactionType: 1 });
    const audits = await auditEntries({ actorId: admin.id, action: 'wallet.credit' });
    expect(audits).toHaveLength(1);
  });

  it('credits exactly once when the same reference arrives concurrently', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = unique('ref');
    const statuses = await Promise.all(
      Array.from({ length: 20 }, () =>
        call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 100, reference, userId: user.id } }).then((r) => r.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    expect(await balanceOf(user)).toBe(100);
    expect(await keptSums(user.id)).toEqual({ admin_credit: 10_000n });
  });

  it.each([
    [{ amount: 0, reference: 'r' }, 'Please enter a valid amount'],
    [{ amount: -5, reference: 'r' }, 'Please enter a valid amount'],
    [{ amount: 'abc', reference: 'r' }, 'Please enter a valid amount'],
    [{ amount: 1.234, reference: 'r' }, 'Please enter a valid amount'],
    [{ reference: 'r' }, 'Please enter a valid amount'],
    [{ amount: 10, reference: '  ' }, 'Please enter a valid reference'],
    [{ amount: 10 }, 'Please enter a valid reference'],
  ])('rejects %j with "%s"', async (body, message) => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const response = await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { userId: user.id, ...body } });
    expect(response.status).toBe(400);
    expect(response.body.message).toBe(message);
  });

  it('writes the credit and its audit row with one statement, one round trip without a WebSocket', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = unique('ref');
    const { result, httpCalls, webSockets } = await countingRoundTrips((db) => adminCredit(db, admin.id, { amount: '12.34', reference, userId: user.id }));
    expect({ httpCalls, webSockets }).toEqual({ httpCalls: 1, webSockets: 0 });
    expect(result.balanceAfterKobo).toBe(1234n);
    const [audit] = await auditEntries({ actorId: admin.id, action: 'wallet.credit' });
    expect(audit).toMatchObject({
      targetType: 'user',
      targetId: String(user.id),
      details: { amount: '12.34', reference, transactionId: result.transactionId },
    });
  });

  it('is for administrators only, and 404s an unknown user', async () => {
    const user = await registerAndLogin();
    const body = { amount: 10, reference: unique(), userId: user.id };
    expect((await call('user/admin-credit-user-wallet', { token: user.accessToken, body })).status).toBe(403);
    expect((await call('user/admin-credit-user-wallet', { body })).status).toBe(401);
    const admin = await createAdmin();
    expect((await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { ...body, userId: 99_999_999 } })).status).toBe(404);
  });
});

describe("an administrator's entry is told to the wallet's owner", () => {
  const told = async (account: TestAccount) =>
    ((await call('user/notifications', { token: account.accessToken })).body.data.items as Array<{ kind: string; title: string; body: string; link: string }>)
      .filter((item) => item.kind === 'wallet_adjusted')
      .map(({ title, body, link }) => ({ title, body, link }));

  it('a credit: in the bell (and by email unless turned off) with the amount and the reference the history shows, and nothing kept for the audit log', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = unique('ref');
    expect((await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 1500, reference, userId: user.id } })).status).toBe(200);
    expect(await told(user)).toEqual([
      { title: 'Wallet credited', body: `NGN\u00a01,500.00 was added to your wallet by an administrator (ref ${reference}).`, link: '/user/transactions' },
    ]);
    // Who made it is the audit log's, not the customer's.
    const [audit] = await auditEntries({ actorId: admin.id, action: 'wallet.credit' });
    expect(audit.targetId).toBe(String(user.id));
    expect(JSON.stringify(await told(user))).not.toContain(admin.email);
    // The email job sends it unless the user turned the kind off in Settings.
    const [row] = await withDb((db) =>
      db
        .select({ emailState: notifications.emailState })
        .from(notifications)
        .where(and(eq(notifications.userId, user.id), eq(notifications.kind, 'wallet_adjusted'))),
    );
    expect(row.emailState).toBe('pending');
    expect((await call('user/notification-settings', { token: user.accessToken })).body.data.email.wallet_adjusted).toBe(true);

    // A reference used again moves nothing and tells nothing more.
    expect((await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 1500, reference, userId: user.id } })).status).toBe(409);
    expect(await told(user)).toHaveLength(1);
  });

  it('a debit: with its reason; one refused for want of balance is not told', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    await withDb((db) => adminCredit(db, admin.id, { amount: '50', reference: unique('ref'), userId: user.id }));
    const refused = await call('admin/wallet/debit', {
      token: admin.accessToken,
      body: { amount: 60, reference: unique('ref'), reason: 'too much', userId: user.id },
    });
    expect(refused.status).toBe(400);
    expect(await told(user)).toHaveLength(1);
    const reference = unique('ref');
    const debit = await call('admin/wallet/debit', {
      token: admin.accessToken,
      body: { amount: 20.5, reference, reason: 'Duplicate credit.', userId: user.id },
    });
    expect(debit.status).toBe(200);
    expect((await told(user))[0]).toEqual({
      title: 'Wallet corrected',
      body: `NGN\u00a020.50 was taken from your wallet by an administrator: Duplicate credit (ref ${reference}).`,
      link: '/user/transactions',
    });
  });
});

describe('admin debit', () => {
  it('corrects a balance with a reason and never goes below zero', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 50, reference: unique(), userId: user.id } });
    const tooMuch = await call('admin/wallet/debit', {
      token: admin.accessToken,
      body: { amount: 60, reference: unique(), reason: 'duplicate credit', userId: user.id },
    });
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.body.message).toBe('Insufficient wallet balance');
    const ok = await call('admin/wallet/debit', {
      token: admin.accessToken,
      body: { amount: 20, reference: unique(), reason: 'duplicate credit', userId: user.id },
    });
    expect(ok.status).toBe(200);
    expect(await balanceOf(user)).toBe(30);
    expect((await call('admin/wallet/debit', { token: admin.accessToken, body: { amount: 20, reference: unique(), userId: user.id } })).body.message).toBe(
      'Please give a reason',
    );
  });
});

describe('card funding', () => {
  it('credits the wallet once after a successful checkout, and shows it in the history', async () => {
    const user = await registerAndLogin();
    const payload = await startDeposit(user, 5000);
    expect(payload.checkoutUrl).toMatch(/\/checkout\//);
    expect(payload.amount).toBe(5000);
    expect((await verify(user, payload)).body.data.orderStatus).toBe(1);
    await completeCheckout(payload.reference, 'success');
    const verified = await verify(user, payload);
    expect(verified.status).toBe(200);
    expect(verified.body.data.orderStatus).toBe(2);
    expect((await verify(user, payload)).body.data.orderStatus).toBe(2);
    expect(await balanceOf(user)).toBe(5000);
    const history = await call('user/transactions', { token: user.accessToken });
    expect(history.body).toMatchObject({ page: 1, total: 1 });
    expect(history.body.data[0]).toMatchObject({ transaction_type: 1, amount: '5000.00', balance_after: '5000.00', reference: payload.reference });
  });

  it('credits exactly once under 50 concurrent verify and webhook calls', async () => {
    const user = await registerAndLogin();
    const payload = await paidDeposit(user, 2500);
    const [hook] = await webhooksFor(payload.reference);
    const calls = Array.from({ length: 50 }, (_, i) =>
      i % 2 === 0 ? verify(user, payload).then((r) => r.status) : postWebhook(hook.body, hook.signature).then((r) => r.status),
    );
    const statuses = await Promise.all(calls);
    expect(statuses.every((s) => s === 200)).toBe(true);
    expect(await balanceOf(user)).toBe(2500);
    const credits = await withDb((db) => db.select().from(walletTransactions).where(eq(walletTransactions.sourceRef, payload.reference)));
    expect(credits).toHaveLength(1);
  });

  it('credits through the webhook alone, and a replay days later changes nothing', async () => {
    const user = await registerAndLogin();
    const payload = await paidDeposit(user, 1000);
    const [hook] = await webhooksFor(payload.reference);
    expect((await postWebhook(hook.body, hook.signature)).status).toBe(200);
    expect(await balanceOf(user)).toBe(1000);
    expect((await postWebhook(hook.body, hook.signature)).status).toBe(200);
    expect(await balanceOf(user)).toBe(1000);
  });

  it('refuses unsigned, forged and altered webhooks', async () => {
    const user = await registerAndLogin();
    const payload = await paidDeposit(user, 1000);
    const [hook] = await webhooksFor(payload.reference);
    expect((await postWebhook(hook.body)).status).toBe(401);
    expect((await postWebhook(hook.body, 'ab'.repeat(64))).status).toBe(401);
    const altered = hook.body.replace(/"amount":\d+/, '"amount":99999999');
    expect(altered).not.toBe(hook.body);
    const response = await postWebhook(altered, hook.signature);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ message: 'Invalid webhook signature', error: 'Unauthorized' });
    expect(await balanceOf(user)).toBe(0);
  });

  it('does not credit a declined payment', async () => {
    const user = await registerAndLogin();
    const payload = await startDeposit(user, 1000);
    await completeCheckout(payload.reference, 'failed');
    expect((await verify(user, payload)).body.data.orderStatus).toBe(3);
    expect(await balanceOf(user)).toBe(0);
  });

  it("rejects altered amounts, forged signatures and another user's payload", async () => {
    const user = await registerAndLogin();
    const thief = await registerAndLogin();
    const payload = await paidDeposit(user, 1000);
    for (const [account, tampered] of [
      [user, { ...payload, amount: 100000 }],
      [user, { ...payload, signature: `${payload.reference}.${'0'.repeat(64)}` }],
      [user, { ...payload, checkoutUrl: 'https://evil.example/checkout' }],
      [thief, payload],
    ] as const) {
      const response = await verify(account, tampered);
      expect(response.status).toBe(400);
      expect(response.body.message).toBe('This payment could not be verified. Please start the deposit again.');
    }
    expect(await balanceOf(thief)).toBe(0);
    expect(await balanceOf(user)).toBe(0);
  });

  it.each([
    ['another amount', { overrideAmount: 100 }],
    ['another currency', { overrideCurrency: 'USD' }],
  ])('never credits when the provider reports %s', async (_what, report) => {
    const user = await registerAndLogin();
    const payload = await paidDeposit(user, 1000);
    await paystackControl(report);
    expect((await verify(user, payload)).body.data.orderStatus).toBe(3);
    expect(await balanceOf(user)).toBe(0);
  });

  it('answers 503 when the provider is down and credits on a later retry', async () => {
    const user = await registerAndLogin();
    const payload = await paidDeposit(user, 1000);
    await paystackControl({ verifyMode: 'garbage' });
    const down = await verify(user, payload);
    expect(down.status).toBe(503);
    expect(down.body.message).toMatch(/not answering/);
    await paystackControl({ verifyMode: 'normal' });
    expect((await verify(user, payload)).body.data.orderStatus).toBe(2);
    expect(await balanceOf(user)).toBe(1000);
  });

  it('credits a payment the payer never returned from, through the scheduled re-verification', async () => {
    const user = await registerAndLogin();
    const payload = await paidDeposit(user, 3000);
    await withDb((db) =>
      db
        .update(paymentIntents)
        .set({ createdAt: new Date(Date.now() - 10 * 60_000) })
        .where(eq(paymentIntents.reference, payload.reference)),
    );
    const result = await withDb((db) => reverifyPendingDeposits(db, env));
    expect(result.credited).toBeGreaterThanOrEqual(1);
    expect(await balanceOf(user)).toBe(3000);
    // The return page arriving afterwards finds it done and credits nothing more.
    expect((await verify(user, payload)).body.data.orderStatus).toBe(2);
    expect(await balanceOf(user)).toBe(3000);
  });

  it('re-checks never-checked deposits before ones already asked about, so abandoned checkouts never starve a paid one', async () => {
    const user = await registerAndLogin();
    const payload = await paidDeposit(user, 1200);
    const abandoner = await registerAndLogin();
    await withDb(async (db) => {
      await db
        .update(paymentIntents)
        .set({ createdAt: new Date(Date.now() - 47 * 3600_000) })
        .where(eq(paymentIntents.reference, payload.reference));
      // Older checkouts, each asked about before and still unpaid: by age alone they would come first.
      await db.insert(paymentIntents).values(
        Array.from({ length: 10 }, (_, i) => ({
          reference: `abandoned-${abandoner.id}-${i}`,
          userId: abandoner.id,
          provider: 'paystack',
          amountKobo: 10_000n,
          createdAt: new Date(Date.now() - 47.5 * 3600_000),
          lastCheckedAt: new Date(Date.now() - 5 * 60_000),
        })),
      );
    });
    await withDb((db) => reverifyPendingDeposits(db, env, 3));
    expect(await balanceOf(user)).toBe(1200);
  });

  it('enforces the deposit limits and validates the amount', async () => {
    const user = await registerAndLogin();
    expect((await call('user/add-fund', { token: user.accessToken, body: { amount: 99 } })).body.message).toBe(
      'Amount must be between NGN\u00a0100.00 and NGN\u00a05,000,000.00',
    );
    expect((await call('user/add-fund', { token: user.accessToken, body: { amount: 5_000_001 } })).status).toBe(400);
    expect((await call('user/add-fund', { token: user.accessToken, body: {} })).body.message).toBe('Please enter a valid amount');
    const intents = await withDb((db) => db.select().from(paymentIntents).where(eq(paymentIntents.userId, user.id)));
    expect(intents).toHaveLength(0);
  });
});

describe('history and admin views', () => {
  it('paginates and filters the user history, newest first', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    for (const amount of [10, 20, 30])
      await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount, reference: unique(), userId: user.id } });
    await call('admin/wallet/debit', { token: admin.accessToken, body: { amount: 5, reference: unique(), reason: 'correction', userId: user.id } });
    const page = await call('user/transactions?page=1&limit=2', { token: user.accessToken });
    expect(page.body).toMatchObject({ page: 1, limit: 2, total: 4 });
    expect(page.body.data.map((t: { amount: string }) => t.amount)).toEqual(['5.00', '30.00']);
    const deposits = await call('user/transactions?type=1', { token: user.accessToken });
    expect(deposits.body.total).toBe(3);
    expect((await call('user/transactions?limit=1000', { token: user.accessToken })).status).toBe(400);
    expect((await call('user/transactions?from=yesterday', { token: user.accessToken })).body.message).toBe('from must be a date (YYYY-MM-DD)');
  });

  it('gives admins the user-detail shape of the spec', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin({ fullName: 'Detail Person' });
    await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 70, reference: unique(), userId: user.id } });
    const detail = await call(`admin/getUserDeta/${user.id}`, { token: admin.accessToken });
    expect(detail.status).toBe(200);
    expect(Object.keys(detail.body)).toEqual(expect.arrayContaining(['message', 'profile', 'walletHistory', 'orders']));
    expect(detail.body.profile).toMatchObject({ id: user.id, fullName: 'Detail Person', wallet: { balance: '70.00' } });
    expect(detail.body.walletHistory[0]).toMatchObject({ transaction_type: 1, amount: '70.00' });
    // An administrator's credit is not a deposit: Total Deposits counts money paid in by card.
    expect(detail.body.summary).toMatchObject({
      availableBalance: '70.00',
      totalDeposits: '0.00',
      totalAdminCredits: '70.00',
      totalSpent: '0.00',
      debt: '0.00',
    });
    expect(detail.body.reversals).toEqual([]);
    expect((await call('admin/getUserDeta/99999999', { token: admin.accessToken })).status).toBe(404);
    expect((await call('admin/getUserDeta/abc', { token: admin.accessToken })).status).toBe(400);
    expect((await call(`admin/getUserDeta/${user.id}`, { token: user.accessToken })).status).toBe(403);
  });

  it("lists and exports every user's transactions for admins", async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = unique('exp');
    await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 12.5, reference, userId: user.id } });
    const list = await call(`admin/transactions?userId=${user.id}`, { token: admin.accessToken });
    expect(list.body.total).toBe(1);
    const lines = (await exportedCsv(admin.accessToken, { search: reference })).trim().split('\r\n');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toContain('"12.50"');
  });
});

describe('reconciliation', () => {
  it('finds every wallet equal to its ledger and every payment credited once', async () => {
    const report = await withDb((db) => reconcile(db));
    expect(report.balanceMismatches).toEqual([]);
    expect(report.brokenRunningBalances).toEqual([]);
    expect(report.paymentMismatches, JSON.stringify(report.paymentMismatches.slice(0, 3))).toEqual([]);
    const admin = await createAdmin();
    expectBooksKept((await call('admin/reconciliation', { token: admin.accessToken })).body.data, [admin.id]);
  });

  it('notices a payment credited without a successful intent', async () => {
    const user = await registerAndLogin();
    let report: Awaited<ReturnType<typeof reconcile>> | undefined;
    await withDb((db) =>
      db
        .transaction(async (tx) => {
          await applyLedgerEntry(tx, {
            userId: user.id,
            direction: 'credit',
            amountKobo: 100n,
            source: 'payment',
            sourceRef: 'dep-forged',
            description: 'forged',
          });
          report = await reconcile(tx);
          tx.rollback();
        })
        .catch((error) => {
          if (!(error instanceof TransactionRollbackError)) throw error;
        }),
    );
    expect(report?.paymentMismatches).toEqual([{ reference: 'dep-forged', status: null, credits: 1 }]);
  });

  it("notices a balance changed behind the ledger's back", async () => {
    const user = await registerAndLogin();
    // Tampered inside a transaction that is rolled back, so parallel test files never see it.
    let report: Awaited<ReturnType<typeof reconcile>> | undefined;
    await withDb((db) =>
      db
        .transaction(async (tx) => {
          await tx.update(wallets).set({ balanceKobo: 123n }).where(eq(wallets.userId, user.id));
          report = await reconcile(tx);
          tx.rollback();
        })
        .catch((error) => {
          if (!(error instanceof TransactionRollbackError)) throw error;
        }),
    );
    if (!report) throw new Error('no report');
    expect(report.balanceMismatches).toContainEqual({ userId: user.id, balance: '1.23', ledger: '0.00' });
    expect(report.ok).toBe(false);
  });
});
