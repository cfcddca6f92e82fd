// The one API client. Same-origin JSON API at /api/v1/ (served by the Worker).
//
// - Every call sends cookies (`credentials: 'include'`); there is no default timeout.
// - Private calls (`api.*`) send `Authorization: Bearer <TOKEN>`; public calls (`publicApi.*`) do not.
// - Silent refresh: shortly before the access token expires, or when a private call answers 401,
//   POST auth/refresh runs once (concurrent callers share it) and the call is retried once.
// - Private calls also name the account the tab shows (`X-Account-Id`); the Worker refuses one whose
//   token, shared by every tab through storage, belongs to someone else by now.
// - `getErrorMessage` / `handleApiError` are the spec's shared error handling (section 8).
// - A refresh token that is no longer good ends the session here, whichever call met it: the user, token
//   and refresh token go, silently (section 4), and the access guard leads to sign-in. A screen's error
//   handling never sees it as its own failure.

import { ACCOUNT_HEADER, ACCOUNT_MISMATCH_ERROR, ACCOUNT_SUSPENDED_ERROR } from '@schemas/session';
import type { AppType } from '@worker/app';
import { type ClientResponse, hc } from 'hono/client';
import { clearSession, followStoredSession, getRefreshToken, getTabUser, getToken, saveSession, tokenExpiry } from './session';
import { toast } from './toast';

export const API_BASE = '/api/v1';

export const REFRESH_TOKEN_ERROR = 'Invalid or expired refresh token.';
export const NETWORK_ERROR = 'Network Error. Please check your connection.';
export const STATUS_MESSAGES: Readonly<Record<number, string>> = {
  400: 'Bad Request. Please check your input.',
  401: 'Unauthorized. Please log in again.',
  403: 'Forbidden. You do not have permission.',
  404: 'Not Found. The requested resource was not found.',
  500: 'Internal Server Error. Please try again later.',
};

/** Refresh this many seconds before the access token's `exp`. */
const REFRESH_LEEWAY_SECONDS = 60;

/** A failed call. `status` is null when no response arrived (network failure). */
export class ApiError extends Error {
  readonly status: number | null;
  readonly data: unknown;
  constructor(status: number | null, data: unknown, message?: string) {
    super(message ?? (status === null ? NETWORK_ERROR : `Request failed with status code ${status}`));
    this.name = 'ApiError';
    this.status = status;
    this.data = data;
  }
}

export const isApiError = (e: unknown): e is ApiError => e instanceof ApiError;

function field(data: unknown, name: 'message' | 'error' | 'code'): string | null {
  if (data && typeof data === 'object' && name in data) {
    const v = (data as Record<string, unknown>)[name];
    if (typeof v === 'string' && v.trim() !== '') return v;
  }
  return null;
}

/**
 * The text to show for a failed call: the response's `message`, then its `error`, then the
 * status fallback, then (other statuses) the raw response data; no response -> network error.
 */
export function getErrorMessage(error: unknown): string {
  if (!isApiError(error)) {
    if (error instanceof Error && error.message) return error.message;
    return typeof error === 'string' && error ? error : 'Something went wrong. Please try again.';
  }
  if (error.status === null) return NETWORK_ERROR;
  const fromBody = field(error.data, 'message') ?? field(error.data, 'error');
  if (fromBody) return fromBody;
  const fallback = STATUS_MESSAGES[error.status];
  if (fallback) return fallback;
  const raw = error.data;
  if (typeof raw === 'string' && raw !== '') return raw;
  if (raw !== null && raw !== undefined && raw !== '') {
    try {
      return JSON.stringify(raw);
    } catch {
      /* fall through */
    }
  }
  return error.message;
}

const errorCode = (error: unknown) => (isApiError(error) ? field(error.data, 'error') : null);

/** The server refused a suspended account (sign-in or refresh). */
export const isAccountSuspended = (error: unknown) =>
  errorCode(error) === ACCOUNT_SUSPENDED_ERROR || (isApiError(error) && field(error.data, 'code') === 'account_suspended');

/** True when the server said the refresh token is no good (either field, or the chosen text). */
export function isRefreshTokenError(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return (
    field(error.data, 'error') === REFRESH_TOKEN_ERROR || field(error.data, 'message') === REFRESH_TOKEN_ERROR || getErrorMessage(error) === REFRESH_TOKEN_ERROR
  );
}

/** The call failed because the person is no longer signed in: their session ended, or their account is suspended. */
export const endsSession = (error: unknown) => isApiError(error) && (error.status === 401 || isAccountSuspended(error));

/**
 * The shared error handler: works out the message, shows it as an error toast (unless
 * `toast: false`) and returns it. 'Invalid or expired refresh token.' shows nothing: the session
 * already ended where the refresh failed (refreshSession), and a red toast of the server's words,
 * over a page that is going to sign-in anyway, would only alarm.
 */
export function handleApiError(error: unknown, options: { toast?: boolean } = {}): string {
  const message = getErrorMessage(error);
  if (options.toast === false || isRefreshTokenError(error)) return message;
  // Every call on its way when an account is suspended meets the same refusal: one id shows it once.
  if (isAccountSuspended(error)) toast.error(message, { toastId: message });
  else toast.error(message);
  return message;
}

// ---------------------------------------------------------------------------------------------
// Sending

interface CallOptions {
  auth: boolean;
  /** The account the tab showed when the call started, kept for its retry after a refresh. */
  account?: string;
}

/** A call as the typed client hands it over, so it can be sent again after a refresh. */
interface Call {
  url: string;
  init: RequestInit;
}

function parseBody(text: string): unknown {
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

/**
 * A successful answer, already read: a failed one is thrown as an ApiError before the caller sees it,
 * so `json()` here never meets an error body.
 */
function answered(res: Response, text: string): Response {
  const data = parseBody(text);
  return { ok: true, status: res.status, headers: res.headers, json: () => Promise.resolve(data), text: () => Promise.resolve(text) } as unknown as Response;
}

async function send(call: Call, opts: CallOptions): Promise<Response> {
  const headers: Record<string, string> = { accept: 'application/json', ...Object.fromEntries(new Headers(call.init.headers)) };
  // A temporary-token call (reset password) brings its own bearer and speaks for no signed-in account.
  const ownBearer = 'authorization' in headers;
  const token = opts.auth && !ownBearer ? getToken() : null;
  if (token) headers.authorization = `Bearer ${token}`;
  if (opts.account && !ownBearer) headers[ACCOUNT_HEADER.toLowerCase()] = opts.account;

  let res: Response;
  try {
    res = await fetch(call.url, { ...call.init, headers, credentials: 'include' });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(null, null);
  }
  const text = await res.text();
  if (!res.ok) throw new ApiError(res.status, parseBody(text));
  return answered(res, text);
}

// ---------------------------------------------------------------------------------------------
// Silent refresh

let refreshing: Promise<unknown> | null = null;

/** POST auth/refresh once for all concurrent callers; stores the new tokens and user. */
export function refreshSession(): Promise<unknown> {
  if (!refreshing) {
    const refreshToken = getRefreshToken();
    refreshing = read(publicClient.auth.refresh.$post({ json: refreshToken ? { refreshToken } : {} }))
      .then((data) => {
        // Another tab signed in while this refresh was under way: its session stays, and this tab follows it.
        if (getRefreshToken() !== refreshToken) followStoredSession();
        else saveSession({ accessToken: data.accessToken, refreshToken: data.refreshToken, user: data.user ?? null });
        return data;
      })
      .catch((error: unknown) => {
        // Whatever screen asked, the session ends here and the AuthProvider follows: the user, token and
        // refresh token go. Unless another tab signed in or refreshed meanwhile: its session is the one to keep.
        const ended = isAccountSuspended(error) ? 'suspended' : isRefreshTokenError(error) ? 'expired' : null;
        if (ended && getRefreshToken() !== refreshToken) followStoredSession();
        else if (ended) clearSession(ended);
        throw error;
      })
      .finally(() => {
        refreshing = null;
      });
  }
  return refreshing;
}

const hasCredentials = () => Boolean(getToken() || getRefreshToken());

function expiresSoon(): boolean {
  const exp = tokenExpiry(getToken());
  return exp !== null && exp - Date.now() / 1000 < REFRESH_LEEWAY_SECONDS;
}

async function sendPrivate(call: Call): Promise<Response> {
  const account = getTabUser()?.id;
  try {
    return await authorised(call, { auth: true, account: account === undefined ? undefined : String(account) });
  } catch (e) {
    // The token in storage is another account's: another tab signed in while this one missed it. Catch up.
    if (errorCode(e) === ACCOUNT_MISMATCH_ERROR) followStoredSession();
    throw e;
  }
}

async function authorised(call: Call, opts: CallOptions): Promise<Response> {
  let refreshError: unknown = null;
  let refreshed = false;
  if (hasCredentials() && expiresSoon()) {
    refreshed = true;
    try {
      await refreshSession();
    } catch (e) {
      refreshError = e;
    }
  }
  try {
    return await send(call, opts);
  } catch (e) {
    if (!(isApiError(e) && e.status === 401)) throw e;
    if (refreshed) throw isApiError(refreshError) && refreshError.status !== null ? refreshError : e;
    if (!hasCredentials()) throw e;
    try {
      await refreshSession();
    } catch (re) {
      // A dead refresh token is what screens must see (the session has ended, so they stay quiet);
      // a network failure while refreshing keeps the original 401.
      throw isApiError(re) && re.status !== null ? re : e;
    }
    return send(call, opts);
  }
}

// ---------------------------------------------------------------------------------------------
// The typed clients: request inputs and answers come from the Worker's routes (worker/app.ts).

/** Query values left empty by a form are not sent at all. */
function searchParams(query: Record<string, string | string[]>): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(query)) {
    for (const item of Array.isArray(value) ? value : [value]) {
      if (item !== undefined && item !== null && item !== '') params.append(key, String(item));
    }
  }
  return params;
}

const clientFor = (sendCall: (call: Call) => Promise<Response>) =>
  hc<AppType>(API_BASE, {
    buildSearchParams: searchParams,
    fetch: ((input: RequestInfo | URL, init?: RequestInit) => sendCall({ url: String(input), init: init ?? {} })) as typeof fetch,
  });

/** Private calls: `Authorization: Bearer <TOKEN>`, the tab's account, silent refresh. */
export const client = clientFor(sendPrivate);
/** Public calls: no Authorization header (cookies are still sent). */
export const publicClient = clientFor((call) => send(call, { auth: false }));

/** The parsed answer of a call that succeeded (a failed call throws an ApiError). */
export async function read<R extends ClientResponse<unknown, number, 'json'>>(call: Promise<R>): Promise<Awaited<ReturnType<R['json']>>> {
  return (await call).json() as Promise<Awaited<ReturnType<R['json']>>>;
}

/** The answer's text (CSV exports). */
export async function readText(call: Promise<ClientResponse<unknown>>): Promise<string> {
  return (await call).text();
}

/** Options for a temporary-token call: the caller's bearer, and the fields sent form-encoded (spec section 6). */
export const withTemporaryToken = (token: string, fields: Record<string, string>) => ({
  headers: { Authorization: `Bearer ${token}` },
  init: { body: new URLSearchParams(fields) },
});
