import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { ApiError, client, getErrorMessage, handleApiError, NETWORK_ERROR, publicClient, REFRESH_TOKEN_ERROR, read, withTemporaryToken } from '@/lib/api';
import { encode, getRefreshToken, getToken, REFRESH_TOKEN_KEY, setStoredUser, TOKEN_KEY, USER_KEY } from '@/lib/session';
import { loadToastify } from '@/lib/toast';
import { jsonResponse, mockFetch, sessionUser } from '../helpers';

/** A JWT-shaped token whose payload carries `exp` (the signature is never checked client-side). */
const jwt = (expSeconds: number) => `h.${btoa(JSON.stringify({ exp: expSeconds })).replace(/=+$/, '')}.s`;
const inMinutes = (m: number) => Math.floor(Date.now() / 1000) + m * 60;

/** Runs a call through the real client against one canned answer and returns the handler's text. */
async function messageFor(status: number, body: unknown): Promise<string> {
  mockFetch(() => jsonResponse(status, body));
  const error = await read(publicClient.settings.public.$get()).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ApiError);
  return getErrorMessage(error);
}

describe('shared error handling: message field first, then error field', () => {
  it('shows the message field', async () => {
    expect(await messageFor(400, { message: 'Email already registered' })).toBe('Email already registered');
  });
  it('prefers message over error when both are present', async () => {
    expect(await messageFor(409, { message: 'Order exists', error: 'Conflict' })).toBe('Order exists');
  });
  it('falls back to the error field when message is missing or empty', async () => {
    expect(await messageFor(400, { error: 'Insufficient wallet balance' })).toBe('Insufficient wallet balance');
    expect(await messageFor(403, { message: '', error: 'Suspended' })).toBe('Suspended');
  });
});

describe('status fallbacks when the body has neither field', () => {
  it.each([
    [400, 'Bad Request. Please check your input.'],
    [401, 'Unauthorized. Please log in again.'],
    [403, 'Forbidden. You do not have permission.'],
    [404, 'Not Found. The requested resource was not found.'],
    [500, 'Internal Server Error. Please try again later.'],
  ])('%i -> %s', async (status, text) => {
    expect(await messageFor(status, {})).toBe(text);
    expect(await messageFor(status, '')).toBe(text);
  });

  it('other statuses show the raw response data', async () => {
    expect(await messageFor(502, '<html>Bad gateway</html>')).toBe('<html>Bad gateway</html>');
    expect(await messageFor(429, { retryAfter: 30 })).toBe('{"retryAfter":30}');
  });

  it('no response at all is a network error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(() => Promise.reject(new TypeError('Failed to fetch'))),
    );
    const error = await read(publicClient.services.$get({ query: {} })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).status).toBeNull();
    expect(getErrorMessage(error)).toBe(NETWORK_ERROR);
    expect(NETWORK_ERROR).toBe('Network Error. Please check your connection.');
  });
});

describe('handleApiError', () => {
  it('shows the message as an error toast and returns it', async () => {
    const spy = vi.spyOn(toast, 'error');
    expect(handleApiError(new ApiError(400, { message: 'Link is required' }))).toBe('Link is required');
    // The toast library loads on first use (web/src/lib/toast.ts).
    await vi.waitFor(() => expect(spy).toHaveBeenCalledWith('Link is required'));
  });

  it.each([
    ['error', { message: 'Unauthorized', error: REFRESH_TOKEN_ERROR }],
    ['message', { message: REFRESH_TOKEN_ERROR }],
  ])('shows nothing for "Invalid or expired refresh token." in the %s field, and leaves storage to the client that met it', async (_field, body) => {
    const spy = vi.spyOn(toast, 'error');
    window.localStorage.setItem(TOKEN_KEY, 'abc');
    handleApiError(new ApiError(401, body));
    // A toast the handler asked for would reach the library once it has loaded.
    await loadToastify();
    expect(spy).not.toHaveBeenCalled();
    expect(getToken()).toBe('abc');
  });
});

describe('the client', () => {
  it('calls /api/v1/ relative, sends cookies, and only private calls send the bearer token', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok-1');
    const fetch = mockFetch(() => jsonResponse(200, { ok: true }));
    await read(client.user.orders.$get({ query: { page: '2', status: 'Completed', search: '' } }));
    await read(publicClient.settings.public.$get());
    const [privUrl, privInit] = fetch.mock.calls[0];
    const [pubUrl, pubInit] = fetch.mock.calls[1];
    expect(privUrl).toBe('/api/v1/user/orders?page=2&status=Completed');
    expect(privInit?.credentials).toBe('include');
    expect((privInit!.headers as Record<string, string>).authorization).toBe('Bearer tok-1');
    expect(pubUrl).toBe('/api/v1/settings/public');
    expect(pubInit?.credentials).toBe('include');
    expect((pubInit!.headers as Record<string, string>).authorization).toBeUndefined();
  });

  it('sends JSON bodies and returns the parsed answer', async () => {
    const fetch = mockFetch(() => jsonResponse(201, { message: 'Order placed', data: { id: 7 } }));
    const res = (await read(client.user.orders.$post({ json: { serviceId: 1 } as never }, { headers: { 'Idempotency-Key': 'k1' } }))) as unknown as {
      data: { id: number };
    };
    expect(res.data.id).toBe(7);
    const init = fetch.mock.calls[0][1]!;
    expect(init.method).toBe('POST');
    expect(init.body).toBe('{"serviceId":1}');
    expect((init.headers as Record<string, string>)['content-type']).toBe('application/json');
    expect((init.headers as Record<string, string>)['idempotency-key']).toBe('k1');
  });

  it('posts form-encoded with a caller-supplied bearer token (reset password)', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'session-token');
    const fetch = mockFetch(() => jsonResponse(200, { message: 'ok' }));
    const fields = { password: 'n3w pass&' };
    await read(publicClient.auth['reset-password'].$post({ form: fields } as never, withTemporaryToken('temp-token', fields)));
    const init = fetch.mock.calls[0][1]!;
    // Sent as URLSearchParams: fetch labels it application/x-www-form-urlencoded.
    expect(init.body).toBeInstanceOf(URLSearchParams);
    expect(String(init.body)).toBe('password=n3w+pass%26');
    expect((init.headers as Record<string, string>).authorization).toBe('Bearer temp-token');
  });
});

describe('silent refresh', () => {
  it('on a 401 refreshes once, stores the new tokens and retries the call', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'old');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'r-old');
    const fetch = mockFetch((url, init) => {
      if (url.endsWith('auth/refresh')) return jsonResponse(200, { accessToken: 'new', refreshToken: 'r-new' });
      const auth = (init.headers as Record<string, string>).authorization;
      return auth === 'Bearer new' ? jsonResponse(200, { walletBalance: 12 }) : jsonResponse(401, { message: 'Unauthorized' });
    });
    const res = await read(client.user.getWalletBalance.$get());
    expect(res.walletBalance).toBe(12);
    expect(fetch.mock.calls.map((c) => String(c[0]))).toEqual(['/api/v1/user/getWalletBalance', '/api/v1/auth/refresh', '/api/v1/user/getWalletBalance']);
    expect(JSON.parse(String(fetch.mock.calls[1][1]!.body))).toEqual({ refreshToken: 'r-old' });
    expect(getToken()).toBe('new');
    expect(getRefreshToken()).toBe('r-new');
  });

  it('concurrent 401s share one refresh call', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'old');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'r');
    let refreshes = 0;
    mockFetch(async (url, init) => {
      if (url.endsWith('auth/refresh')) {
        refreshes += 1;
        await new Promise((r) => setTimeout(r, 5));
        return jsonResponse(200, { accessToken: 'new' });
      }
      return (init.headers as Record<string, string>).authorization === 'Bearer new' ? jsonResponse(200, { ok: url }) : jsonResponse(401, {});
    });
    const results = await Promise.all([read(client.user.getMai.$get()), read(client.user.getWalletBalance.$get()), read(client.user.getCurrentProfile.$get())]);
    expect(results).toHaveLength(3);
    expect(refreshes).toBe(1);
  });

  it('a dead refresh token ends the session (user, token, refresh token, nothing else) and surfaces as the refresh error', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'old');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'dead');
    window.localStorage.setItem(USER_KEY, encode(sessionUser({ id: 4, fullName: 'Ngozi', email: 'ngozi@example.com', userType: 2 })));
    window.localStorage.setItem('CURRENCY', 'USD');
    mockFetch((url) => (url.endsWith('auth/refresh') ? jsonResponse(401, { message: 'Unauthorized', error: REFRESH_TOKEN_ERROR }) : jsonResponse(401, {})));
    const error = await read(client.user.orders.$get({ query: {} })).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(401);
    expect(((error as ApiError).data as { error: string }).error).toBe(REFRESH_TOKEN_ERROR);
    expect([TOKEN_KEY, REFRESH_TOKEN_KEY, USER_KEY].map((key) => window.localStorage.getItem(key))).toEqual([null, null, null]);
    expect(window.localStorage.getItem('CURRENCY')).toBe('USD');
  });

  it("keeps another tab's session that arrived while a dead refresh token was refused", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'old');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'dead');
    mockFetch((url) => {
      if (!url.endsWith('auth/refresh')) return jsonResponse(401, {});
      window.localStorage.setItem(REFRESH_TOKEN_KEY, 'signed-in-elsewhere');
      return jsonResponse(401, { message: 'Unauthorized', error: REFRESH_TOKEN_ERROR });
    });
    await read(client.user.orders.$get({ query: {} })).catch(() => undefined);
    expect(getRefreshToken()).toBe('signed-in-elsewhere');
  });

  it('refreshes before the call when the access token expires within a minute', async () => {
    window.localStorage.setItem(TOKEN_KEY, jwt(inMinutes(0.5)));
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'r');
    const fresh = jwt(inMinutes(15));
    const fetch = mockFetch((url) => (url.endsWith('auth/refresh') ? jsonResponse(200, { accessToken: fresh }) : jsonResponse(200, {})));
    await read(client.user.getMai.$get());
    expect(fetch.mock.calls.map((c) => String(c[0]))).toEqual(['/api/v1/auth/refresh', '/api/v1/user/getMai']);
    expect((fetch.mock.calls[1][1]!.headers as Record<string, string>).authorization).toBe(`Bearer ${fresh}`);
  });

  it('does not refresh a token with plenty of time left, nor for visitors without credentials', async () => {
    window.localStorage.setItem(TOKEN_KEY, jwt(inMinutes(10)));
    const fetch = mockFetch(() => jsonResponse(200, {}));
    await read(client.user.getMai.$get());
    expect(fetch).toHaveBeenCalledTimes(1);

    window.localStorage.clear();
    const fetch2 = mockFetch(() => jsonResponse(401, { message: 'Unauthorized' }));
    await expect(read(client.user.getCurrentProfile.$get())).rejects.toBeInstanceOf(ApiError);
    expect(fetch2).toHaveBeenCalledTimes(1);
  });
});

describe('the account a tab shows', () => {
  const account = (call: unknown[]) => ((call[1] as RequestInit).headers as Record<string, string>)['x-account-id'];
  const ADA = sessionUser({ id: 1, fullName: 'Ada', email: 'ada@example.com', userType: 2 });
  const BOLA = sessionUser({ id: 2, fullName: 'Bola', email: 'bola@example.com', userType: 2 });

  it("is named on private calls from the tab's memory, not from storage another tab may have rewritten", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    window.localStorage.setItem(USER_KEY, encode(BOLA));
    const fetch = mockFetch(() => jsonResponse(200, {}));
    await read(client.user.orders.$get({ query: {} }));
    await read(publicClient.services.$get({ query: {} }));
    expect(account(fetch.mock.calls[0])).toBe('1');
    expect(account(fetch.mock.calls[1])).toBeUndefined();
  });

  it('stays the same for the retry after a refresh that turned out to be for someone else', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'old');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'bola-refresh');
    setStoredUser(ADA);
    const fetch = mockFetch((url, init) => {
      if (url.endsWith('auth/refresh')) return jsonResponse(200, { accessToken: 'bola-token', user: BOLA });
      const headers = init.headers as Record<string, string>;
      if (headers.authorization !== 'Bearer bola-token') return jsonResponse(401, {});
      return headers['x-account-id'] === '2'
        ? jsonResponse(200, {})
        : jsonResponse(409, { message: 'This tab is signed in as a different account. Reload the page to continue.', error: 'Account Mismatch' });
    });
    const error = await read(client.user.orders.$post({ json: { serviceId: 1 } as never })).catch((e: unknown) => e);
    expect((error as ApiError).status).toBe(409);
    expect(fetch.mock.calls.map(account)).toEqual(['1', undefined, '1']);
  });
});
