// Flutterwave v3 (https://developer.flutterwave.com/v3.0/docs) behind the
// PaymentProvider interface: "Standard" hosted checkout, verification by our
// tx_ref, and webhooks authenticated by the dashboard's secret hash. Flutterwave
// amounts are naira decimals; they are converted to kobo exactly or refused.

import { koboToNaira, nairaToKobo } from '../../lib/decimal';
import { globalFetch, type FetchImpl } from '../http';
import { envelopeApi } from './envelope-api';
import type { PaymentProvider, VerifiedPayment, VerifiedPaymentStatus, WebhookEvent } from './types';

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

    async verify(reference): Promise<VerifiedPayment> {
      const answer = await api.call('GET', `/v3/transactions/verify_by_reference?tx_ref=${encodeURIComponent(reference)}`);
      const { body, httpStatus } = answer;
      const notFound = body.status === 'error' && httpStatus >= 400 && typeof body.message === 'string' && /no transaction (was )?found/i.test(body.message);
      if (notFound) return { reference, status: 'not_found', amountKobo: 0n, currency: '', paidAt: null, rawStatus: 'not_found' };

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
      return {
        reference,
        status,
        amountKobo,
        currency: api.requireString(data.currency, 'data.currency').toUpperCase(),
        // Flutterwave has no separate payment time; a successful charge is paid when created.
        paidAt: status === 'success' && typeof data.created_at === 'string' ? data.created_at : null,
        rawStatus,
      };
    },

    async parseWebhook(rawBody, headers): Promise<WebhookEvent | null> {
      const given = headers.get('verif-hash');
      if (!given || webhookSecretHash === '' || !(await sameSecret(given, webhookSecretHash))) return null;
      // v3 webhooks name the event in `event`; older dashboard settings send `event.type`.
      const { event, data } = api.parseEvent(rawBody, (payload) => payload.event ?? payload['event.type']);
      const reference = typeof data.tx_ref === 'string' && data.tx_ref !== '' ? data.tx_ref : null;
      return { event, reference };
    },
  };
}
