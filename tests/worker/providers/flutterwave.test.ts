// No local Flutterwave fake exists: these tests answer with recorded v3 shapes.
import { describe, expect, it } from 'vitest';
import { createFlutterwave } from '../../../worker/providers/payments/flutterwave';
import { PaymentProviderError } from '../../../worker/providers/payments/types';
import { answering } from './fake-scope';

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

async function failure(promise: Promise<unknown>): Promise<PaymentProviderError> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(PaymentProviderError);
  return error as PaymentProviderError;
}

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
        return new Response(JSON.stringify({ status: 'success', message: 'Hosted Link', data: { link: 'https://checkout.flutterwave.com/v3/hosted/pay/abc' } }));
      },
    });
    const result = await flutterwave.initialize({ reference: 'dep-1', amountKobo: 123_405n, email: 'ada@example.com', callbackUrl: 'https://shop.test/back', currency: 'NGN' });
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
    });
    expect(urls).toEqual(['https://api.flutterwave.com/v3/transactions/verify_by_reference?tx_ref=dep-1']);
  });

  it('maps statuses, unknown references and refusals', async () => {
    const failed = createFlutterwave({ ...options, fetchImpl: answering(200, transaction({ status: 'failed' })) });
    expect(await failed.verify('dep-1')).toMatchObject({ status: 'failed', paidAt: null });
    const missing = createFlutterwave({ ...options, fetchImpl: answering(400, JSON.stringify({ status: 'error', message: 'No transaction was found for this id', data: null })) });
    expect((await missing.verify('dep-1')).status).toBe('not_found');
    const refused = createFlutterwave({ ...options, fetchImpl: answering(401, JSON.stringify({ status: 'error', message: 'Invalid authorization key', data: null })) });
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

  it('accepts webhooks carrying the secret hash and nothing else', async () => {
    const flutterwave = createFlutterwave(options);
    const body = JSON.stringify({ event: 'charge.completed', data: { id: 1, tx_ref: 'dep-1', amount: 100, currency: 'NGN', status: 'successful' } });
    expect(await flutterwave.parseWebhook(bytes(body), new Headers({ 'verif-hash': 'my-secret-hash' }))).toEqual({ event: 'charge.completed', reference: 'dep-1' });
    expect(await flutterwave.parseWebhook(bytes(body), new Headers({ 'verif-hash': 'my-secret-hasH' }))).toBeNull();
    expect(await flutterwave.parseWebhook(bytes(body), new Headers())).toBeNull();
    const legacy = JSON.stringify({ 'event.type': 'CARD_TRANSACTION', data: {} });
    expect(await flutterwave.parseWebhook(bytes(legacy), new Headers({ 'verif-hash': 'my-secret-hash' }))).toEqual({ event: 'CARD_TRANSACTION', reference: null });
  });
});
