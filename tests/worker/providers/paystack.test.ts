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

function initialize(provider: PaymentProvider, reference: string, amountKobo = 250_000n, email = 'ada@example.com') {
  return provider.initialize({
    reference,
    amountKobo,
    email,
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

describe('paystack payer fingerprints', () => {
  /** A card payment by `email`, paid at the sandbox with the card the control names (the email's own when none); its fingerprint. */
  async function paidByCard(email: string, card?: string): Promise<string | null | undefined> {
    const reference = newReference();
    await initialize(paystack, reference, 250_000n, email);
    await fake.post('/__complete', { reference, outcome: 'success', ...(card === undefined ? {} : { card }) });
    const verified = await paystack.verify(reference);
    expect(verified).toMatchObject({ status: 'success', channel: 'card' });
    return verified.payerFingerprint;
  }

  it("reads a card payment's fingerprint from Paystack's card signature: one per card, whoever pays with it", async () => {
    const ada = await paidByCard('ada@example.com');
    expect(ada).toMatch(/^paystack-card:SIG_[A-Za-z0-9]{20}$/);
    // The sandbox's card for an email, unless the control names one.
    expect(await paidByCard('ADA@example.com')).toBe(ada);
    expect(await paidByCard('bola@example.com')).not.toBe(ada);
    const shared = await paidByCard('chidi@example.com', 'the family card');
    expect(await paidByCard('dayo@example.com', 'the family card')).toBe(shared);
    expect(await paidByCard('chidi@example.com', 'another card')).not.toBe(shared);
    expect([ada, shared]).not.toContain(null);
  });

  it('reads a declined card too, and nothing before the payer chose one', async () => {
    const reference = newReference();
    await initialize(paystack, reference, 250_000n, 'eze@example.com');
    expect((await paystack.verify(reference)).payerFingerprint).toBeNull();
    await fake.post('/__complete', { reference, outcome: 'failed', card: 'stolen card' });
    const declined = await paystack.verify(reference);
    expect(declined.status).toBe('failed');
    expect(declined.payerFingerprint).toBe(await paidByCard('femi@example.com', 'stolen card'));
  });

  it('takes the card from the checkout page as well', async () => {
    const reference = newReference();
    const { checkoutUrl } = await initialize(paystack, reference, 250_000n, 'gozie@example.com');
    await fetch(checkoutUrl, { method: 'POST', body: new URLSearchParams({ outcome: 'success', card: 'page card' }), redirect: 'manual' });
    expect((await paystack.verify(reference)).payerFingerprint).toBe(await paidByCard('hauwa@example.com', 'page card'));
  });

  it('refuses a card control that is not text', async () => {
    const reference = newReference();
    await initialize(paystack, reference);
    await expect(fake.post('/__complete', { reference, outcome: 'success', card: 42 })).rejects.toThrow('fake answered 400');
  });

  it("reads a transfer's fingerprint from the sending bank account: masked as Paystack masks it, with the holder's name", async () => {
    const account = async (name: string) =>
      (await paystack.createDedicatedAccount({ email: `${name}-${newReference()}@example.com`, firstName: name, lastName: 'Obi' })).accountNumber;
    const transfer = async (accountNumber: string, sender: Record<string, string> = {}) => {
      const { reference } = (await fake.post('/__transfer', { accountNumber, amount: 50_000, ...sender })) as { reference: string };
      const verified = await paystack.verify(reference);
      expect(verified).toMatchObject({ status: 'success', channel: 'dedicated_nuban' });
      return verified.payerFingerprint;
    };
    const ada = await account('Ada');
    const bola = await account('Bola');

    // By default each dedicated account is paid from one account of its own, its owner's.
    const fromAdasBank = await transfer(ada);
    expect(fromAdasBank).toMatch(/^bank:TEST SENDER BANK:XXXXXX\d{4}:TEST SENDER [A-Z]{6}$/);
    expect(await transfer(ada)).toBe(fromAdasBank);
    expect(await transfer(bola)).not.toBe(fromAdasBank);

    // The sender named by the control: the same account paying both is seen as one, other accounts or banks are not.
    const shared = await transfer(ada, { senderAccount: '0123456789' });
    expect(shared).toMatch(/^bank:TEST SENDER BANK:XXXXXX6789:TEST SENDER [A-Z]{6}$/);
    expect(await transfer(bola, { senderAccount: '0123456789' })).toBe(shared);
    expect(await transfer(bola, { senderAccount: '9999996789' })).not.toBe(shared);
    expect(await transfer(bola, { senderAccount: '0123456789', senderBank: 'Kuda Bank' })).toMatch(/^bank:KUDA BANK:XXXXXX6789:/);
    const named = await transfer(ada, { senderAccount: 'the business account' });
    expect(await transfer(bola, { senderAccount: 'the business account' })).toBe(named);
    expect([fromAdasBank, shared, named]).not.toContain(null);
    await expect(fake.post('/__transfer', { accountNumber: ada, amount: 100, senderAccount: 7 })).rejects.toThrow('fake answered 400');
  });

  /** What the adapter reads from a recorded successful verify answer with these fields. */
  async function fingerprintOf(fields: Record<string, unknown>): Promise<string | null | undefined> {
    const data = { status: 'success', reference: 'mine', amount: 5000, currency: 'NGN', paid_at: '2024-05-01T10:00:00.000Z', domain: 'live', ...fields };
    const provider = createPaystack({ secretKey, fetchImpl: answering(200, JSON.stringify({ status: true, message: 'Verification successful', data })) });
    const verified = await provider.verify('mine');
    expect(verified).toMatchObject({ status: 'success', amountKobo: 5000n });
    return verified.payerFingerprint;
  }

  it("reads the fields of Paystack's documented answers", async () => {
    // The card authorization of its recurring-charges guide.
    const card = {
      authorization_code: 'AUTH_8dfhjjdt',
      card_type: 'visa',
      last4: '1381',
      exp_month: '08',
      exp_year: '2018',
      bin: '412345',
      bank: 'TEST BANK',
      channel: 'card',
      signature: 'SIG_idyuhgd87dUYSHO92D',
      reusable: true,
      country_code: 'NG',
      account_name: 'BoJack Horseman',
    };
    expect(await fingerprintOf({ channel: 'card', authorization: card })).toBe('paystack-card:SIG_idyuhgd87dUYSHO92D');
    // The transfer authorization of its dedicated virtual accounts guide.
    const transfer = {
      authorization_code: 'AUTH_0ozsafcpdf',
      bin: '413XXX',
      last4: 'X011',
      exp_month: '01',
      exp_year: '2020',
      channel: 'dedicated_nuban',
      card_type: 'transfer',
      bank: 'First City Monument Bank',
      country_code: 'NG',
      brand: 'Managed Account',
      reusable: false,
      signature: null,
      sender_bank: 'First City Monument Bank',
      sender_bank_account_number: 'XXXXXX0011',
      sender_country: 'NG',
      sender_name: 'RANDALL AKANBI HORTON',
      narration: 'NIP: RANDALL AKANBI HORTON-1234567890/0987654321',
    };
    expect(await fingerprintOf({ channel: 'dedicated_nuban', authorization: transfer })).toBe('bank:FIRST CITY MONUMENT BANK:XXXXXX0011:RANDALL AKANBI HORTON');
    // An account number in full names the account by itself; names and banks are compared in one spelling.
    expect(
      await fingerprintOf({
        channel: 'dedicated_nuban',
        authorization: { ...transfer, sender_bank: '  first city\tmonument   bank ', sender_bank_account_number: '0123450011', sender_name: 'someone else' },
      }),
    ).toBe('bank:FIRST CITY MONUMENT BANK:0123450011');
    // The channel may be missing from the transaction but given in the authorization.
    expect(await fingerprintOf({ authorization: card })).toBe('paystack-card:SIG_idyuhgd87dUYSHO92D');
  });

  it('is null, never a failure, when Paystack omits or garbles the fields', async () => {
    const card = { channel: 'card', signature: 'SIG_idyuhgd87dUYSHO92D' };
    const transfer = { channel: 'dedicated_nuban', sender_bank: 'Wema Bank', sender_bank_account_number: 'XXXXXX0011', sender_name: 'ADA OBI' };
    const garbled: Record<string, unknown>[] = [
      {},
      { channel: 'card' },
      { channel: 'card', authorization: null },
      { channel: 'card', authorization: 'SIG_idyuhgd87dUYSHO92D' },
      { channel: 'card', authorization: [card] },
      { channel: 'card', authorization: {} },
      { channel: 'card', authorization: { ...card, signature: null } },
      { channel: 'card', authorization: { ...card, signature: '' } },
      { channel: 'card', authorization: { ...card, signature: 12345678 } },
      { channel: 'card', authorization: { ...card, signature: { id: 'SIG_x' } } },
      { channel: 'card', authorization: { ...card, signature: 'SIG id with spaces' } },
      { channel: 'card', authorization: { ...card, signature: 'SIG_'.padEnd(101, 'x') } },
      { channel: 'card', authorization: { ...card, signature: 'SIG:a:b' } },
      // Another channel's signature is not a card's; a channel we do not know names nothing.
      { channel: 'ussd', authorization: card },
      { channel: 42, authorization: { ...card, channel: 42 } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank: undefined } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank: '   ' } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank: 'B'.repeat(101) } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank_account_number: undefined } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank_account_number: 123450011 } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank_account_number: 'XXXXXXXXXX' } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank_account_number: 'XXXXXX001' } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank_account_number: '0123-450011' } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_bank_account_number: '1'.repeat(21) } },
      // A masked number with no holder's name: a bank and four digits are shared by strangers.
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_name: null } },
      { channel: 'dedicated_nuban', authorization: { ...transfer, sender_name: '\u0000\u0001' } },
      // A transfer's authorization carries no card, whatever its signature says.
      { channel: 'dedicated_nuban', authorization: { ...card, channel: 'dedicated_nuban' } },
    ];
    for (const fields of garbled) expect(await fingerprintOf(fields), JSON.stringify(fields)).toBeNull();
    // A not-found transaction has none to give.
    expect((await paystack.verify('never-initialized')).payerFingerprint).toBeUndefined();
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
      payerFingerprint: null,
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
    // gateway_response: why, in Paystack's words, which the payer reads before trying again.
    expect(await paystack.verify(reference)).toMatchObject({ status: 'failed', paidAt: null, declineReason: 'Declined' });
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
