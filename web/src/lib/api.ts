// The one API client. Same-origin JSON API at /api/v1/ (served by the Worker).
//
// - Every call sends cookies (`credentials: 'include'`); there is no default timeout.
// - Private calls (`api.*`) send `Authorization: Bearer <TOKEN>`; public calls (`publicApi.*`) do not.
// - Silent refresh: shortly before the access token expires, or when a private call answers 401,
//   POST auth/refresh runs once (concurrent callers share it) and the call is retried once.
// - Private calls also name the account the tab shows (`X-Account-Id`); the Worker refuses one whose
//   token, shared by every tab through storage, belongs to someone else by now.
// - `getErrorMessage` / `handleApiError` are the spec's shared error handling (section 8).
import { ACCOUNT_HEADER, ACCOUNT_MISMATCH_ERROR, ACCOUNT_SUSPENDED_ERROR } from '@schemas/session';
import {
  clearLocalStorage,
  clearSession,
  followStoredSession,
  getRefreshToken,
  getTabUser,
  getToken,
  saveSession,
  tokenExpiry,
  type SessionUser,
} from './session';
import { toast } from './toast';

export const API_BASE = '/api/v1/';

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

function field(data: unknown, name: 'message' | 'error'): string | null {
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
export const isAccountSuspended = (error: unknown) => errorCode(error) === ACCOUNT_SUSPENDED_ERROR;

/** True when the server said the refresh token is no good (either field, or the chosen text). */
export function isRefreshTokenError(error: unknown): boolean {
  if (!isApiError(error)) return false;
  return (
    field(error.data, 'error') === REFRESH_TOKEN_ERROR ||
    field(error.data, 'message') === REFRESH_TOKEN_ERROR ||
    getErrorMessage(error) === REFRESH_TOKEN_ERROR
  );
}

// Where the client sends people when their session is gone. main.tsx plugs in the router.
let navigateTo: (path: string) => void = (path) => window.location.assign(path);
export function setNavigator(fn: (path: string) => void): void {
  navigateTo = fn;
}

/**
 * The shared error handler: works out the message, shows it as an error toast (unless
 * `toast: false`) and returns it. On 'Invalid or expired refresh token.' local storage is
 * cleared and the user goes to /auth/login.
 */
export function handleApiError(error: unknown, options: { toast?: boolean } = {}): string {
  const message = getErrorMessage(error);
  if (options.toast !== false) {
    // The session's own toast says the same when an account is suspended: one id shows it once.
    if (isAccountSuspended(error)) toast.error(message, { toastId: message });
    else toast.error(message);
  }
  if (isRefreshTokenError(error)) {
    clearLocalStorage();
    navigateTo('/auth/login');
  }
  return message;
}

// ---------------------------------------------------------------------------------------------

type QueryValue = string | number | boolean | null | undefined;

export interface RequestOptions {
  /** Query-string parameters; null/undefined/'' are left out. */
  query?: Record<string, QueryValue>;
  /** JSON body. */
  body?: unknown;
  /** Multipart body. */
  formData?: FormData;
  /** Form-encoded body. */
  form?: Record<string, string> | URLSearchParams;
  /** A caller-supplied bearer token (temporary-token calls such as reset password). */
  bearer?: string;
  headers?: Record<string, string>;
  signal?: AbortSignal;
}

interface InternalOptions extends RequestOptions {
  auth: boolean;
  /** The account the tab showed when the call started, kept for its retry after a refresh. */
  account?: string;
}

export function buildUrl(path: string, query?: Record<string, QueryValue>): string {
  const clean = path.replace(/^\/+/, '');
  const params = new URLSearchParams();
  if (query) {
    for (const [k, v] of Object.entries(query)) {
      if (v === undefined || v === null || v === '') continue;
      params.append(k, String(v));
    }
  }
  const qs = params.toString();
  return `${API_BASE}${clean}${qs ? `?${qs}` : ''}`;
}

async function readBody(res: Response): Promise<unknown> {
  const text = await res.text();
  if (text === '') return null;
  try {
    return JSON.parse(text);
  } catch {
    return text;
  }
}

async function send(method: string, path: string, opts: InternalOptions): Promise<unknown> {
  const headers: Record<string, string> = { Accept: 'application/json', ...opts.headers };
  let body: BodyInit | undefined;
  if (opts.formData) {
    body = opts.formData; // the browser sets the multipart boundary
  } else if (opts.form) {
    body = opts.form instanceof URLSearchParams ? opts.form : new URLSearchParams(opts.form);
    headers['Content-Type'] = 'application/x-www-form-urlencoded';
  } else if (opts.body !== undefined) {
    body = JSON.stringify(opts.body);
    headers['Content-Type'] = 'application/json';
  }
  const bearer = opts.bearer ?? (opts.auth ? getToken() : null);
  if (bearer) headers.Authorization = `Bearer ${bearer}`;
  if (opts.account && !opts.bearer) headers[ACCOUNT_HEADER] = opts.account;

  let res: Response;
  try {
    res = await fetch(buildUrl(path, opts.query), {
      method,
      headers,
      body,
      credentials: 'include',
      signal: opts.signal,
    });
  } catch (e) {
    if (e instanceof DOMException && e.name === 'AbortError') throw e;
    throw new ApiError(null, null);
  }
  const data = await readBody(res);
  if (!res.ok) throw new ApiError(res.status, data);
  return data;
}

// ---------------------------------------------------------------------------------------------
// Silent refresh

export interface RefreshResponse {
  accessToken: string;
  refreshToken?: string;
  user?: SessionUser;
}

let refreshing: Promise<RefreshResponse> | null = null;

/** POST auth/refresh once for all concurrent callers; stores the new tokens and user. */
export function refreshSession(): Promise<RefreshResponse> {
  if (!refreshing) {
    const refreshToken = getRefreshToken();
    refreshing = (send('POST', 'auth/refresh', { auth: false, body: refreshToken ? { refreshToken } : {} }) as Promise<RefreshResponse>)
      .then((data) => {
        // Another tab signed in while this refresh was under way: its session stays, and this tab follows it.
        if (getRefreshToken() !== refreshToken) followStoredSession();
        else saveSession({ accessToken: data.accessToken, refreshToken: data.refreshToken, user: data.user ?? null });
        return data;
      })
      .catch((error: unknown) => {
        // Whatever screen asked, a suspended account's session ends here and the AuthProvider says why.
        if (isAccountSuspended(error)) clearSession('suspended');
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

async function request<T>(method: string, path: string, options: InternalOptions): Promise<T> {
  if (!options.auth || options.bearer) return (await send(method, path, options)) as T;
  const account = getTabUser()?.id;
  try {
    return await authorised<T>(method, path, { ...options, account: account === undefined ? undefined : String(account) });
  } catch (e) {
    // The token in storage is another account's: another tab signed in while this one missed it. Catch up.
    if (errorCode(e) === ACCOUNT_MISMATCH_ERROR) followStoredSession();
    throw e;
  }
}

async function authorised<T>(method: string, path: string, opts: InternalOptions): Promise<T> {
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
    return (await send(method, path, opts)) as T;
  } catch (e) {
    if (!(isApiError(e) && e.status === 401)) throw e;
    if (refreshed) throw isApiError(refreshError) && refreshError.status !== null ? refreshError : e;
    if (!hasCredentials()) throw e;
    try {
      await refreshSession();
    } catch (re) {
      // A dead refresh token is what screens must see (the shared handler logs the user out);
      // a network failure while refreshing keeps the original 401.
      throw isApiError(re) && re.status !== null ? re : e;
    }
    return (await send(method, path, opts)) as T;
  }
}

function client(auth: boolean) {
  return {
    get: <T>(path: string, opts: RequestOptions = {}) => request<T>('GET', path, { ...opts, auth }),
    post: <T>(path: string, body?: unknown, opts: RequestOptions = {}) => request<T>('POST', path, { ...opts, body, auth }),
    put: <T>(path: string, body?: unknown, opts: RequestOptions = {}) => request<T>('PUT', path, { ...opts, body, auth }),
    patch: <T>(path: string, body?: unknown, opts: RequestOptions = {}) => request<T>('PATCH', path, { ...opts, body, auth }),
    delete: <T>(path: string, opts: RequestOptions = {}) => request<T>('DELETE', path, { ...opts, auth }),
    /** Multipart POST. */
    postMultipart: <T>(path: string, formData: FormData, opts: RequestOptions = {}) =>
      request<T>('POST', path, { ...opts, formData, auth }),
  };
}

/** Private calls: `Authorization: Bearer <TOKEN>`, silent refresh. */
export const api = {
  ...client(true),
  /** Import: multipart POST with one `user_file` field per file. */
  importFiles: <T>(path: string, files: Iterable<File>, opts: RequestOptions = {}) => {
    const formData = new FormData();
    for (const f of files) formData.append('user_file', f);
    return request<T>('POST', path, { ...opts, formData, auth: true });
  },
};

/** Public calls: no Authorization header (cookies are still sent). */
export const publicApi = {
  ...client(false),
  /** Form-encoded POST with a caller-supplied bearer token (temporary-token calls). */
  postFormWithToken: <T>(path: string, fields: Record<string, string>, token: string, opts: RequestOptions = {}) =>
    request<T>('POST', path, { ...opts, form: fields, bearer: token, auth: false }),
};
