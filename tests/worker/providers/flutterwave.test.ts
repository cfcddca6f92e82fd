// The Flutterwave adapter: edge cases against recorded v3 answers, then end to end against this
// file's copy of the sandbox Flutterwave (initialize, the hosted page, verify by id and by
// reference, test and live keys, the verif-hash webhook).
import { describe, expect, inject, it } from 'vitest';
import { createFlutterwave } from '../../../worker/providers/payments/flutterwave';
import { type PaymentProvider, PaymentProviderError } from '../../../worker/providers/payments/types';
import { TEST_SECRETS } from '../../support/secrets';
import { answering, fakeScope, rejection } from './fake-scope';

const options = { secretKey: 'FLWSECK_TEST-abc', webhookSecretHash: 'my-secret-hash' };

function transaction(overrides: Record<string, unknown> = {}) {
  return JSON.stringify({
    status: 'success',
    message: 'Transaction fetched successfully',
    data: {
      id: 288200108,
      tx_ref: 'dep-1',
      flw_ref: 'FLW275407301',
      amount: 1234.5,
      currency: 'NGN',
      charged_amount: 1251.78,
      status: 'successful',
      created_at: '2020-07-15T14:31:16.000Z',
      ...overrides,
    },
  });
}

const failure = (promise: Promise<unknown>) => rejection(promise, PaymentProviderError);

function bytes(text: string): ArrayBuffer {
  return new TextEncoder().encode(text).buffer as ArrayBuffer;
}

describe('flutterwave', () => {
  it('starts a Standard checkout with the amount as exact naira text', async () => {
    let sent: { url: string; authorization: string | null; body: unknown } | undefined;
    const flutterwave = createFlutterwave({
      ...options,
      fetchImpl: async (input, init) => {
        const request = new Request(input, init);
        sent = { url: request.url, authorization: request.headers.get('authorization'), body: await request.json() };
        return new Response(
          JSON.stringify({ status: 'success', message: 'Hosted Link', data: { link: 'https://checkout.flutterwave.com/v3/hosted/pay/abc' } }),
        );
      },
    });
    const result = await flutterwave.initialize({
      reference: 'dep-1',
      amountKobo: 123_405n,
      email: 'ada@example.com',
      callbackUrl: 'https://shop.test/back',
      currency: 'NGN',
    });
    expect(result).toEqual({ checkoutUrl: 'https://checkout.flutterwave.com/v3/hosted/pay/abc' });
    expect(sent).toEqual({
      url: 'https://api.flutterwave.com/v3/payments',
      authorization: 'Bearer FLWSECK_TEST-abc',
      body: { tx_ref: 'dep-1', amount: '1234.05', currency: 'NGN', redirect_url: 'https://shop.test/back', customer: { email: 'ada@example.com' } },
    });
  });

  it('verifies by our reference, converting the naira amount to kobo exactly', async () => {
    const urls: string[] = [];
    const flutterwave = createFlutterwave({
      ...options,
      fetchImpl: async (input) => {
        urls.push(String(input));
        return new Response(transaction());
      },
    });
    expect(await flutterwave.verify('dep-1')).toEqual({
      reference: 'dep-1',
      status: 'success',
      amountKobo: 123_450n,
      currency: 'NGN',
      paidAt: '2020-07-15T14:31:16.000Z',
      rawStatus: 'successful',
      domain: 'test',
      payerFingerprint: null,
    });
    expect(urls).toEqual(['https://api.flutterwave.com/v3/transactions/verify_by_reference?tx_ref=dep-1']);
  });

  it('maps statuses, unknown references and refusals', async () => {
    const failed = createFlutterwave({ ...options, fetchImpl: answering(200, transaction({ status: 'failed', processor_response: 'Insufficient funds' })) });
    expect(await failed.verify('dep-1')).toMatchObject({ status: 'failed', paidAt: null, declineReason: 'Insufficient funds' });
    const missing = createFlutterwave({
      ...options,
      fetchImpl: answering(400, JSON.stringify({ status: 'error', message: 'No transaction was found for this id', data: null })),
    });
    expect((await missing.verify('dep-1')).status).toBe('not_found');
    const refused = createFlutterwave({
      ...options,
      fetchImpl: answering(401, JSON.stringify({ status: 'error', message: 'Invalid authorization key', data: null })),
    });
    expect(await failure(refused.verify('dep-1'))).toMatchObject({ kind: 'rejected', message: 'Invalid authorization key', provider: 'flutterwave' });
  });

  it('is unavailable for amounts finer than a kobo, other references and broken answers', async () => {
    const fine = createFlutterwave({ ...options, fetchImpl: answering(200, transaction({ amount: 10.005 })) });
    expect((await failure(fine.verify('dep-1'))).kind).toBe('unavailable');
    const other = createFlutterwave({ ...options, fetchImpl: answering(200, transaction({ tx_ref: 'dep-2' })) });
    expect((await failure(other.verify('dep-1'))).kind).toBe('unavailable');
    const down = createFlutterwave({ ...options, fetchImpl: answering(502, '<html>Bad gateway</html>', 'text/html') });
    expect(await failure(down.verify('dep-1'))).toMatchObject({ kind: 'unavailable', httpStatus: 502 });
  });

  it("reads the card's fingerprint from its first six and last four digits and its expiry", async () => {
    // The card of Flutterwave's documented answers (its sandbox test card).
    const card = { first_6digits: '553188', last_4digits: '2950', issuer: 'MASTERCARD CREDIT', country: 'NG', type: 'MASTERCARD', expiry: '09/32' };
    const fingerprintOf = async (overrides: Record<string, unknown>) => {
      const flutterwave = createFlutterwave({ ...options, fetchImpl: answering(200, transaction({ payment_type: 'card', ...overrides })) });
      const verified = await flutterwave.verify('dep-1');
      expect(verified).toMatchObject({ status: 'success', amountKobo: 123_450n });
      return verified.payerFingerprint;
    };
    expect(await fingerprintOf({ card })).toBe('flutterwave-card:553188:2950:09/32');
    expect(await fingerprintOf({ card: { ...card, token: 'flw-t0-d0185c6edad078c9e8304c4f78b8cd5b-m03k' } })).toBe('flutterwave-card:553188:2950:09/32');
    // The same card in other spellings reads the same.
    expect(await fingerprintOf({ card: { ...card, expiry: ' 9 / 2032 ' } })).toBe('flutterwave-card:553188:2950:09/32');
    expect(await fingerprintOf({ card: { ...card, first_6digits: 553188, last_4digits: 950 } })).toBe('flutterwave-card:553188:0950:09/32');

    const garbled: unknown[] = [
      undefined,
      null,
      'MASTERCARD 553188******2950',
      [card],
      {},
      { ...card, first_6digits: undefined },
      { ...card, first_6digits: '55318' },
      { ...card, first_6digits: '5531880' },
      { ...card, first_6digits: '5531 8' },
      { ...card, first_6digits: -553188 },
      { ...card, first_6digits: 553188.5 },
      { ...card, last_4digits: null },
      { ...card, last_4digits: '29S0' },
      { ...card, last_4digits: '**2950' },
      { ...card, expiry: undefined },
      { ...card, expiry: 932 },
      { ...card, expiry: '13/32' },
      { ...card, expiry: '00/32' },
      { ...card, expiry: '09-32' },
      { ...card, expiry: '09/321' },
    ];
    for (const garbledCard of garbled) expect(await fingerprintOf({ card: garbledCard }), JSON.stringify(garbledCard)).toBeNull();
    expect(await fingerprintOf({ payment_type: 'bank_transfer' })).toBeNull();
  });

  it('accepts webhooks carrying the secret hash and nothing else', async () => {
    const flutterwave = createFlutterwave(options);
    const body = JSON.stringify({ event: 'charge.completed', data: { id: 1, tx_ref: 'dep-1', amount: 100, currency: 'NGN', status: 'successful' } });
    expect(await flutterwave.parseWebhook(bytes(body), new Headers({ 'verif-hash': 'my-secret-hash' }))).toEqual({
      event: 'charge.completed',
      reference: 'dep-1',
      transactionId: '1',
    });
    expect(await flutterwave.parseWebhook(bytes(body), new Headers({ 'verif-hash': 'my-secret-hasH' }))).toBeNull();
    expect(await flutterwave.parseWebhook(bytes(body), new Headers())).toBeNull();
    const legacy = JSON.stringify({ 'event.type': 'CARD_TRANSACTION', data: {} });
    expect(await flutterwave.parseWebhook(bytes(legacy), new Headers({ 'verif-hash': 'my-secret-hash' }))).toEqual({
      event: 'CARD_TRANSACTION',
      reference: null,
    });
  });
});

describe('flutterwave against the sandbox', () => {
  const fake = fakeScope(inject('flutterwaveUrl'));
  const sandbox = { webhookSecretHash: TEST_SECRETS.FLUTTERWAVE_SECRET_HASH, baseUrl: fake.url, timeoutMs: 5000 };
  const testMode = createFlutterwave({ ...sandbox, secretKey: TEST_SECRETS.FLUTTERWAVE_SECRET_KEY });
  const liveMode = createFlutterwave({ ...sandbox, secretKey: TEST_SECRETS.FLUTTERWAVE_LIVE_SECRET_KEY });
  const newReference = () => `dep-${crypto.randomUUID().slice(0, 13)}`;

  /** Starts a payment and answers the hosted page as the payer would; returns where the payer is sent back. */
  async function pay(
    provider: PaymentProvider,
    reference: string,
    outcome: 'success' | 'failed',
    amountKobo = 123_405n,
    payer: { email?: string; card?: string } = {},
  ) {
    const { checkoutUrl } = await provider.initialize({
      reference,
      amountKobo,
      email: payer.email ?? 'ada@example.com',
      callbackUrl: 'http://localhost:8787/user/confirm-payment',
      currency: 'NGN',
    });
    expect(checkoutUrl.startsWith(`${fake.url}/v3/hosted/pay/`)).toBe(true);
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain('Pay NGN 1,234.05');
    expect(page).toContain('Decline');
    const form = new URLSearchParams({ outcome, ...(payer.card === undefined ? {} : { card: payer.card }) });
    const answer = await fetch(checkoutUrl, { method: 'POST', body: form, redirect: 'manual' });
    expect(answer.status).toBe(302);
    return new URL(answer.headers.get('location') ?? '');
  }

  it('takes a payment through the hosted page and verifies it by id and by reference', async () => {
    const reference = newReference();
    expect((await testMode.verify(reference)).status).toBe('not_found');
    const back = await pay(testMode, reference, 'success');
    expect(back.origin + back.pathname).toBe('http://localhost:8787/user/confirm-payment');
    expect(back.searchParams.get('status')).toBe('successful');
    expect(back.searchParams.get('tx_ref')).toBe(reference);
    const transactionId = back.searchParams.get('transaction_id') ?? '';
    expect(transactionId).toMatch(/^\d+$/);

    const expected = { reference, status: 'success', amountKobo: 123_405n, currency: 'NGN', rawStatus: 'successful', domain: 'test' };
    expect(await testMode.verify(reference)).toMatchObject(expected);
    expect(await testMode.verify(reference, transactionId)).toMatchObject(expected);
    // Another payment's id is refused, not taken for this one.
    const other = await pay(testMode, newReference(), 'success');
    await expect(testMode.verify(reference, other.searchParams.get('transaction_id') ?? '')).rejects.toMatchObject({ kind: 'unavailable' });
  });

  it('reports a declined payment as failed', async () => {
    const reference = newReference();
    const back = await pay(testMode, reference, 'failed');
    expect(back.searchParams.get('status')).toBe('failed');
    expect(await testMode.verify(reference)).toMatchObject({ status: 'failed', paidAt: null });
  });

  it('keeps test and live payments apart by key, and tells which one a payment is', async () => {
    const reference = newReference();
    const back = await pay(liveMode, reference, 'success');
    expect(await liveMode.verify(reference)).toMatchObject({ status: 'success', domain: 'live' });
    expect((await testMode.verify(reference)).status).toBe('not_found');
    expect((await testMode.verify(reference, back.searchParams.get('transaction_id') ?? '')).status).toBe('not_found');
  });

  it('sends charge.completed with the secret hash, which the adapter accepts once per hash and reads the id from', async () => {
    const reference = newReference();
    const back = await pay(testMode, reference, 'success');
    const { webhooks } = (await fake.get('/__webhooks')) as { webhooks: Array<{ reference: string; event: string; body: string; signature: string }> };
    const hooks = webhooks.filter((hook) => hook.reference === reference);
    expect(hooks).toHaveLength(1);
    expect(hooks[0]).toMatchObject({ event: 'charge.completed', signature: TEST_SECRETS.FLUTTERWAVE_SECRET_HASH });
    const event = await testMode.parseWebhook(bytes(hooks[0].body), new Headers({ 'verif-hash': hooks[0].signature }));
    expect(event).toEqual({ event: 'charge.completed', reference, transactionId: back.searchParams.get('transaction_id') });
    expect(await testMode.parseWebhook(bytes(hooks[0].body), new Headers({ 'verif-hash': 'not-the-hash' }))).toBeNull();
  });

  it("reports the payer's card: one per card named at the hosted page, else one per payer's email", async () => {
    const paidBy = async (payer: { email?: string; card?: string }, outcome: 'success' | 'failed' = 'success') => {
      const reference = newReference();
      const back = await pay(testMode, reference, outcome, 123_405n, payer);
      const byId = await testMode.verify(reference, back.searchParams.get('transaction_id') ?? '');
      expect((await testMode.verify(reference)).payerFingerprint).toBe(byId.payerFingerprint);
      return byId.payerFingerprint;
    };
    const ada = await paidBy({ email: 'ada@example.com' });
    expect(ada).toMatch(/^flutterwave-card:[45]\d{5}:\d{4}:(0[1-9]|1[0-2])\/\d{2}$/);
    expect(await paidBy({ email: 'Ada@Example.com' })).toBe(ada);
    expect(await paidBy({ email: 'bola@example.com' })).not.toBe(ada);
    const shared = await paidBy({ email: 'chidi@example.com', card: 'the family card' });
    expect(await paidBy({ email: 'dayo@example.com', card: 'the family card' })).toBe(shared);
    expect(await paidBy({ email: 'dayo@example.com', card: 'the family card' }, 'failed')).toBe(shared);
    expect(await paidBy({ email: 'chidi@example.com', card: 'another card' })).not.toBe(shared);
    expect([ada, shared]).not.toContain(null);

    // The webhook tells of the same card.
    const { webhooks } = (await fake.get('/__webhooks')) as { webhooks: Array<{ body: string }> };
    const cards = webhooks.map((hook) => JSON.parse(hook.body).data.card as { first_6digits: string; last_4digits: string; expiry: string });
    expect(cards.map((card) => `flutterwave-card:${card.first_6digits}:${card.last_4digits}:${card.expiry}`)).toContain(shared);
  });

  it('refuses unknown keys with its own message', async () => {
    const stranger = createFlutterwave({ ...sandbox, secretKey: 'FLWSECK_TEST-not-ours-X' });
    expect(await failure(stranger.verify(newReference()))).toMatchObject({ kind: 'rejected', message: 'Invalid authorization key', httpStatus: 401 });
  });
});
