// What Paystack and Flutterwave have in common: a JSON API authorised with the
// secret key as a Bearer token, answering {status, message, data}. Each adapter
// says how its `status` field spells success.

import { excerpt, type FetchImpl, fetchJsonObject, isRecord, type JsonAnswer } from '../http';
import { PaymentProviderError, type PaymentProviderName } from './types';

/** A readable answer: an envelope at an HTTP status below 500. */
export type Envelope = JsonAnswer & { body: Record<string, unknown> };

export interface EnvelopeApiOptions {
  provider: PaymentProviderName;
  /** Name for messages, e.g. "Paystack". */
  label: string;
  secretKey: string;
  baseUrl: string;
  timeoutMs: number;
  fetchImpl: FetchImpl;
  /** Reads the envelope's `status`: true for success, false for a refusal, null when it is not an envelope at all. */
  readStatus(status: unknown): boolean | null;
}

export function envelopeApi({ provider, label, secretKey, baseUrl, timeoutMs, fetchImpl, readStatus }: EnvelopeApiOptions) {
  const apiBase = baseUrl.replace(/\/+$/, '');

  function fail(kind: 'unavailable' | 'rejected', message: string, httpStatus: number | null = null, cause?: unknown): PaymentProviderError {
    return new PaymentProviderError(provider, kind, message, httpStatus, { cause });
  }

  function requireString(value: unknown, field: string): string {
    if (typeof value !== 'string' || value === '') throw fail('unavailable', `${label} answer lacks ${field}`);
    return value;
  }

  /** Throws 'rejected' carrying the provider's message unless the envelope says success. */
  function requireSuccess({ body, httpStatus }: Envelope, what: string): void {
    if (httpStatus < 400 && readStatus(body.status) === true) return;
    const message = typeof body.message === 'string' && body.message !== '' ? body.message : `${what} refused (HTTP ${httpStatus})`;
    throw fail('rejected', message, httpStatus);
  }

  return {
    fail,

    /** One API call; throws 'unavailable' unless the provider answered with an envelope below HTTP 500. */
    async call(method: 'GET' | 'POST', path: string, body?: unknown): Promise<Envelope> {
      const answer = await fetchJsonObject(
        fetchImpl,
        apiBase + path,
        {
          method,
          headers: {
            authorization: `Bearer ${secretKey}`,
            accept: 'application/json',
            ...(body === undefined ? {} : { 'content-type': 'application/json' }),
          },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        timeoutMs,
        fail,
        `${label} ${method} ${path}`,
      );
      if (readStatus(answer.body.status) === null) {
        throw fail(
          'unavailable',
          `${label} ${method} ${path} answered HTTP ${answer.httpStatus} without an envelope: ${excerpt(answer.text)}`,
          answer.httpStatus,
        );
      }
      return answer;
    },

    requireSuccess,

    /** The `data` of a successful envelope; a refusal becomes 'rejected' carrying the provider's message. */
    successData(answer: Envelope, what: string): Record<string, unknown> {
      requireSuccess(answer, what);
      if (!isRecord(answer.body.data)) throw fail('unavailable', `${what}: answer has no data object`, answer.httpStatus);
      return answer.body.data;
    },

    requireString,

    /** A checkout link must be an absolute http(s) URL before a browser is sent there. */
    requireCheckoutUrl(value: unknown, field: string): string {
      const url = requireString(value, field);
      if (!/^https?:\/\//i.test(url)) throw fail('unavailable', `${label} sent a checkout URL that is not http(s): ${url}`);
      return url;
    },

    /** The webhook body as JSON with an event name; an authentic body that is not one is refused. */
    parseEvent(rawBody: ArrayBuffer, eventName: (payload: Record<string, unknown>) => unknown): { event: string; data: Record<string, unknown> } {
      let payload: unknown;
      try {
        payload = JSON.parse(new TextDecoder().decode(rawBody));
      } catch (error) {
        throw fail('rejected', `${label} webhook body is not JSON`, null, error);
      }
      const event = isRecord(payload) ? eventName(payload) : undefined;
      if (!isRecord(payload) || typeof event !== 'string' || event === '') throw fail('rejected', `${label} webhook body has no event name`);
      return { event, data: isRecord(payload.data) ? payload.data : {} };
    },
  };
}
