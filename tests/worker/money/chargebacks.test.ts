// Card payments the provider takes back after crediting a wallet, end to end through the Worker and
// the sandbox Paystack: the payer deposits, spends, and Paystack refunds or disputes the payment
// (its /__refund and /__dispute controls send the signed webhooks Paystack sends). What the wallet
// still holds is taken back once, the spent part becomes a debt that refuses orders in the SPA, the
// mass order and the reseller API, the next deposit settles it first, and replayed, duplicated or
// reordered webhooks move nothing a second time. The books reconcile after every step.
import { SELF } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings, paymentReversals, wallets, walletTransactions } from '../../../drizzle/schema';
import { hmacHex } from '../../../worker/lib/crypto';
import { walletDebtMessage } from '../../../worker/services/money/ledger';
import { reconcile } from '../../../worker/services/money/reconciliation';
import { call, createAdmin, registerAndLogin, type TestAccount, unique, withDb } from '../../support/api';
import { TEST_SECRETS } from '../../support/secrets';
import { newLink, placeOrder } from '../fixtures/order-fixtures';
import { reversalsWithMoves } from '../fixtures/payment-fixtures';
import { deliverPaystackHook, type PaystackHook, paystackFake, paystackHooksFor } from '../fixtures/paystack-fixtures';
import { FAKE, newShop } from '../fixtures/shop-fixtures';

/** A deposit paid on the sandbox checkout; its charge.success webhook is returned undelivered. */
async function paidDeposit(user: TestAccount, amount: number): Promise<{ reference: string; credit: PaystackHook }> {
  const started = await call('user/add-fund', { token: user.accessToken, body: { amount } });
  expect(started.status).toBe(201);
  const reference = started.body.reference as string;
  await paystackFake('/__complete', { reference, outcome: 'success' });
  const credit = (await paystackHooksFor(reference)).find((hook) => hook.event === 'charge.success')!;
  return { reference, credit };
}

async function creditedDeposit(user: TestAccount, amount: number): Promise<string> {
  const { reference, credit } = await paidDeposit(user, amount);
  expect(await deliverPaystackHook(credit)).toBe('Webhook processed');
  return reference;
}

async function walletOf(userId: number) {
  const [wallet] = await withDb((db) => db.select({ balance: wallets.balanceKobo, debt: wallets.debtKobo }).from(wallets).where(eq(wallets.userId, userId)));
  return wallet;
}

const entriesOf = (userId: number, source: string) =>
  withDb((db) =>
    db
      .select()
      .from(walletTransactions)
      .where(and(eq(walletTransactions.userId, userId), eq(walletTransactions.sourceKind, source))),
  );

const reversalsOf = (userId: number) => withDb((db) => reversalsWithMoves(db, userId));

async function expectBooksReconcile() {
  const report = await withDb((db) => reconcile(db));
  expect(report.debtMismatches).toEqual([]);
  expect(report.reversalMismatches).toEqual([]);
  expect(report.ok, JSON.stringify(report)).toBe(true);
}

/** An administrator's correction: money the user spent, as far as the wallet can tell. */
async function spend(admin: TestAccount, user: TestAccount, amount: number) {
  const debited = await call('admin/wallet/debit', {
    token: admin.accessToken,
    body: { userId: user.id, amount, reference: unique('spent'), reason: 'spent elsewhere' },
  });
  expect(debited.status, JSON.stringify(debited.body)).toBe(200);
}

describe('a refund after a credit', () => {
  it('takes back what the wallet holds once, owes the rest, refuses every kind of order until a deposit settles it', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const likes = shop.serviceIds[FAKE.igLikes];
    const user = await registerAndLogin();
    const reference = await creditedDeposit(user, 5000);
    const ordered = await placeOrder(user, { serviceId: likes, link: newLink(), quantity: 2000 });
    expect(ordered.status, JSON.stringify(ordered.body)).toBe(201);
    const spent = 500_000n - (await walletOf(user.id)).balance;
    expect(spent).toBeGreaterThan(0n);

    const { webhook } = await paystackFake('/__refund', { reference });
    expect(webhook.event).toBe('refund.processed');
    for (let delivery = 0; delivery < 3; delivery++) expect(await deliverPaystackHook(webhook)).toBe('Webhook processed');

    expect(await walletOf(user.id)).toEqual({ balance: 0n, debt: spent });
    const [taken] = await entriesOf(user.id, 'chargeback');
    expect(taken).toMatchObject({ amountKobo: 500_000n - spent, transactionType: 2, balanceAfterKobo: 0n });
    expect(await entriesOf(user.id, 'chargeback')).toHaveLength(1);
    expect(await reversalsOf(user.id)).toEqual([
      expect.objectContaining({ kind: 'refund', status: 'taken', amountKobo: 500_000n, takenKobo: 500_000n - spent, debtKobo: spent }),
    ]);
    await expectBooksReconcile();

    // Money that lands while the debt is owed (an administrator's credit, an order's refund) does not reopen ordering.
    const admin = await createAdmin();
    expect(
      (await call('user/admin-credit-user-wallet', { token: admin.accessToken, body: { amount: 2000, reference: unique('goodwill'), userId: user.id } }))
        .status,
    ).toBe(200);
    const owed = walletDebtMessage(spent);
    expect(owed).toMatch(/^Your wallet owes NGN\u00a0[\d,]+\.\d\d after a payment was reversed/);
    const refused = await placeOrder(user, { serviceId: likes, link: newLink(), quantity: 100 });
    expect(refused).toMatchObject({ status: 400, body: { message: owed, error: 'Bad Request' } });
    const mass = await call('user/mass-order', { token: user.accessToken, body: { orders: `${likes}|${newLink()}|100` } });
    expect(mass.body.results).toEqual([{ line: 1, ok: false, error: owed }]);
    const key = await call('user/api-keys', { token: user.accessToken, body: { name: 'Reseller tool' } });
    const add = await SELF.fetch('http://shop.test/api/v2', {
      method: 'POST',
      body: new URLSearchParams({ key: key.body.data.key, action: 'add', service: String(likes), link: newLink(), quantity: '100' }),
    });
    expect(await add.json()).toEqual({ error: owed });
    expect((await call('user/getWalletBalance', { token: user.accessToken })).body).toEqual({ walletBalance: 2000, walletDebt: Number(spent) / 100 });
    expect(await walletOf(user.id)).toEqual({ balance: 200_000n, debt: spent });

    const detail = await call(`admin/getUserDeta/${user.id}`, { token: admin.accessToken });
    expect(detail.body.summary.debt).toBe((Number(spent) / 100).toFixed(2));
    expect(detail.body.reversals).toEqual([
      expect.objectContaining({ reference, provider: 'paystack', kind: 'refund', status: 'taken', amount: '5000.00', debt: (Number(spent) / 100).toFixed(2) }),
    ]);
    const warnings = await call('admin/services/warnings?kind=payment_reversed&acknowledged=false&limit=100', { token: admin.accessToken });
    expect(warnings.body.data.filter((warning: { message: string }) => warning.message.includes(reference))).toHaveLength(1);

    // The next deposit pays the debt before any of it can be spent.
    const later = await creditedDeposit(user, 10_000);
    expect(await walletOf(user.id)).toEqual({ balance: 1_200_000n - spent, debt: 0n });
    expect(await entriesOf(user.id, 'debt_settlement')).toEqual([
      expect.objectContaining({ sourceRef: `payment:${later}`, amountKobo: spent, balanceAfterKobo: 1_200_000n - spent }),
    ]);
    expect((await placeOrder(user, { serviceId: likes, link: newLink(), quantity: 100 })).status).toBe(201);
    // A replayed refund still moves nothing.
    expect(await deliverPaystackHook(webhook)).toBe('Webhook processed');
    expect(await entriesOf(user.id, 'chargeback')).toHaveLength(1);
    await expectBooksReconcile();
  });

  it('that overtakes the credit it reverses takes nothing, and the late credit is refused too', async () => {
    const user = await registerAndLogin();
    const { reference, credit } = await paidDeposit(user, 3000);
    const { webhook } = await paystackFake('/__refund', { reference });
    // Paystack now reads the payment "reversed": nothing was credited, so nothing is taken.
    expect(await deliverPaystackHook(webhook)).toBe('Webhook ignored');
    expect(await deliverPaystackHook(credit)).toBe('Webhook processed');
    expect(await walletOf(user.id)).toEqual({ balance: 0n, debt: 0n });
    expect(await reversalsOf(user.id)).toEqual([]);
    const [warning] = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.kind, 'payment_reversed'), sql`${catalogueWarnings.details}->>'reference' = ${reference}`)),
    );
    expect(warning.message).toContain('never credited');
    await expectBooksReconcile();
  });
});

/** A new deposit of `naira`, credited, then disputed and resolved at Paystack; the resolution's webhook reaches the shop before the opening's. */
async function disputeResolvedBeforeItsOpening(user: TestAccount, naira: number, resolution: 'declined' | 'auto-accepted') {
  const reference = await creditedDeposit(user, naira);
  const opened = await paystackFake('/__dispute', { reference });
  const { webhook: resolved } = await paystackFake('/__dispute/resolve', { id: opened.dispute.id, resolution });
  expect(await deliverPaystackHook(resolved)).toBe('Webhook processed');
  expect(await deliverPaystackHook(opened.webhook)).toBe('Webhook processed');
}

describe('a dispute (chargeback) after a credit', () => {
  it('takes back what is there and owes the rest; won, it gives everything back and clears the debt, once', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const reference = await creditedDeposit(user, 3000);
    await spend(admin, user, 1000);

    const { dispute, webhook: opened } = await paystackFake('/__dispute', { reference });
    expect(opened.event).toBe('charge.dispute.create');
    expect(await deliverPaystackHook(opened)).toBe('Webhook processed');
    expect(await deliverPaystackHook(opened)).toBe('Webhook processed');
    expect(await walletOf(user.id)).toEqual({ balance: 0n, debt: 100_000n });
    expect(await reversalsOf(user.id)).toEqual([expect.objectContaining({ kind: 'dispute', status: 'dispute_open', takenKobo: 200_000n, debtKobo: 100_000n })]);
    await expectBooksReconcile();

    const { webhook: resolved } = await paystackFake('/__dispute/resolve', { id: dispute.id, resolution: 'declined' });
    for (let delivery = 0; delivery < 2; delivery++) expect(await deliverPaystackHook(resolved)).toBe('Webhook processed');
    // Reordered: the dispute's opening arrives again after its resolution.
    expect(await deliverPaystackHook(opened)).toBe('Webhook processed');

    expect(await walletOf(user.id)).toEqual({ balance: 200_000n, debt: 0n });
    expect(await entriesOf(user.id, 'chargeback_return')).toEqual([expect.objectContaining({ amountKobo: 300_000n })]);
    expect(await entriesOf(user.id, 'debt_settlement')).toEqual([expect.objectContaining({ amountKobo: 100_000n, balanceAfterKobo: 200_000n })]);
    expect(await reversalsOf(user.id)).toEqual([
      expect.objectContaining({ status: 'dispute_won', resolvedAt: expect.any(Date), takenKobo: 200_000n, debtKobo: 100_000n, returnedKobo: 300_000n }),
    ]);
    await expectBooksReconcile();
  });

  it('lost, stays taken; one resolved before it was heard opening moves money once, by its resolution', async () => {
    const user = await registerAndLogin();
    const first = await creditedDeposit(user, 2000);
    const lost = await paystackFake('/__dispute', { reference: first });
    expect(await deliverPaystackHook(lost.webhook)).toBe('Webhook processed');
    const { webhook: lostResolution } = await paystackFake('/__dispute/resolve', { id: lost.dispute.id, resolution: 'merchant-accepted' });
    expect(await deliverPaystackHook(lostResolution)).toBe('Webhook processed');
    expect(await walletOf(user.id)).toEqual({ balance: 0n, debt: 0n });
    expect(await entriesOf(user.id, 'chargeback_return')).toEqual([]);

    // Won before its opening reached us: nothing is taken, then or when the opening arrives.
    await disputeResolvedBeforeItsOpening(user, 1500, 'declined');
    expect(await walletOf(user.id)).toEqual({ balance: 150_000n, debt: 0n });

    // Lost before its opening reached us: taken once, by the resolution.
    await disputeResolvedBeforeItsOpening(user, 1000, 'auto-accepted');
    expect(await walletOf(user.id)).toEqual({ balance: 150_000n, debt: 0n });
    expect((await entriesOf(user.id, 'chargeback')).map((entry) => entry.amountKobo).sort()).toEqual([100_000n, 200_000n]);
    expect((await reversalsOf(user.id)).map((reversal) => reversal.status).sort()).toEqual(['dispute_lost', 'dispute_lost', 'dispute_won']);
    await expectBooksReconcile();
  });

  it('never takes back more than the payment credited, across refunds and disputes of it', async () => {
    const user = await registerAndLogin();
    const reference = await creditedDeposit(user, 4000);
    const { webhook: refunded } = await paystackFake('/__refund', { reference, amount: 150_000 });
    expect(await deliverPaystackHook(refunded)).toBe('Webhook processed');
    const { webhook: disputed } = await paystackFake('/__dispute', { reference });
    // The provider claims the whole payment again; only what the refund left can be taken.
    const claimed = JSON.parse(disputed.body);
    claimed.data.refund_amount = 400_000;
    const body = JSON.stringify(claimed);
    expect(await deliverPaystackHook({ body, signature: await hmacHex(TEST_SECRETS.PAYSTACK_SECRET_KEY, body, 'SHA-512') })).toBe('Webhook processed');
    expect(await walletOf(user.id)).toEqual({ balance: 0n, debt: 0n });
    expect((await reversalsOf(user.id)).map((reversal) => reversal.takenKobo + reversal.debtKobo).sort()).toEqual([150_000n, 250_000n]);
    await expectBooksReconcile();
  });
});

describe('a dispute’s deadline', () => {
  it('is the provider’s, kept from the opening and moved by a reminder, which moves no money', async () => {
    const user = await registerAndLogin();
    const reference = await creditedDeposit(user, 1000);
    const { webhook: opened } = await paystackFake('/__dispute', { reference });
    expect(await deliverPaystackHook(opened)).toBe('Webhook processed');
    const [recorded] = await withDb((db) => db.select().from(paymentReversals).where(eq(paymentReversals.userId, user.id)));
    expect(recorded.dueAt?.toISOString()).toBe(new Date(JSON.parse(opened.body).data.dueAt).toISOString());

    const reminder = JSON.parse(opened.body);
    reminder.event = 'charge.dispute.remind';
    reminder.data.dueAt = '2031-01-02T03:04:05.000Z';
    const body = JSON.stringify(reminder);
    expect(await deliverPaystackHook({ body, signature: await hmacHex(TEST_SECRETS.PAYSTACK_SECRET_KEY, body, 'SHA-512') })).toBe('Webhook processed');
    const [reminded] = await withDb((db) => db.select().from(paymentReversals).where(eq(paymentReversals.userId, user.id)));
    expect(reminded).toMatchObject({ status: 'dispute_open', dueAt: new Date('2031-01-02T03:04:05.000Z') });
    expect(await walletOf(user.id)).toEqual({ balance: 0n, debt: 0n });
    await expectBooksReconcile();
  });
});

describe('a refund or dispute event that cannot be read', () => {
  it('moves no money and is shown to the administrators', async () => {
    const user = await registerAndLogin();
    const reference = await creditedDeposit(user, 1000);
    const body = JSON.stringify({
      event: 'refund.processed',
      data: { status: 'processed', transaction_reference: reference, amount: 'lots', currency: 'NGN' },
    });
    expect(await deliverPaystackHook({ body, signature: await hmacHex(TEST_SECRETS.PAYSTACK_SECRET_KEY, body, 'SHA-512') })).toBe('Webhook ignored');
    expect(await walletOf(user.id)).toEqual({ balance: 100_000n, debt: 0n });
    const admin = await createAdmin();
    const warnings = await call('admin/services/warnings?kind=payment_reversed&acknowledged=false&limit=100', { token: admin.accessToken });
    expect(
      warnings.body.data.find((warning: { message: string }) => warning.message.includes(`refund.processed about ${reference} could not be read`)),
    ).toBeDefined();
  });
});
