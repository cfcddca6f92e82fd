// The transport shared by every outside-service adapter: one HTTP call with a
// deadline, answered as parsed JSON, or failed with a reason the adapter turns
// into its own error type.

export type ProviderErrorKind =
  /** Timeout, network failure, HTTP 5xx or an answer we cannot read: the outcome is unknown, a later retry may work. */
  | 'unavailable'
  /** The provider understood the request and refused it; its message says why. Retrying the same request will not help. */
  | 'rejected';

/** Base of the adapters' errors, so callers can branch on `kind` without knowing which provider failed. */
export class ProviderError extends Error {
  constructor(
    readonly kind: ProviderErrorKind,
    message: string,
    /** HTTP status of the answer, when there was one. */
    readonly httpStatus: number | null = null,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = new.target.name;
  }
}

export type FetchImpl = typeof fetch;

/**
 * The global fetch behind a wrapper: workerd throws "Illegal invocation" when
 * fetch is called as a method of some other object, as a stored option would be.
 */
export const globalFetch: FetchImpl = (input, init) => fetch(input, init);

export interface JsonAnswer {
  httpStatus: number;
  /** The parsed body; `undefined` when the body was not JSON. */
  body: unknown;
  /** The raw text, for messages when the body is not what was expected. */
  text: string;
}

/** Why no answer could be read at all. */
export class TransportFailure extends Error {
  constructor(
    readonly reason: 'timeout' | 'network',
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = 'TransportFailure';
  }
}

/**
 * Sends one request and reads the whole answer within `timeoutMs` (the deadline
 * covers the body too: a server that sends headers and then stalls still times out).
 * Throws TransportFailure when nothing could be read; any HTTP status is returned.
 */
export async function fetchJson(fetchImpl: FetchImpl, url: string, init: RequestInit, timeoutMs: number): Promise<JsonAnswer> {
  const signal = AbortSignal.timeout(timeoutMs);
  let text: string;
  let httpStatus: number;
  try {
    const response = await fetchImpl(url, { ...init, signal });
    httpStatus = response.status;
    text = await response.text();
  } catch (error) {
    if (signal.aborted) throw new TransportFailure('timeout', `No answer within ${timeoutMs} ms`, { cause: error });
    throw new TransportFailure('network', `Request failed: ${describe(error)}`, { cause: error });
  }
  return { httpStatus, body: parseJsonOrUndefined(text), text };
}

export type ProviderErrorFactory = (kind: ProviderErrorKind, message: string, httpStatus: number | null, cause?: unknown) => ProviderError;

/**
 * fetchJson for APIs whose every answer is a JSON object. A timeout, a network
 * failure, HTTP 5xx, HTTP 429 (slow down: the same request may work later) or a
 * body that is not a JSON object throws `fail('unavailable', ...)`; any other
 * answer is returned for the adapter to judge.
 */
export async function fetchJsonObject(
  fetchImpl: FetchImpl,
  url: string,
  init: RequestInit,
  timeoutMs: number,
  fail: ProviderErrorFactory,
  what: string,
): Promise<JsonAnswer & { body: Record<string, unknown> }> {
  let answer: JsonAnswer;
  try {
    answer = await fetchJson(fetchImpl, url, init, timeoutMs);
  } catch (error) {
    if (error instanceof TransportFailure) throw fail('unavailable', `${what}: ${error.message}`, null, error);
    throw error;
  }
  const { httpStatus, body, text } = answer;
  if (httpStatus >= 500 || httpStatus === 429 || !isRecord(body)) {
    throw fail('unavailable', `${what} answered HTTP ${httpStatus}: ${excerpt(text)}`, httpStatus);
  }
  return { httpStatus, body, text };
}

function parseJsonOrUndefined(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

/** A short, single-line excerpt of an unexpected body for error messages. */
export function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > 120 ? `${flat.slice(0, 120)}…` : flat;
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
