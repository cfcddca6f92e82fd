// Funding by bank transfer through the real Worker, Postgres and the Paystack fake: a user's
// personal account number is made once; a transfer to it, its webhook delivered three times at once
// and interleaved with a card payment's, credits the wallet once, by the amount Paystack verifies;
// a transfer to an account we never gave out, or a paid transaction we never started, moves
// nothing; a refund of a transfer is taken back like a card's; the books reconcile throughout.
import { env } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings, dedicatedAccounts, notifications, paymentIntents, settings, walletTransactions } from '../../../drizzle/schema';
import { BANK_TRANSFER_OFF, requestDedicatedAccount, TRANSFER_RETRY_FIRST_DELAY } from '../../../worker/services/money/bank-transfers';
import { handlePaymentWebhook } from '../../../worker/services/money/payments';
import { reconcile } from '../../../worker/services/money/reconciliation';
import { consumePaymentEvents, retryDelaySeconds, TRANSFER_ATTEMPTS } from '../../../worker/services/money/transfer-retries';
import { call, registerAndLogin, type TestAccount, withDb } from '../../support/api';
import { TEST_SECRETS } from '../../support/secrets';
import { deliverPaystackHook, type PaystackHook, paystackFake, paystackHooksFor } from '../fixtures/paystack-fixtures';

/** Money sent to an account number from a bank; its charge.success, undelivered. */
async function transfer(accountNumber: string, kobo: number): Promise<PaystackHook> {
  const { reference } = await paystackFake('/__transfer', { accountNumber, amount: kobo });
  const [hook] = await paystackHooksFor(reference);
  expect(hook.event).toBe('charge.success');
  return hook;
}
async function accountOf(user: TestAccount) {
  const response = await call('user/dedicated-account', { token: user.accessToken, body: {} });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as { status: string; accountNumber: string; accountName: string; bankName: string };
}
const balanceOf = async (user: TestAccount) => (await call('user/getWalletBalance', { token: user.accessToken })).body.walletBalance as number;
const creditsOf = (userId: number) => withDb((db) => db.select().from(walletTransactions).where(eq(walletTransactions.userId, userId)));
const expectBooksReconcile = async () => {
  const report = await withDb((db) => reconcile(db));
  expect(report.ok, JSON.stringify(report)).toBe(true);
};

describe('a personal account number', () => {
  it('is made with Paystack once and answered again after', async () => {
    const user = await registerAndLogin({ fullName: 'Bola Transfer Ade' });
    expect((await call('user/dedicated-account', { token: user.accessToken })).body.data).toBeNull();
    const [first, second] = await Promise.all([accountOf(user), accountOf(user)]);
    expect(first).toMatchObject({ status: 'active', bankName: 'Test Bank', accountName: 'PAYSTACK/BOLA TRANSFER ADE' });
    expect(first.accountNumber).toMatch(/^\d{10}$/);
    expect(second.accountNumber).toBe(first.accountNumber);
    expect((await call('user/dedicated-account', { token: user.accessToken })).body.data).toMatchObject({ accountNumber: first.accountNumber });
    expect(await withDb((db) => db.select().from(dedicatedAccounts).where(eq(dedicatedAccounts.userId, user.id)))).toHaveLength(1);
  });

  it('is refused while bank transfers are turned off', async () => {
    const user = await registerAndLogin();
    await withDb((db) =>
      db
        .transaction(async (tx) => {
          await tx
            .insert(settings)
            .values({ key: 'payment', value: { provider: 'paystack', mode: 'test', bankTransfer: false } })
            .onConflictDoUpdate({ target: settings.key, set: { value: sql`${settings.value} || '{"bankTransfer": false}'::jsonb` } });
          await expect(requestDedicatedAccount(tx as never, env, user.id)).rejects.toThrow(BANK_TRANSFER_OFF);
          tx.rollback();
        })
        .catch((error) => {
          if (!String(error).includes('Rollback')) throw error;
        }),
    );
  });
});

describe('a transfer to it', () => {
  it('credits the wallet once, however often and in whatever order its webhook comes with a card payment’s', async () => {
    const user = await registerAndLogin();
    const { accountNumber } = await accountOf(user);
    const started = await call('user/add-fund', { token: user.accessToken, body: { amount: 2000 } });
    await paystackFake('/__complete', { reference: started.body.reference, outcome: 'success' });
    const [card] = await paystackHooksFor(started.body.reference);
    const bank = await transfer(accountNumber, 750_050);

    const answers = await Promise.all([
      deliverPaystackHook(bank),
      deliverPaystackHook(card),
      deliverPaystackHook(bank),
      deliverPaystackHook(bank),
      deliverPaystackHook(card),
    ]);
    expect(answers.every((answer) => answer === 'Webhook processed')).toBe(true);
    expect(await deliverPaystackHook(bank)).toBe('Webhook processed');

    expect(await balanceOf(user)).toBe(9500.5);
    const credits = await creditsOf(user.id);
    expect(credits.map((row) => [row.sourceKind, row.sourceRef, row.amountKobo]).sort()).toEqual(
      [
        ['payment', bank.reference, 750_050n],
        ['payment', started.body.reference, 200_000n],
      ].sort(),
    );
    const [intent] = await withDb((db) => db.select().from(paymentIntents).where(eq(paymentIntents.reference, bank.reference)));
    expect(intent).toMatchObject({ userId: user.id, channel: 'bank_transfer', status: 'success', amountKobo: 750_050n, provider: 'paystack' });
    const listed = (await call('user/transactions', { token: user.accessToken })).body.data as Array<{ reference: string; description: string }>;
    expect(listed.find((row) => row.reference === bank.reference)?.description).toBe('Deposit by bank transfer (Paystack)');
    expect(listed.find((row) => row.reference === started.body.reference)?.description).toBe('Deposit by card (Paystack)');
    const told = await withDb((db) => db.select().from(notifications).where(eq(notifications.eventKey, bank.reference)));
    expect(told).toEqual([expect.objectContaining({ userId: user.id, body: 'NGN\u00a07,500.50 from your bank transfer payment was added to your wallet.' })]);
    await expectBooksReconcile();
  });

  it('to an account we never gave out, or a paid card transaction we never started, moves nothing', async () => {
    const key = { authorization: `Bearer ${TEST_SECRETS.PAYSTACK_SECRET_KEY}` };
    const stranger = await paystackFake('/customer', { email: `stranger-${Date.now()}@example.com`, first_name: 'Not', last_name: 'Ours' }, key);
    const theirs = await paystackFake('/dedicated_account', { customer: stranger.data.customer_code, preferred_bank: 'test-bank' }, key);
    const unknown = await transfer(theirs.data.account_number, 100_000);
    // Accepted and put on the payment-events queue to be tried again (see below), nothing credited. Its queue is a
    // recorder here: a real message would come back into this isolate for a day of retries, in other tests' counts.
    const queued: Array<{ body: unknown; delaySeconds?: number }> = [];
    const recorder = { send: async (body: unknown, options?: { delaySeconds?: number }) => void queued.push({ body, ...options }) } as unknown as Queue;
    const outcome = await withDb((db) =>
      handlePaymentWebhook(
        db,
        { ...env, PAYMENT_EVENTS: recorder },
        'paystack',
        new TextEncoder().encode(unknown.body).buffer as ArrayBuffer,
        new Headers({ 'x-paystack-signature': unknown.signature }),
      ),
    );
    expect(outcome).toBe('processed');
    expect(queued).toEqual([{ body: { kind: 'transfer', reference: unknown.reference, transactionId: null }, delaySeconds: TRANSFER_RETRY_FIRST_DELAY }]);

    const notOurs = await paystackFake(
      '/transaction/initialize',
      { email: 'elsewhere@example.com', amount: 50_000, reference: `elsewhere-${Date.now()}` },
      key,
    );
    await paystackFake('/__complete', { reference: notOurs.data.reference, outcome: 'success' });
    const [card] = await paystackHooksFor(notOurs.data.reference);
    expect(await deliverPaystackHook(card)).toBe('Webhook ignored');

    const intents = await withDb((db) =>
      db.select().from(paymentIntents).where(sql`${paymentIntents.reference} in (${unknown.reference}, ${notOurs.data.reference})`),
    );
    expect(intents).toEqual([]);
    await expectBooksReconcile();
  });

  it('refunded by the bank is taken back from the wallet once, like a card payment', async () => {
    const user = await registerAndLogin();
    const { accountNumber } = await accountOf(user);
    const bank = await transfer(accountNumber, 300_000);
    expect(await deliverPaystackHook(bank)).toBe('Webhook processed');
    const { webhook } = await paystackFake('/__refund', { reference: bank.reference });
    for (let delivery = 0; delivery < 3; delivery++) expect(await deliverPaystackHook(webhook)).toBe('Webhook processed');
    expect(await balanceOf(user)).toBe(0);
    expect((await creditsOf(user.id)).map((row) => [row.sourceKind, row.amountKobo]).sort()).toEqual(
      [
        ['chargeback', 300_000n],
        ['payment', 300_000n],
      ].sort(),
    );
    await expectBooksReconcile();
  });

  it('refunded or disputed before its own webhook came, is credited first and then taken back, once', async () => {
    const user = await registerAndLogin();
    const { accountNumber } = await accountOf(user);
    const refunded = await transfer(accountNumber, 500_000);
    const { webhook: refund } = await paystackFake('/__refund', { reference: refunded.reference, amount: 200_000 });
    const disputed = await transfer(accountNumber, 100_000);
    const { webhook: dispute } = await paystackFake('/__dispute', { reference: disputed.reference });
    // The reversals overtake the transfers' own charge.success, which come after, twice.
    expect(await deliverPaystackHook(refund)).toBe('Webhook processed');
    expect(await deliverPaystackHook(dispute)).toBe('Webhook processed');
    for (const late of [refunded, disputed, refunded, disputed]) expect(await deliverPaystackHook(late)).toBe('Webhook processed');
    expect(await balanceOf(user)).toBe(3000);
    expect((await creditsOf(user.id)).map((row) => [row.sourceKind, row.amountKobo]).sort()).toEqual(
      [
        ['payment', 500_000n],
        ['payment', 100_000n],
        ['chargeback', 200_000n],
        ['chargeback', 100_000n],
      ].sort(),
    );
    await expectBooksReconcile();
  });

  it('refunded whole before its own webhook came, is never credited', async () => {
    const user = await registerAndLogin();
    const { accountNumber } = await accountOf(user);
    const bank = await transfer(accountNumber, 400_000);
    const { webhook } = await paystackFake('/__refund', { reference: bank.reference });
    expect(await deliverPaystackHook(webhook)).toBe('Webhook ignored');
    expect(await deliverPaystackHook(bank)).toBe('Webhook ignored');
    expect(await balanceOf(user)).toBe(0);
    expect(await creditsOf(user.id)).toEqual([]);
  });
});

/** A message of the payment-events queue as Cloudflare delivers it, recording what the consumer decided. */
function delivered(reference: string, attempts: number) {
  const decided: Array<{ ack: true } | { retryAfter: number | undefined }> = [];
  const message = {
    id: `m-${reference}-${attempts}`,
    timestamp: new Date(),
    attempts,
    body: { kind: 'transfer', reference, transactionId: null },
    ack: () => decided.push({ ack: true }),
    retry: (options?: { delaySeconds?: number }) => decided.push({ retryAfter: options?.delaySeconds }),
  };
  const batch = { queue: 'payment-events', messages: [message], ackAll: () => {}, retryAll: () => {} } as unknown as MessageBatch<unknown>;
  return { batch, decided };
}

describe('a transfer that cannot be credited when its webhook comes', () => {
  it('is tried again with growing delays until its account is known, then credited once; after the last try an administrator is told', async () => {
    const key = { authorization: `Bearer ${TEST_SECRETS.PAYSTACK_SECRET_KEY}` };
    const stranger = await paystackFake('/customer', { email: `late-${Date.now()}@example.com`, first_name: 'Late', last_name: 'Record' }, key);
    const account = await paystackFake('/dedicated_account', { customer: stranger.data.customer_code, preferred_bank: 'test-bank' }, key);
    const hook = await transfer(account.data.account_number, 250_000);
    const { reference } = JSON.parse(hook.body).data as { reference: string };

    const first = delivered(reference, 1);
    await consumePaymentEvents(first.batch, env);
    expect(first.decided).toEqual([{ retryAfter: retryDelaySeconds(1) }]);
    expect(retryDelaySeconds(1)).toBe(60);
    expect(retryDelaySeconds(5)).toBe(960);

    // After the last try, still nobody's: the administrators are told, with the amount.
    const last = delivered(reference, TRANSFER_ATTEMPTS);
    await consumePaymentEvents(last.batch, env);
    expect(last.decided).toEqual([{ ack: true }]);
    const [warning] = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.kind, 'transfer_unclaimed'), sql`${catalogueWarnings.details}->>'reference' = ${reference}`)),
    );
    expect(warning.message).toContain('NGN\u00a02,500.00');

    // The account turns out to be a user's (its record was written late): the next try credits it, once.
    const owner = await registerAndLogin();
    await withDb((db) =>
      db.insert(dedicatedAccounts).values({
        userId: owner.id,
        provider: 'paystack',
        customerCode: stranger.data.customer_code,
        status: 'active',
        accountNumber: account.data.account_number,
      }),
    );
    for (const attempt of [2, 3]) {
      const retried = delivered(reference, attempt);
      await consumePaymentEvents(retried.batch, env);
      expect(retried.decided).toEqual([{ ack: true }]);
    }
    expect(await balanceOf(owner)).toBe(2500);
    expect((await creditsOf(owner.id)).filter((row) => row.sourceKind === 'payment')).toHaveLength(1);
    await expectBooksReconcile();
  });
  it('once its account is known, is credited once when its retry comes twice at once with its webhook, and when both come again', async () => {
    const key = { authorization: `Bearer ${TEST_SECRETS.PAYSTACK_SECRET_KEY}` };
    const stranger = await paystackFake('/customer', { email: `twice-${Date.now()}@example.com`, first_name: 'Twice', last_name: 'Sent' }, key);
    const account = await paystackFake('/dedicated_account', { customer: stranger.data.customer_code, preferred_bank: 'test-bank' }, key);
    const hook = await transfer(account.data.account_number, 180_000);
    const { reference } = JSON.parse(hook.body).data as { reference: string };
    const first = delivered(reference, 1);
    await consumePaymentEvents(first.batch, env);
    expect(first.decided).toEqual([{ retryAfter: retryDelaySeconds(1) }]);

    const owner = await registerAndLogin();
    await withDb((db) =>
      db.insert(dedicatedAccounts).values({
        userId: owner.id,
        provider: 'paystack',
        customerCode: stranger.data.customer_code,
        status: 'active',
        accountNumber: account.data.account_number,
      }),
    );
    // The queue may deliver a message twice at once, and the webhook may come again at that moment.
    const [second, third] = [delivered(reference, 2), delivered(reference, 3)];
    const [, , webhook] = await Promise.all([consumePaymentEvents(second.batch, env), consumePaymentEvents(third.batch, env), deliverPaystackHook(hook)]);
    expect(webhook).toBe('Webhook processed');
    expect([second.decided, third.decided]).toEqual([[{ ack: true }], [{ ack: true }]]);
    // Both again, one after the other, in either order.
    expect(await deliverPaystackHook(hook)).toBe('Webhook processed');
    const fourth = delivered(reference, 4);
    await consumePaymentEvents(fourth.batch, env);
    expect(fourth.decided).toEqual([{ ack: true }]);

    expect(await balanceOf(owner)).toBe(1800);
    expect((await creditsOf(owner.id)).filter((row) => row.sourceKind === 'payment')).toHaveLength(1);
    await expectBooksReconcile();
  });
});
