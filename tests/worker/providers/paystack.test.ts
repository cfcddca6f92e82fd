import { beforeEach, describe, expect, inject, it } from 'vitest';
import { createPaystack } from '../../../worker/providers/payments/paystack';
import { type PaymentProvider, PaymentProviderError } from '../../../worker/providers/payments/types';
import { TEST_SECRETS } from '../../support/secrets';
import { answering, fakeScope, rejection } from './fake-scope';

const secretKey = inject('paystackSecretKey');
const fake = fakeScope(inject('paystackUrl'));
const paystack = createPaystack({ secretKey, baseUrl: fake.url, timeoutMs: 1500 });

let counter = 0;
function newReference(): string {
  counter += 1;
  return `dep-${Date.now().toString(36)}-${counter}`;
}

function initialize(provider: PaymentProvider, reference: string, amountKobo = 250_000n) {
  return provider.initialize({
    reference,
    amountKobo,
    email: 'ada@example.com',
    callbackUrl: 'http://localhost:8787/user/confirm-payment?from=paystack',
    currency: 'NGN',
    metadata: { userId: '42' },
  });
}

const failure = (promise: Promise<unknown>) => rejection(promise, PaymentProviderError);

async function hmacHex(key: string, body: string): Promise<string> {
  const cryptoKey = await crypto.subtle.importKey('raw', new TextEncoder().encode(key), { name: 'HMAC', hash: 'SHA-512' }, false, ['sign']);
  const signature = new Uint8Array(await crypto.subtle.sign('HMAC', cryptoKey, new TextEncoder().encode(body)));
  return [...signature].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

function bytes(text: string): ArrayBuffer {
  return new TextEncoder().encode(text).buffer as ArrayBuffer;
}

async function paidWebhook(): Promise<{ reference: string; body: string; signature: string }> {
  const reference = newReference();
  await initialize(paystack, reference, 500_000n);
  await fake.post('/__complete', { reference, outcome: 'success' });
  const { webhooks } = await fake.get('/__webhooks');
  const webhook = webhooks.find((entry: { reference: string }) => entry.reference === reference);
  return { reference, body: webhook.body, signature: webhook.signature };
}

beforeEach(async () => {
  await fake.post('/__reset');
});

describe('paystack initialize', () => {
  it('returns the checkout URL, whose page shows the exact amount', async () => {
    const { checkoutUrl } = await initialize(paystack, newReference(), 123_450n);
    expect(checkoutUrl.startsWith(`${fake.url}/checkout/`)).toBe(true);
    const page = await (await fetch(checkoutUrl)).text();
    expect(page).toContain('Paystack sandbox');
    expect(page).toContain('NGN 1,234.50');
    expect(page).toContain('ada@example.com');
  });

  it("refuses a reused reference with Paystack's message", async () => {
    const reference = newReference();
    await initialize(paystack, reference);
    const error = await failure(initialize(paystack, reference));
    expect(error.kind).toBe('rejected');
    expect(error.message).toBe('Duplicate Transaction Reference');
    expect(error.httpStatus).toBe(400);
  });

  it('is refused with a wrong secret key', async () => {
    const wrong = createPaystack({ secretKey: 'sk_test_not_ours', baseUrl: fake.url });
    const error = await failure(initialize(wrong, newReference()));
    expect(error.kind).toBe('rejected');
    expect(error.message).toBe('Invalid key');
    expect(error.httpStatus).toBe(401);
  });

  it('refuses a zero amount', async () => {
    const error = await failure(initialize(paystack, newReference(), 0n));
    expect(error).toMatchObject({ kind: 'rejected', message: 'Invalid Amount Sent' });
  });

  it('treats an answer without a checkout URL as unavailable', async () => {
    const broken = createPaystack({ secretKey, fetchImpl: answering(200, JSON.stringify({ status: true, message: 'ok', data: {} })) });
    expect((await failure(initialize(broken, newReference()))).kind).toBe('unavailable');
  });
});

describe('paystack dedicated accounts', () => {
  it('gives a customer one account number, and reports a transfer to it as dedicated_nuban from that customer', async () => {
    const email = `dva-${newReference()}@example.com`;
    const first = await paystack.createDedicatedAccount({ email, firstName: 'Ada', lastName: 'Obi' });
    expect(first).toMatchObject({ accountName: 'PAYSTACK/ADA OBI', bankName: 'Test Bank', customerCode: expect.stringMatching(/^CUS_/) });
    expect(first.accountNumber).toMatch(/^\d{10}$/);
    expect(await paystack.createDedicatedAccount({ email, firstName: 'Ada', lastName: 'Obi' })).toEqual(first);

    const { reference } = (await fake.post('/__transfer', { accountNumber: first.accountNumber, amount: 120_000 })) as { reference: string };
    expect(await paystack.verify(reference)).toMatchObject({
      status: 'success',
      amountKobo: 120_000n,
      currency: 'NGN',
      channel: 'dedicated_nuban',
      customerCode: first.customerCode,
    });
  });
});

describe('paystack verify', () => {
  it('reports abandoned until paid, then success with amount, currency and time', async () => {
    const reference = newReference();
    await initialize(paystack, reference, 987_654n);
    expect(await paystack.verify(reference)).toEqual({
      reference,
      status: 'abandoned',
      amountKobo: 987_654n,
      currency: 'NGN',
      paidAt: null,
      rawStatus: 'abandoned',
      domain: 'test',
      channel: 'card',
      customerCode: expect.stringMatching(/^CUS_/),
    });
    await fake.post('/__complete', { reference, outcome: 'success' });
    const paid = await paystack.verify(reference);
    expect(paid).toMatchObject({ reference, status: 'success', amountKobo: 987_654n, currency: 'NGN', rawStatus: 'success' });
    expect(Number.isNaN(Date.parse(paid.paidAt ?? ''))).toBe(false);
  });

  it('reports a declined payment as failed', async () => {
    const reference = newReference();
    await initialize(paystack, reference);
    await fake.post('/__complete', { reference, outcome: 'failed' });
    expect(await paystack.verify(reference)).toMatchObject({ status: 'failed', paidAt: null });
  });

  it('marks a paid transaction through the checkout page and redirects to the callback', async () => {
    const reference = newReference();
    const { checkoutUrl } = await initialize(paystack, reference);
    const answer = await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success' }), redirect: 'manual' });
    expect(answer.status).toBe(302);
    const location = new URL(answer.headers.get('location') ?? '');
    expect(location.pathname).toBe('/user/confirm-payment');
    expect(location.searchParams.get('from')).toBe('paystack');
    expect(location.searchParams.get('reference')).toBe(reference);
    expect(location.searchParams.get('trxref')).toBe(reference);
    expect((await paystack.verify(reference)).status).toBe('success');
  });

  it('reports an unknown reference as not_found', async () => {
    expect(await paystack.verify('never-initialized')).toEqual({
      reference: 'never-initialized',
      status: 'not_found',
      amountKobo: 0n,
      currency: '',
      paidAt: null,
      rawStatus: 'not_found',
      domain: null,
    });
  });

  it('reports the domain of the key that started the transaction, which only a key of that domain sees', async () => {
    const live = createPaystack({ secretKey: TEST_SECRETS.PAYSTACK_LIVE_SECRET_KEY, baseUrl: fake.url, timeoutMs: 1500 });
    const reference = newReference();
    await initialize(live, reference);
    await fake.post('/__complete', { reference, outcome: 'success' });
    expect(await live.verify(reference)).toMatchObject({ status: 'success', domain: 'live' });
    expect((await paystack.verify(reference)).status).toBe('not_found');
  });

  it('passes on what Paystack says was charged, so a tampered amount or currency is visible', async () => {
    const reference = newReference();
    await initialize(paystack, reference, 500_000n);
    await fake.post('/__complete', { reference, outcome: 'success' });
    await fake.post('/__control', { overrideAmount: 100, overrideCurrency: 'USD' });
    expect(await paystack.verify(reference)).toMatchObject({ status: 'success', amountKobo: 100n, currency: 'USD' });
    // The override lasts for one answer only.
    expect(await paystack.verify(reference)).toMatchObject({ amountKobo: 500_000n, currency: 'NGN' });
  });

  it('encodes the reference in the path', async () => {
    const urls: string[] = [];
    const recording = createPaystack({
      secretKey,
      baseUrl: 'https://paystack.test/',
      fetchImpl: async (input) => {
        urls.push(String(input));
        return new Response(JSON.stringify({ status: false, message: 'Transaction reference not found' }), { status: 400 });
      },
    });
    expect((await recording.verify('a/b?c')).status).toBe('not_found');
    expect(urls).toEqual(['https://paystack.test/transaction/verify/a%2Fb%3Fc']);
  });

  it('is unavailable when Paystack does not answer in time', async () => {
    await fake.post('/__control', { verifyMode: 'timeout' });
    const quick = createPaystack({ secretKey, baseUrl: fake.url, timeoutMs: 300 });
    const error = await failure(quick.verify('anything'));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('No answer within 300 ms');
  });

  it('is unavailable when Paystack answers an HTML error page', async () => {
    await fake.post('/__control', { verifyMode: 'garbage' });
    const error = await failure(paystack.verify('anything'));
    expect(error).toMatchObject({ kind: 'unavailable', httpStatus: 502 });
  });

  it('is unavailable on a server error', async () => {
    await fake.post('/__control', { verifyMode: 'error' });
    expect(await failure(paystack.verify('anything'))).toMatchObject({ kind: 'unavailable', httpStatus: 500 });
  });

  it('is unavailable on a network failure, a 200 that is not JSON, or rate limiting', async () => {
    const offline = createPaystack({ secretKey, fetchImpl: async () => Promise.reject(new TypeError('Network connection lost')) });
    expect((await failure(offline.verify('x'))).kind).toBe('unavailable');
    const html = createPaystack({ secretKey, fetchImpl: answering(200, '<html>maintenance</html>', 'text/html') });
    expect((await failure(html.verify('x'))).kind).toBe('unavailable');
    const limited = createPaystack({ secretKey, fetchImpl: answering(429, JSON.stringify({ status: false, message: 'Too many requests' })) });
    expect((await failure(limited.verify('x'))).kind).toBe('unavailable');
  });

  it('is unavailable when the answer is about another transaction or has a fractional amount', async () => {
    const data = { status: 'success', reference: 'other', amount: 5000, currency: 'NGN', paid_at: null };
    const other = createPaystack({ secretKey, fetchImpl: answering(200, JSON.stringify({ status: true, message: 'ok', data })) });
    expect((await failure(other.verify('mine'))).kind).toBe('unavailable');
    const fractional = createPaystack({
      secretKey,
      fetchImpl: answering(200, JSON.stringify({ status: true, message: 'ok', data: { ...data, reference: 'mine', amount: 50.5 } })),
    });
    expect((await failure(fractional.verify('mine'))).kind).toBe('unavailable');
  });

  it('never reports an unfamiliar status as paid', async () => {
    const data = { status: 'ongoing', reference: 'mine', amount: '5000', currency: 'ngn', paid_at: null };
    const provider = createPaystack({ secretKey, fetchImpl: answering(200, JSON.stringify({ status: true, message: 'ok', data })) });
    expect(await provider.verify('mine')).toMatchObject({ status: 'pending', rawStatus: 'ongoing', amountKobo: 5000n, currency: 'NGN' });
    const reversed = createPaystack({
      secretKey,
      fetchImpl: answering(200, JSON.stringify({ status: true, message: 'ok', data: { ...data, status: 'reversed' } })),
    });
    expect((await reversed.verify('mine')).status).toBe('failed');
    const novel = createPaystack({
      secretKey,
      fetchImpl: answering(200, JSON.stringify({ status: true, message: 'ok', data: { ...data, status: 'teleported' } })),
    });
    expect((await novel.verify('mine')).status).toBe('pending');
  });
});

describe('paystack webhooks', () => {
  it('accepts the signed charge.success the fake sent, byte for byte', async () => {
    const { reference, body, signature } = await paidWebhook();
    expect(JSON.parse(body)).toMatchObject({ event: 'charge.success', data: { reference, amount: 500_000, currency: 'NGN', status: 'success' } });
    const event = await paystack.parseWebhook(bytes(body), new Headers({ 'x-paystack-signature': signature }));
    expect(event).toEqual({ event: 'charge.success', reference });
    const upperCase = await paystack.parseWebhook(bytes(body), new Headers({ 'x-paystack-signature': signature.toUpperCase() }));
    expect(upperCase).toEqual({ event: 'charge.success', reference });
  });

  it('rejects an altered body', async () => {
    const { body, signature } = await paidWebhook();
    const altered = body.replace('"amount":500000', '"amount":900000');
    expect(altered).not.toBe(body);
    expect(await paystack.parseWebhook(bytes(altered), new Headers({ 'x-paystack-signature': signature }))).toBeNull();
    expect(await paystack.parseWebhook(bytes(`${body} `), new Headers({ 'x-paystack-signature': signature }))).toBeNull();
  });

  it('rejects a body signed with another key', async () => {
    const { body } = await paidWebhook();
    const forged = await hmacHex('sk_test_attacker', body);
    expect(await paystack.parseWebhook(bytes(body), new Headers({ 'x-paystack-signature': forged }))).toBeNull();
  });

  it('rejects a missing or malformed signature', async () => {
    const { body, signature } = await paidWebhook();
    expect(await paystack.parseWebhook(bytes(body), new Headers())).toBeNull();
    expect(await paystack.parseWebhook(bytes(body), new Headers({ 'x-paystack-signature': '' }))).toBeNull();
    expect(await paystack.parseWebhook(bytes(body), new Headers({ 'x-paystack-signature': signature.slice(0, 64) }))).toBeNull();
    expect(await paystack.parseWebhook(bytes(body), new Headers({ 'x-paystack-signature': 'z'.repeat(128) }))).toBeNull();
  });

  it('gives no reference for authentic events without one, and refuses authentic garbage', async () => {
    const subscription = JSON.stringify({ event: 'subscription.create', data: { subscription_code: 'SUB_x' } });
    const event = await paystack.parseWebhook(bytes(subscription), new Headers({ 'x-paystack-signature': await hmacHex(secretKey, subscription) }));
    expect(event).toEqual({ event: 'subscription.create', reference: null });
    const garbage = 'not json';
    const error = await failure(paystack.parseWebhook(bytes(garbage), new Headers({ 'x-paystack-signature': await hmacHex(secretKey, garbage) })));
    expect(error.kind).toBe('rejected');
  });

  it('records one webhook per payment, and a paid transaction cannot be paid again', async () => {
    const { reference } = await paidWebhook();
    const { webhooks } = await fake.get('/__webhooks');
    expect(webhooks.filter((entry: { reference: string }) => entry.reference === reference)).toHaveLength(1);
    const again = await fake.post('/__complete', { reference, outcome: 'success' });
    expect(again.changed).toBe(false);
    expect((await fake.get('/__webhooks')).webhooks).toHaveLength(1);
  });
});
