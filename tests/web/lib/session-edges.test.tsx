// A session that ends under the person (spec section 4): an expired or revoked one is cleared silently,
// by its three keys, and the guard leads to sign-in and back; a suspended account is told so on the
// sign-in page with ways to reach support that need no session.

import { act, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { startSessionRequests } from '@/app/earlyRequests';
import { AppRoutes } from '@/app/routes';
import { LoginForm } from '@/features/auth/LoginForm';
import { ApiError, REFRESH_TOKEN_ERROR } from '@/lib/api';
import { AuthContext } from '@/lib/authContext';
import { CURRENCY_STORAGE_KEY } from '@/lib/currency';
import { createQueryClient } from '@/lib/queryClient';
import { encode, REFRESH_TOKEN_KEY, TOKEN_KEY, USER_KEY } from '@/lib/session';
import { loadToastify } from '@/lib/toast';
import { ADA, renderRoutes, userAreaAnswer } from '../app';
import { authStub, jsonResponse, mockFetch, WithQuery } from '../helpers';

const SUSPENDED = { message: 'Your account is suspended. Contact support.', error: 'Account Suspended', code: 'account_suspended' };
const SUPPORT_EMAIL = 'help@boosthub.example';

/** Ada's session as a sign-in left it, with a display currency chosen beside it. */
function storeSession() {
  window.localStorage.setItem(TOKEN_KEY, 'expired-token');
  window.localStorage.setItem(REFRESH_TOKEN_KEY, 'revoked-refresh-token');
  window.localStorage.setItem(USER_KEY, encode(ADA));
  window.localStorage.setItem(CURRENCY_STORAGE_KEY, 'USD');
}

const sessionKeys = () => [TOKEN_KEY, REFRESH_TOKEN_KEY, USER_KEY].map((key) => window.localStorage.getItem(key));

/** The shop with Ada's session refused: every private call 401, and the refresh answered `refresh` (after `held`, for the profile check). */
function refusedSession(refresh: () => Response, held: Promise<unknown> = Promise.resolve()) {
  return mockFetch(async (url, init) => {
    if (url.includes('auth/refresh')) return refresh();
    if (url.includes('auth/login')) {
      const { email } = JSON.parse(String(init.body)) as { email: string };
      return email === ADA.email
        ? jsonResponse(200, { accessToken: 'new-token', refreshToken: 'new-refresh', user: ADA, message: 'Welcome back!' })
        : refresh();
    }
    if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'Boost Hub', contactEmail: SUPPORT_EMAIL });
    if (url.includes('user/getCurrentProfile')) {
      await held;
      return window.localStorage.getItem(TOKEN_KEY) === 'new-token' ? jsonResponse(200, { data: ADA }) : jsonResponse(401, {});
    }
    if (window.localStorage.getItem(TOKEN_KEY) === 'new-token') return userAreaAnswer(url) ?? jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
    if (url.includes('/api/v1/user/') || url.includes('/api/v1/favorites')) return jsonResponse(401, {});
    return userAreaAnswer(url) ?? jsonResponse(200, { data: [], page: 1, limit: 100, total: 0 });
  });
}

/** Keeps where the app is, for the test to read. */
function Where({ seen }: { seen: { path?: string } }) {
  const location = useLocation();
  seen.path = `${location.pathname}${location.search}`;
  return null;
}

/** The whole app at `path` with the shop's own query client (its handling of every query's failure included); returns where it is. */
function renderShop(path: string) {
  const seen: { path?: string } = {};
  render(
    <WithQuery client={createQueryClient()}>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <Where seen={seen} />
      </MemoryRouter>
    </WithQuery>,
  );
  return () => seen.path;
}

const refreshTokenRefused = () => jsonResponse(401, { message: REFRESH_TOKEN_ERROR, error: REFRESH_TOKEN_ERROR, code: 'refresh_token_invalid' });

describe('an expired or revoked session', () => {
  it("on a /user page whose calls meet it before the session check does: cleared silently, by the session's keys only, to sign-in and back", async () => {
    const user = userEvent.setup();
    const error = vi.spyOn(toast, 'error');
    storeSession();
    let release!: () => void;
    const fetch = refusedSession(refreshTokenRefused, new Promise<void>((resolve) => (release = resolve)));
    const where = renderShop('/user/orders?page=2');
    // The page's own calls (the orders, the balance) meet the dead refresh token first.
    await waitFor(() => expect(fetch.mock.calls.some(([url]) => String(url).includes('auth/refresh'))).toBe(true));
    release();

    await waitFor(() => expect(where()).toBe('/auth/login'));
    expect(sessionKeys()).toEqual([null, null, null]);
    expect(window.localStorage.getItem(CURRENCY_STORAGE_KEY)).toBe('USD');
    await loadToastify();
    expect(error).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).toBeNull();

    await user.type(await screen.findByLabelText('Email'), ADA.email);
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(where()).toBe('/user/orders?page=2'));
  });
});

describe('a suspended account', () => {
  it('is signed out and told so on the sign-in page, with the contact page and the shop email, which work signed out', async () => {
    const user = userEvent.setup();
    storeSession();
    refusedSession(() => jsonResponse(403, SUSPENDED));
    const router = renderRoutes('/user/orders');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Your account is suspended. Contact support.');
    expect(sessionKeys()).toEqual([null, null, null]);
    const mail = await within(notice).findByRole('link', { name: SUPPORT_EMAIL });
    expect(mail.getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);

    await user.click(within(notice).getByRole('link', { name: 'Contact support' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/contact-us'));
    expect(await screen.findByRole('heading', { name: 'Contact Us' })).toBeTruthy();
    expect((await screen.findAllByRole('link', { name: 'Sign In' })).length).toBeGreaterThan(0);
  });

  it('on a public page, is told so even when the check sent before React refused the session before anyone listened', async () => {
    storeSession();
    const fetch = refusedSession(() => jsonResponse(403, SUSPENDED));
    await act(async () => {
      startSessionRequests('/');
      await vi.waitFor(() => expect(sessionKeys()).toEqual([null, null, null]));
    });
    expect(fetch.mock.calls.some(([url]) => String(url).includes('auth/refresh'))).toBe(true);
    const router = renderRoutes('/');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect((await screen.findByRole('alert')).textContent).toContain('Your account is suspended. Contact support.');
  });

  it('trying to sign in again is told the same, with the ways to reach support', async () => {
    const user = userEvent.setup();
    const error = vi.spyOn(toast, 'error');
    mockFetch((url) => (url.includes('settings/public') ? jsonResponse(200, { siteName: 'Boost Hub', contactEmail: SUPPORT_EMAIL }) : jsonResponse(404, {})));
    const login = vi.fn().mockRejectedValue(new ApiError(403, SUSPENDED));
    render(
      <WithQuery>
        <AuthContext.Provider value={authStub({ login })}>
          <MemoryRouter initialEntries={['/auth/login']}>
            <LoginForm />
          </MemoryRouter>
        </AuthContext.Provider>
      </WithQuery>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));

    const notice = await screen.findByRole('alert');
    expect(notice.textContent).toContain('Your account is suspended. Contact support.');
    expect(within(notice).getByRole('link', { name: 'Contact support' }).getAttribute('href')).toBe('/contact-us');
    expect((await within(notice).findByRole('link', { name: SUPPORT_EMAIL })).getAttribute('href')).toBe(`mailto:${SUPPORT_EMAIL}`);
    await waitFor(() => expect(error).toHaveBeenCalledWith('Your account is suspended. Contact support.', expect.anything()));
  });
});
