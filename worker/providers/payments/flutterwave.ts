// Flutterwave v3 (https://developer.flutterwave.com/v3.0/docs) behind the
// PaymentProvider interface: "Standard" hosted checkout, verification by its
// transaction id or our tx_ref, and webhooks authenticated by the dashboard's
// secret hash. Flutterwave amounts are naira decimals; they are converted to
// kobo exactly or refused. Refund and chargeback webhooks are read in reversals.ts.

import { koboToNaira, nairaToKobo } from '../../lib/decimal';
import { type FetchImpl, globalFetch, isRecord } from '../http';
import { envelopeApi } from './envelope-api';
import { keyDomain } from './keys';
import { readFlutterwaveReversal } from './reversals';
import { type PaymentProvider, providerWords, type VerifiedPayment, type VerifiedPaymentStatus, type WebhookEvent } from './types';

export interface FlutterwaveOptions {
  secretKey: string;
  /** The "Secret hash" set on the Flutterwave dashboard; it comes back in every webhook's verif-hash header. */
  webhookSecretHash: string;
  baseUrl?: string;
  timeoutMs?: number;
  fetchImpl?: FetchImpl;
}

const STATUS_BY_FLUTTERWAVE_STATUS = new Map<string, VerifiedPaymentStatus>([
  ['successful', 'success'],
  ['failed', 'failed'],
  ['cancelled', 'abandoned'],
  ['pending', 'pending'],
]);

/**
 * The card of a verified transaction (see VerifiedPayment.payerFingerprint), from the `card` Flutterwave
 * answers with: its first 6 and last 4 digits (a truncation that is no card number) and its expiry.
 * Null when there is no card (another payment type) or a part is missing or garbled: it never fails a payment.
 */
function flutterwavePayerFingerprint(data: Record<string, unknown>): string | null {
  const card = data.card;
  if (!isRecord(card)) return null;
  const first6 = cardDigits(card.first_6digits, 6);
  const last4 = cardDigits(card.last_4digits, 4);
  const expiry = typeof card.expiry === 'string' ? /^(\d{1,2})\s*\/\s*(\d{2}|\d{4})$/.exec(card.expiry.trim()) : null;
  const month = expiry ? Number(expiry[1]) : 0;
  if (first6 === null || last4 === null || !expiry || month < 1 || month > 12) return null;
  return `flutterwave-card:${first6}:${last4}:${String(month).padStart(2, '0')}/${expiry[2].slice(-2)}`;
}

/** Exactly `length` digits, given as text (as Flutterwave sends them) or as a whole number that lost its leading zeros. */
function cardDigits(value: unknown, length: number): string | null {
  const text = typeof value === 'string' ? value.trim() : Number.isSafeInteger(value) && (value as number) >= 0 ? String(value).padStart(length, '0') : '';
  return text.length === length && /^\d+$/.test(text) ? text : null;
}

export function createFlutterwave({
  secretKey,
  webhookSecretHash,
  baseUrl = 'https://api.flutterwave.com',
  timeoutMs = 10_000,
  fetchImpl = globalFetch,
}: FlutterwaveOptions): PaymentProvider {
  const api = envelopeApi({
    provider: 'flutterwave',
    label: 'Flutterwave',
    secretKey,
    baseUrl,
    timeoutMs,
    fetchImpl,
    readStatus: (status) => (status === 'success' ? true : status === 'error' ? false : null),
  });
  const { fail } = api;

  /** Compares secrets in time independent of where they differ, by comparing their SHA-256 digests. */
  async function sameSecret(given: string, expected: string): Promise<boolean> {
    const encoder = new TextEncoder();
    const [a, b] = await Promise.all([given, expected].map((text) => crypto.subtle.digest('SHA-256', encoder.encode(text))));
    const left = new Uint8Array(a);
    const right = new Uint8Array(b);
    let difference = 0;
    for (let i = 0; i < left.length; i++) difference |= left[i] ^ right[i];
    return difference === 0;
  }

  /**
   * Our reference and the currency of a transaction known by Flutterwave's id: its refund and
   * chargeback objects name the transaction only so, and carry no currency.
   */
  async function paymentOf(transactionId: string): Promise<{ reference: string; currency: string }> {
    const data = api.successData(await api.call('GET', `/v3/transactions/${encodeURIComponent(transactionId)}/verify`), 'Flutterwave transaction');
    return { reference: api.requireString(data.tx_ref, 'data.tx_ref'), currency: api.requireString(data.currency, 'data.currency').toUpperCase() };
  }

  return {
    name: 'flutterwave',

    async initialize({ reference, amountKobo, email, callbackUrl, currency, metadata }) {
      const answer = await api.call('POST', '/v3/payments', {
        tx_ref: reference,
        // Naira as exact decimal text; Flutterwave reads it as the amount to charge.
        amount: koboToNaira(amountKobo),
        currency,
        redirect_url: callbackUrl,
        customer: { email },
        ...(metadata ? { meta: metadata } : {}),
      });
      return { checkoutUrl: api.requireCheckoutUrl(api.successData(answer, 'Flutterwave payment').link, 'data.link') };
    },

    async verify(reference, transactionId): Promise<VerifiedPayment> {
      const path =
        transactionId === undefined
          ? `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(reference)}`
          : `/v3/transactions/${encodeURIComponent(transactionId)}/verify`;
      const answer = await api.call('GET', path);
      const { body, httpStatus } = answer;
      const notFound = body.status === 'error' && httpStatus >= 400 && typeof body.message === 'string' && /no transaction (was )?found/i.test(body.message);
      if (notFound) return { reference, status: 'not_found', amountKobo: 0n, currency: '', paidAt: null, rawStatus: 'not_found', domain: null };

      const data = api.successData(answer, 'Flutterwave verify');
      const answeredReference = api.requireString(data.tx_ref, 'data.tx_ref');
      if (answeredReference !== reference) {
        throw fail('unavailable', `Flutterwave answered about transaction "${answeredReference}" when asked about "${reference}"`);
      }
      const rawStatus = api.requireString(data.status, 'data.status');
      const status = STATUS_BY_FLUTTERWAVE_STATUS.get(rawStatus.toLowerCase()) ?? 'pending';
      let amountKobo: bigint;
      try {
        if (typeof data.amount !== 'number' && typeof data.amount !== 'string') throw new TypeError('no amount');
        amountKobo = nairaToKobo(data.amount);
      } catch (error) {
        throw fail('unavailable', `Flutterwave sent an amount that is not whole kobo: ${JSON.stringify(data.amount)}`, null, error);
      }
      // v3 answers carry no test/live field: a key sees only its own world, and sandbox charges
      // go through the mock processor, whose references start "FLW-MOCK-".
      const mockCharge = typeof data.flw_ref === 'string' && data.flw_ref.startsWith('FLW-MOCK-');
      return {
        reference,
        status,
        amountKobo,
        currency: api.requireString(data.currency, 'data.currency').toUpperCase(),
        // Flutterwave has no separate payment time; a successful charge is paid when created.
        paidAt: status === 'success' && typeof data.created_at === 'string' ? data.created_at : null,
        rawStatus,
        domain: keyDomain('flutterwave', secretKey) === 'test' || mockCharge ? 'test' : 'live',
        payerFingerprint: flutterwavePayerFingerprint(data),
        declineReason: rawStatus.toLowerCase() === 'failed' ? providerWords(data.processor_response) : undefined,
      };
    },

    async checkKey() {
      // "Get all wallet balances": an authenticated read on every account, test or live.
      api.requireSuccess(await api.call('GET', '/v3/balances'), 'Flutterwave balances');
    },

    async parseWebhook(rawBody, headers): Promise<WebhookEvent | null> {
      const given = headers.get('verif-hash');
      if (!given || webhookSecretHash === '' || !(await sameSecret(given, webhookSecretHash))) return null;
      // v3 webhooks name the event in `event`, newer ones in `type`; older dashboard settings send `event.type`.
      const { event, data } = api.parseEvent(rawBody, (payload) => payload.event ?? payload.type ?? payload['event.type']);
      const reading = readFlutterwaveReversal(event, data);
      if (reading && 'unreadable' in reading) return { event, reference: null, unreadable: `Flutterwave ${reading.unreadable}` };
      if (reading) {
        const payment = await paymentOf(reading.read.transactionId);
        if (reading.read.reference !== null && reading.read.reference !== payment.reference) {
          return {
            event,
            reference: null,
            unreadable: `Flutterwave ${event} names ${reading.read.reference}, but its transaction ${reading.read.transactionId} is ${payment.reference}`,
          };
        }
        const { kind, key, amountKobo, state, dueAt, details, transactionId } = reading.read;
        return { event, reference: payment.reference, transactionId, reversal: { kind, key, amountKobo, state, dueAt, details, ...payment } };
      }
      const reference = typeof data.tx_ref === 'string' && data.tx_ref !== '' ? data.tx_ref : null;
      // Flutterwave asks for verification by its transaction id; anything but a positive integer is not one.
      const id = typeof data.id === 'number' || typeof data.id === 'string' ? String(data.id) : '';
      return /^[1-9]\d{0,18}$/.test(id) ? { event, reference, transactionId: id } : { event, reference };
    },
  };
}
