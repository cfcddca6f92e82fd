// Paystack (https://paystack.com/docs/api/) behind the PaymentProvider interface.
// Every answer comes in the envelope {status: boolean, message, data}; amounts
// are integer kobo; webhooks are signed with HMAC-SHA512 of the raw body. Refund and
// dispute webhooks are read in reversals.ts.

import { parseDecimalExact } from '../../lib/decimal';
import { type FetchImpl, globalFetch, isRecord } from '../http';
import { type Envelope, envelopeApi } from './envelope-api';
import { readPaystackReversal } from './reversals';
import {
  type DedicatedAccountProvider,
  type PaymentProvider,
  providerWords,
  type VerifiedPayment,
  type VerifiedPaymentStatus,
  type WebhookEvent,
} from './types';

export interface PaystackOptions {
  secretKey: string;
  /** The bank slug of dedicated accounts: "test-bank" with test keys, "wema-bank" or "titan-paystack" live. */
  dedicatedAccountBank?: string;
  baseUrl?: string;
  timeoutMs?: number;
  fetchImpl?: FetchImpl;
}

/** Paystack's transaction statuses (see "Transaction statuses" in its verify docs) mapped to ours. */
const STATUS_BY_PAYSTACK_STATUS = new Map<string, VerifiedPaymentStatus>([
  ['success', 'success'],
  ['failed', 'failed'],
  // Refunded or charged back: the money is not ours to credit.
  ['reversed', 'failed'],
  ['abandoned', 'abandoned'],
  ['ongoing', 'pending'],
  ['pending', 'pending'],
  ['processing', 'pending'],
  ['queued', 'pending'],
]);

/**
 * Paystack's card signature ("SIG_…" in its docs): the same for one card whichever customer or
 * authorization it pays with. Anything longer or outside these characters is not one.
 */
const CARD_SIGNATURE_PATTERN = /^[A-Za-z0-9_-]{6,100}$/;
/** A sending account number as Paystack reports it: the digits, or all but the last few masked ("XXXXXX0011"). */
const SENDER_ACCOUNT_PATTERN = /^[0-9X]{6,20}$/;

/**
 * The payment instrument of a verified transaction (see VerifiedPayment.payerFingerprint), read from the
 * `authorization` Paystack answers with: a card's `signature`, or for a transfer to a dedicated account
 * (channel dedicated_nuban) the `sender_bank` and `sender_bank_account_number`, with the `sender_name` when
 * the number is masked. Null for anything missing, garbled or of another channel: it never fails a payment.
 */
function paystackPayerFingerprint(data: Record<string, unknown>): string | null {
  const authorization = data.authorization;
  if (!isRecord(authorization)) return null;
  const channel = typeof data.channel === 'string' ? data.channel : authorization.channel;
  if (channel === 'dedicated_nuban') {
    const bank = fingerprintText(authorization.sender_bank);
    const number =
      typeof authorization.sender_bank_account_number === 'string' ? authorization.sender_bank_account_number.trim().replaceAll('*', 'X').toUpperCase() : '';
    if (bank === null || !SENDER_ACCOUNT_PATTERN.test(number) || (number.match(/\d/g) ?? []).length < 4) return null;
    if (/^\d+$/.test(number)) return `bank:${bank}:${number}`;
    const name = fingerprintText(authorization.sender_name);
    return name === null ? null : `bank:${bank}:${number}:${name}`;
  }
  if (channel !== 'card') return null;
  const signature = authorization.signature;
  return typeof signature === 'string' && CARD_SIGNATURE_PATTERN.test(signature) ? `paystack-card:${signature}` : null;
}

/** A bank's or a person's name as one comparable word: upper case, single spaces, no colons or control characters. */
function fingerprintText(value: unknown): string | null {
  if (typeof value !== 'string') return null;
  const text = value
    .normalize('NFKC')
    .replace(/[:\p{C}]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .toUpperCase();
  return text !== '' && text.length <= 100 ? text : null;
}

const SIGNATURE_HEADER = 'x-paystack-signature';
/** An HMAC-SHA512 digest in hex. */
const SIGNATURE_PATTERN = /^[0-9a-f]{128}$/i;

export function createPaystack({
  secretKey,
  baseUrl = 'https://api.paystack.co',
  timeoutMs = 10_000,
  fetchImpl = globalFetch,
  dedicatedAccountBank = secretKey.startsWith('sk_live_') ? 'wema-bank' : 'test-bank',
}: PaystackOptions): PaymentProvider & DedicatedAccountProvider {
  const api = envelopeApi({
    provider: 'paystack',
    label: 'Paystack',
    secretKey,
    baseUrl,
    timeoutMs,
    fetchImpl,
    readStatus: (status) => (typeof status === 'boolean' ? status : null),
  });
  const { fail } = api;
  let webhookKey: Promise<CryptoKey> | undefined;

  function isReferenceNotFound({ body, httpStatus }: Envelope): boolean {
    if (body.status !== false || (httpStatus !== 400 && httpStatus !== 404)) return false;
    return body.code === 'transaction_not_found' || (typeof body.message === 'string' && /reference not found/i.test(body.message));
  }

  function readKobo(value: unknown): bigint {
    try {
      if (typeof value !== 'number' && typeof value !== 'string') throw new TypeError('no amount');
      return parseDecimalExact(value, 0);
    } catch (error) {
      throw fail('unavailable', `Paystack sent an amount that is not whole kobo: ${JSON.stringify(value)}`, null, error);
    }
  }

  function signingKey(): Promise<CryptoKey> {
    webhookKey ??= crypto.subtle.importKey('raw', new TextEncoder().encode(secretKey), { name: 'HMAC', hash: 'SHA-512' }, false, ['verify']);
    return webhookKey;
  }

  return {
    name: 'paystack',

    async initialize({ reference, amountKobo, email, callbackUrl, currency, metadata }) {
      const answer = await api.call('POST', '/transaction/initialize', {
        email,
        // Kobo as a decimal string: exact for any bigint, and accepted by Paystack.
        amount: amountKobo.toString(),
        reference,
        currency,
        callback_url: callbackUrl,
        ...(metadata ? { metadata } : {}),
      });
      const data = api.successData(answer, 'Paystack initialize');
      return { checkoutUrl: api.requireCheckoutUrl(data.authorization_url, 'data.authorization_url') };
    },

    async verify(reference): Promise<VerifiedPayment> {
      const answer = await api.call('GET', `/transaction/verify/${encodeURIComponent(reference)}`);
      if (isReferenceNotFound(answer)) {
        return { reference, status: 'not_found', amountKobo: 0n, currency: '', paidAt: null, rawStatus: 'not_found', domain: null };
      }
      const data = api.successData(answer, 'Paystack verify');
      const answeredReference = api.requireString(data.reference, 'data.reference');
      if (answeredReference !== reference) {
        throw fail('unavailable', `Paystack answered about transaction "${answeredReference}" when asked about "${reference}"`);
      }
      const rawStatus = api.requireString(data.status, 'data.status');
      const paidAt = data.paid_at ?? data.paidAt;
      const customer = data.customer && typeof data.customer === 'object' ? (data.customer as Record<string, unknown>) : {};
      return {
        channel: typeof data.channel === 'string' ? data.channel : null,
        customerCode: typeof customer.customer_code === 'string' && customer.customer_code !== '' ? customer.customer_code : null,
        payerFingerprint: paystackPayerFingerprint(data),
        // Paystack names the world of every transaction: "test" or "live".
        domain: data.domain === 'live' || data.domain === 'test' ? data.domain : null,
        reference,
        // An unknown status is never treated as paid: it waits like a pending one.
        status: STATUS_BY_PAYSTACK_STATUS.get(rawStatus) ?? 'pending',
        amountKobo: readKobo(data.amount),
        currency: api.requireString(data.currency, 'data.currency').toUpperCase(),
        paidAt: typeof paidAt === 'string' && paidAt !== '' ? paidAt : null,
        rawStatus,
        // Only a decline's: a reversed payment's gateway_response is its original "Approved".
        declineReason: rawStatus === 'failed' ? providerWords(data.gateway_response) : undefined,
      };
    },

    // Dedicated Virtual Accounts (https://paystack.com/docs/payments/dedicated-virtual-accounts/): the
    // customer first (POST /customer answers the existing one for a known email), then their account
    // (POST /dedicated_account answers the account the customer already has).
    async createDedicatedAccount({ email, firstName, lastName }) {
      const customer = api.successData(await api.call('POST', '/customer', { email, first_name: firstName, last_name: lastName }), 'Paystack create customer');
      const customerCode = api.requireString(customer.customer_code, 'data.customer_code');
      const account = api.successData(
        await api.call('POST', '/dedicated_account', { customer: customerCode, preferred_bank: dedicatedAccountBank }),
        'Paystack dedicated account',
      );
      const bank = account.bank && typeof account.bank === 'object' ? (account.bank as Record<string, unknown>) : {};
      const accountNumber = api.requireString(account.account_number, 'data.account_number');
      if (!/^\d{10}$/.test(accountNumber)) throw fail('unavailable', `Paystack gave an account number that is not 10 digits: ${JSON.stringify(accountNumber)}`);
      return {
        customerCode,
        accountNumber,
        accountName: api.requireString(account.account_name, 'data.account_name'),
        bankName: api.requireString(bank.name, 'data.bank.name'),
        providerAccountId: String(account.id ?? ''),
      };
    },

    async checkKey() {
      // "Fetch Balance" needs only the secret key, on test and live integrations alike.
      api.requireSuccess(await api.call('GET', '/balance'), 'Paystack balance');
    },

    async parseWebhook(rawBody, headers): Promise<WebhookEvent | null> {
      const signatureHex = headers.get(SIGNATURE_HEADER)?.trim() ?? '';
      if (!SIGNATURE_PATTERN.test(signatureHex)) return null;
      const signature = new Uint8Array(64);
      for (let i = 0; i < 64; i++) signature[i] = parseInt(signatureHex.slice(i * 2, i * 2 + 2), 16);
      // subtle.verify compares in constant time, and runs before the body is even parsed.
      const authentic = await crypto.subtle.verify('HMAC', await signingKey(), signature, rawBody);
      if (!authentic) return null;

      const { event, data } = api.parseEvent(rawBody, (payload) => payload.event);
      const reading = readPaystackReversal(event, data);
      if (reading && 'unreadable' in reading) return { event, reference: null, unreadable: `Paystack ${reading.unreadable}` };
      if (reading) return { event, reference: reading.read.reference, reversal: reading.read };
      const reference = typeof data.reference === 'string' && data.reference !== '' ? data.reference : null;
      return { event, reference };
    },
  };
}
