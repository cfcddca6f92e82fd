// The real route map with the real AuthProvider: session start, the access guard, the 404 page,
// logout, and tabs that follow their session when another tab changes it.

import { act, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import { decode, encode, getStoredUser, getToken, REFRESH_TOKEN_KEY, type SessionUser, setStoredUser, TOKEN_KEY, USER_KEY } from '@/lib/session';
import { loadToastify } from '@/lib/toast';
import { ADA, renderApp, renderRoutes } from '../app';
import { jsonResponse, mockFetch, sessionUser } from '../helpers';

const ROOT = sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', username: 'root', userType: 1 });
const BOLA = sessionUser({ id: 2, fullName: 'Bola Ade', email: 'bola@example.com', username: 'bola', userType: 2 });

/** Answers the calls the shell and screens make; `profile` decides who the server thinks we are. */
function server(profile: SessionUser | null, extra: (url: string, init: RequestInit) => Response | Promise<Response> | undefined = () => undefined) {
  return mockFetch((url, init) => {
    const custom = extra(url, init);
    if (custom) return custom;
    if (url.includes('user/getCurrentProfile'))
      return profile ? jsonResponse(200, { message: 'ok', data: profile }) : jsonResponse(401, { message: 'Unauthorized' });
    if (url.includes('auth/refresh')) return jsonResponse(401, { message: 'Unauthorized', error: 'Invalid or expired refresh token.' });
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: 2500 });
    if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'SMM Provider' });
    if (url.includes('services/categories')) return jsonResponse(200, { data: [] });
    if (url.includes('/services')) return jsonResponse(200, { data: [], page: 1, limit: 100, total: 0 });
    if (url.includes('user/orders')) return jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
    if (url.includes('auth/logout')) return jsonResponse(200, { message: 'Logged out' });
    return jsonResponse(404, {});
  });
}

describe('session storage', () => {
  it('keeps the user record encoded with a fixed-key cipher that decodes back', () => {
    setStoredUser(ADA);
    const raw = window.localStorage.getItem(USER_KEY)!;
    expect(raw).not.toContain('Ada');
    expect(decode(raw)).toEqual(ADA);
    expect(getStoredUser()).toEqual(ADA);
    expect(decode(encode({ naïve: 'ÿ ₦ 🚀' }))).toEqual({ naïve: 'ÿ ₦ 🚀' });
    expect(decode('not base64 at all %%%')).toBeNull();
  });
});

describe('routes', () => {
  it("shows '404 Not Found' for any other path", async () => {
    server(null);
    renderRoutes('/no/such/page');
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
  });

  it.each(['/auth', '/auth/'])("shows '404 Not Found' at %s, not an empty sign-in layout", async (path) => {
    server(null);
    renderRoutes(path);
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
  });

  it('serves Home at / and at /home', async () => {
    server(null);
    renderRoutes('/home');
    expect(await screen.findByRole('heading', { name: /Grow your social media/ })).toBeTruthy();
    expect(screen.getByText('© 2024 SMM Provider. All rights reserved.')).toBeTruthy();
  });
});

describe('session start', () => {
  it('a 401 on the profile clears user, token and refresh token silently', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'stale');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'stale-r');
    setStoredUser(ADA);
    const error = vi.spyOn(toast, 'error');
    const fetch = server(null);
    renderRoutes('/');
    await waitFor(() => expect(getStoredUser()).toBeNull());
    expect(getToken()).toBeNull();
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    // A toast asked for so far has reached react-toastify once its import has (web/src/lib/toast.ts).
    await loadToastify();
    expect(error).not.toHaveBeenCalled();
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('user/getCurrentProfile'))).toBe(true);
    expect(await screen.findAllByRole('link', { name: 'Sign In' })).not.toHaveLength(0);
  });

  it('a visitor with no stored token or refresh token is not asked for a profile; a leftover user record goes', async () => {
    setStoredUser(ADA);
    const fetch = server(ADA);
    renderRoutes('/');
    expect(await screen.findAllByRole('link', { name: 'Sign In' })).not.toHaveLength(0);
    expect(getStoredUser()).toBeNull();
    expect(fetch.mock.calls.map((c) => String(c[0])).filter((url) => url.includes('user/') || url.includes('auth/'))).toEqual([]);
  });

  it('other profile errors are only logged and the stored user stays', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server(null, (url) => (url.includes('getCurrentProfile') ? jsonResponse(500, {}) : undefined));
    renderRoutes('/');
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(getStoredUser()).toEqual(ADA);
    expect((await screen.findAllByRole('link', { name: /Dashboard/ })).length).toBeGreaterThan(0);
  });
});

describe('access guard', () => {
  it('sends a visitor to /auth/login and back to the requested page after login', async () => {
    const user = userEvent.setup();
    server(null, (url) =>
      url.includes('auth/login') ? jsonResponse(200, { accessToken: 'new-token', refreshToken: 'r', user: ADA, message: 'Welcome back!' }) : undefined,
    );
    const router = renderRoutes('/user/orders?page=1');
    await screen.findByRole('heading', { name: 'Welcome back' });
    expect(router.state.location.pathname).toBe('/auth/login');

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'secret');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user/orders'));
    expect(router.state.location.search).toBe('?page=1');
    expect(getToken()).toBe('new-token');
    expect(await screen.findByRole('heading', { name: 'Orders' })).toBeTruthy();
  });

  it.each([
    { who: 'an administrator', user: ROOT, opens: '/user/orders', area: '/user', landsOn: '/admin', sees: 'Admin Dashboard' },
    { who: 'a user', user: ADA, opens: '/admin/users', area: '/admin', landsOn: '/user', sees: 'Your Balance:' },
  ])('sends $who who opens $area to $landsOn', async ({ user, opens, landsOn, sees }) => {
    server(user);
    const router = renderApp(opens, user);
    await waitFor(() => expect(router.state.location.pathname).toBe(landsOn));
    expect(await screen.findByText(sees)).toBeTruthy();
  });
});

describe('access guard while the session check runs', () => {
  it("shows the spinner over the area's page, inert and busy, and hands the page over once the check has answered", async () => {
    let answer!: () => void;
    const checked = new Promise<void>((resolve) => (answer = resolve));
    server(ADA, (url) => (url.includes('user/getCurrentProfile') ? checked.then(() => jsonResponse(200, { message: 'ok', data: ADA })) : undefined));
    renderApp('/user/orders', ADA);
    const heading = await screen.findByRole('heading', { name: 'Orders', hidden: true });
    const page = heading.closest('[aria-busy]')!;
    expect(page.getAttribute('aria-busy')).toBe('true');
    expect(page.hasAttribute('inert')).toBe(true);
    expect(screen.getAllByRole('status').some((status) => status.textContent === 'Loading')).toBe(true);

    answer();
    await waitFor(() => expect(page.getAttribute('aria-busy')).toBe('false'));
    expect(page.hasAttribute('inert')).toBe(false);
    // The same page, not mounted again.
    expect(screen.getByRole('heading', { name: 'Orders' })).toBe(heading);
  });

  it("shows only the spinner to a stored record of the other area's type", async () => {
    server(ROOT, (url) => (url.includes('user/getCurrentProfile') ? new Promise<Response>(() => undefined) : undefined));
    renderApp('/user/orders', ROOT);
    expect((await screen.findByRole('status')).textContent).toBe('Loading');
    expect(screen.queryByRole('heading', { name: 'Orders', hidden: true })).toBeNull();
  });
});

describe('user shell and logout', () => {
  it('shows the balance, the tab row highlighted from the second segment, and the account menu', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    server(ADA);
    renderRoutes('/user/orders');
    expect(await screen.findByText('Your Balance:')).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/2,500\.00/)).toBeTruthy());
    expect(screen.getByRole('link', { name: 'Add fund' }).getAttribute('href')).toBe('/user/add-fund');
    const nav = screen.getByRole('navigation', { name: 'User area' });
    const current = nav.querySelector('[aria-current="page"]');
    expect(current?.textContent).toBe('Orders');

    await user.click(screen.getByRole('button', { name: 'Account menu, Ada Lovelace' }));
    const items = screen.getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['My Account', 'Profile', 'Favorites', 'Referrals', 'Settings', 'Logout']);
    expect(items[0].getAttribute('aria-disabled')).toBe('true');
  });

  it("logout toasts 'Logout successfully', calls auth/logout, clears the session and goes to /auth/login even if the call fails", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const success = vi.spyOn(toast, 'success');
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    const fetch = server(ADA, (url) => (url.includes('auth/logout') ? jsonResponse(500, {}) : undefined));
    const router = renderRoutes('/user/services');
    await user.click(await screen.findByRole('button', { name: 'Account menu, Ada Lovelace' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(success).toHaveBeenCalledWith('Logout successfully');
    const logoutCall = fetch.mock.calls.find((c) => String(c[0]).endsWith('auth/logout'));
    expect(logoutCall?.[1]?.method).toBe('POST');
    expect(getStoredUser()).toBeNull();
    expect(getToken()).toBeNull();
  });
});

/** What another tab does to the shared storage, and the event this tab then receives. */
function otherTab(change: () => void, key: string | null = USER_KEY) {
  act(() => {
    change();
    window.dispatchEvent(new StorageEvent('storage', { key, storageArea: window.localStorage }));
  });
}

const sentAccount = (call: unknown[]) => ((call[1] as RequestInit | undefined)?.headers as Record<string, string> | undefined)?.['x-account-id'];

describe('tabs and the account they show', () => {
  it('sends a signed-in person who opens the sign-in or sign-up page to their own area', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    server(ADA);
    const router = renderRoutes('/auth/login');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    await act(() => router.navigate('/auth/register'));
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
  });

  it('names the account the tab shows on each private call', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    const fetch = server(ADA);
    renderRoutes('/user/orders');
    await screen.findByText('Your Balance:');
    const profileCall = fetch.mock.calls.find((c) => String(c[0]).includes('user/getCurrentProfile'))!;
    expect(sentAccount(profileCall)).toBe('1');
    const publicCall = fetch.mock.calls.find((c) => String(c[0]).includes('settings/public'));
    expect(publicCall && sentAccount(publicCall)).toBeUndefined();
  });

  it('follows another tab that signs in as someone else at once, says so, and calls as them from then on', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'ada-token');
    setStoredUser(ADA);
    const info = vi.spyOn(toast, 'info');
    const fetch = server(ADA);
    const router = renderRoutes('/user/orders');
    await screen.findByText('Your Balance:');

    const before = fetch.mock.calls.length;
    otherTab(() => {
      window.localStorage.setItem(TOKEN_KEY, 'bola-token');
      window.localStorage.setItem(USER_KEY, encode(BOLA));
    });
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(info).toHaveBeenCalledWith('Signed in as Bola Ade in another tab.');
    // The top bar's balance is fetched again, for Bola.
    await waitFor(() => expect(fetch.mock.calls.slice(before).some((c) => String(c[0]).includes('user/getWalletBalance'))).toBe(true));
    for (const call of fetch.mock.calls.slice(before).filter((c) => String(c[0]).includes('user/'))) expect(sentAccount(call)).toBe('2');
  });

  it('follows another tab that signs out, to /auth/login, and says so', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    const info = vi.spyOn(toast, 'info');
    server(ADA);
    const router = renderRoutes('/user/orders');
    await screen.findByText('Your Balance:');
    otherTab(() => window.localStorage.clear(), null);
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(info).toHaveBeenCalledWith('Signed out in another tab.');
    expect(await screen.findByRole('heading', { name: 'Welcome back' })).toBeTruthy();
  });

  it('catches up when the server says the token in storage belongs to another account than the tab shows', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'ada-token');
    setStoredUser(ADA);
    const info = vi.spyOn(toast, 'info');
    // As the Worker answers a call whose token is Bola's from a tab that names Ada.
    server(ADA, (_url, init) => {
      const headers = init.headers as Record<string, string>;
      if (headers['x-account-id'] === '1' && headers.authorization === 'Bearer bola-token') {
        return jsonResponse(409, { message: 'This tab is signed in as a different account. Reload the page to continue.', error: 'Account Mismatch' });
      }
      return undefined;
    });
    const router = renderRoutes('/user/transactions');
    await screen.findByText('Your Balance:');
    // Another tab signed in as Bola, and this tab missed the event.
    window.localStorage.setItem(TOKEN_KEY, 'bola-token');
    window.localStorage.setItem(USER_KEY, encode(BOLA));
    await act(() => router.navigate('/user/orders'));
    await waitFor(() => expect(info).toHaveBeenCalledWith('Signed in as Bola Ade in another tab.'));
    expect(router.state.location.pathname).toBe('/user');
  });

  it("never writes a late profile answer over another tab's sign-in, and follows that sign-in", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'ada-token');
    setStoredUser(ADA);
    const info = vi.spyOn(toast, 'info');
    let answerProfile: ((response: Response) => void) | undefined;
    mockFetch((url) => (url.includes('getCurrentProfile') ? new Promise<Response>((resolve) => (answerProfile = resolve)) : jsonResponse(200, { data: [] })));
    renderRoutes('/');
    await waitFor(() => expect(answerProfile).toBeDefined());
    // Another tab signs in as Bola while Ada's profile is on its way (this tab misses the event).
    window.localStorage.setItem(TOKEN_KEY, 'bola-token');
    window.localStorage.setItem(USER_KEY, encode(BOLA));
    act(() => answerProfile!(jsonResponse(200, { data: ADA })));
    await waitFor(() => expect(info).toHaveBeenCalledWith('Signed in as Bola Ade in another tab.'));
    expect(getStoredUser()).toEqual(BOLA);
  });

  it("ends a suspended account's session with the server's words on the sign-in page", async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    window.localStorage.setItem(REFRESH_TOKEN_KEY, 'refresh');
    setStoredUser(ADA);
    server(null, (url) =>
      url.includes('auth/refresh') ? jsonResponse(403, { message: 'Your account is suspended. Contact support.', error: 'Account Suspended' }) : undefined,
    );
    const router = renderRoutes('/user/orders');
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect((await screen.findByRole('alert')).textContent).toContain('Your account is suspended. Contact support.');
    expect(getStoredUser()).toBeNull();
    expect(getToken()).toBeNull();
  });
});
