// The confirmation page after its stored payload is gone (a reload, Back, the provider's return
// opened in another tab): POST user/verify-payment with only the reference from the return address
// tells the payer the payment's true outcome, and tells anyone else nothing.
import { env } from 'cloudflare:test';
import { describe, expect, inject, it } from 'vitest';
import type { Db } from '../../../worker/db';
import type { Env } from '../../../worker/env';
import { startDeposit } from '../../../worker/services/money/payments';
import { call, registerAndLogin, type TestAccount, withoutRequestId } from '../../support/api';
import { TEST_SECRETS } from '../../support/secrets';
import { balanceKobo, verifyAsPayer, withPaymentSettings } from '../fixtures/payment-fixtures';
import { fakeScope } from '../providers/fake-scope';

const paystack = inject('paystackUrl');
const completeCheckout = (reference: string, outcome: 'success' | 'failed') =>
  fetch(`${paystack}/__complete`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify({ reference, outcome }) });

async function addFund(account: TestAccount, amount: number) {
  const started = await call('user/add-fund', { token: account.accessToken, body: { amount } });
  expect(started.status).toBe(201);
  return started.body as { reference: string };
}

/** With Flutterwave chosen, a new user's NGN 1,500 deposit paid on this file's sandbox page, and the address Flutterwave then sends the payer back to. */
async function withPaidFlutterwaveDeposit(
  check: (paid: { db: Db; bindings: Env; user: TestAccount; deposit: { reference: string }; back: URL }) => Promise<void>,
) {
  const flutterwave = fakeScope(inject('flutterwaveUrl'));
  const bindings = { ...env, FLUTTERWAVE_BASE_URL: flutterwave.url };
  const user = await registerAndLogin();
  const keys = { flutterwaveSecretKey: TEST_SECRETS.FLUTTERWAVE_SECRET_KEY, flutterwaveWebhookHash: TEST_SECRETS.FLUTTERWAVE_SECRET_HASH };
  await withPaymentSettings({ provider: 'flutterwave', keys }, async (db) => {
    const deposit = await startDeposit(db, bindings, { id: user.id, email: user.email }, '1500');
    const paid = await fetch(deposit.checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
    await check({ db, bindings, user, deposit, back: new URL(paid.headers.get('location') ?? '') });
  });
}

const byReference = (account: TestAccount, body: Record<string, unknown>) => call('user/verify-payment', { token: account.accessToken, body });

describe('verify-payment by reference', () => {
  it('gives the payer the true outcome: waiting, then credited once', async () => {
    const user = await registerAndLogin();
    const { reference } = await addFund(user, 3000);
    expect(await byReference(user, { reference })).toMatchObject({
      status: 200,
      body: { message: 'The payment is not settled yet', data: { orderStatus: 1 } },
    });

    await completeCheckout(reference, 'success');
    // Paystack's return address carries the reference twice: ?trxref=...&reference=...
    expect(await byReference(user, { reference })).toMatchObject({ status: 200, body: { message: 'Wallet credited successfully', data: { orderStatus: 2 } } });
    expect((await byReference(user, { reference })).body.data.orderStatus).toBe(2);
    expect((await call('user/getWalletBalance', { token: user.accessToken })).body.walletBalance).toBe(3000);
  });

  it("says a declined payment failed, with the provider's reason for the payer to read", async () => {
    const user = await registerAndLogin();
    const { reference } = await addFund(user, 1000);
    await completeCheckout(reference, 'failed');
    expect((await byReference(user, { reference })).body).toMatchObject({
      message: 'Payment not successful',
      data: { orderStatus: 3, declineReason: 'Declined' },
    });
  });

  it("answers another user's reference exactly as an unknown one, and credits no one", async () => {
    const owner = await registerAndLogin();
    const other = await registerAndLogin();
    const { reference } = await addFund(owner, 2000);
    await completeCheckout(reference, 'success');
    const theirs = await byReference(other, { reference });
    const unknown = await byReference(other, { reference: 'dep-000000000000000000000000' });
    expect(theirs).toMatchObject({ status: 404, body: { message: 'We found no payment with this reference on your account.', error: 'Not Found' } });
    expect(unknown.status).toBe(theirs.status);
    expect(withoutRequestId(unknown.body)).toEqual(withoutRequestId(theirs.body));
    expect((await call('user/getWalletBalance', { token: other.accessToken })).body.walletBalance).toBe(0);
    expect((await call('user/getWalletBalance', { token: owner.accessToken })).body.walletBalance).toBe(0);
    expect((await call('user/verify-payment', { body: { reference } })).status).toBe(401);
  });

  it.each([
    [{}, 'Send the stored payment (checkoutUrl, signature, amount) or its reference.'],
    [{ reference: 'dep-1 OR 1=1' }, 'reference is invalid'],
    [{ reference: 'dep-1', transactionId: 'abc' }, 'transactionId is invalid'],
  ])('refuses %j with "%s"', async (body, message) => {
    const user = await registerAndLogin();
    expect(await byReference(user, body)).toMatchObject({ status: 400, body: { message } });
  });

  it("confirms a Flutterwave payment by the tx_ref and transaction_id of Flutterwave's return address", async () => {
    await withPaidFlutterwaveDeposit(async ({ db, bindings, user, deposit, back }) => {
      expect(back.pathname).toBe('/user/confirm-payment');
      const [txRef, transactionId] = [back.searchParams.get('tx_ref') ?? '', back.searchParams.get('transaction_id') ?? ''];
      expect(txRef).toBe(deposit.reference);
      expect(await verifyAsPayer(db, bindings, user.id, { reference: txRef, transactionId })).toBe(2);
      expect(await balanceKobo(db, user.id)).toBe(150_000n);
    });
  });

  it('credits a paid Flutterwave deposit even when the return address carries a transaction id Flutterwave does not know', async () => {
    await withPaidFlutterwaveDeposit(async ({ db, bindings, user, deposit }) => {
      expect(await verifyAsPayer(db, bindings, user.id, { reference: deposit.reference, transactionId: '999999999999' })).toBe(2);
      expect(await balanceKobo(db, user.id)).toBe(150_000n);
    });
  });
});
