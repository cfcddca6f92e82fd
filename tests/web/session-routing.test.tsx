// The real route map with the real AuthProvider: session start, the access guard, the 404 page
// and logout.
import { describe, expect, it, vi } from 'vitest';
import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { toast } from 'react-toastify';
import { routes } from '@/routes';
import { decode, encode, getStoredUser, getToken, REFRESH_TOKEN_KEY, setStoredUser, TOKEN_KEY, USER_KEY, type SessionUser } from '@/lib/session';
import { jsonResponse, mockFetch, WithQuery } from './helpers';

const ADA: SessionUser = { id: 1, fullName: 'Ada Lovelace', email: 'ada@example.com', username: 'ada', userType: 2, wallet: { balance: '2500.00' } };
const ROOT: SessionUser = { id: 9, fullName: 'Root Admin', email: 'root@example.com', username: 'root', userType: 1 };

/** Answers the calls the shell and screens make; `profile` decides who the server thinks we are. */
function server(profile: SessionUser | null, extra: (url: string, init: RequestInit) => Response | undefined = () => undefined) {
  return mockFetch((url, init) => {
    const custom = extra(url, init);
    if (custom) return custom;
    if (url.includes('user/getCurrentProfile')) return profile ? jsonResponse(200, { message: 'ok', data: profile }) : jsonResponse(401, { message: 'Unauthorized' });
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

function renderAt(path: string) {
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <WithQuery>
      <RouterProvider router={router} />
    </WithQuery>,
  );
  return router;
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
    renderAt('/no/such/page');
    expect(await screen.findByText('404 Not Found')).toBeTruthy();
  });

  it('serves Home at / and at /home', async () => {
    server(null);
    renderAt('/home');
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
    renderAt('/');
    await waitFor(() => expect(getStoredUser()).toBeNull());
    expect(getToken()).toBeNull();
    expect(window.localStorage.getItem(REFRESH_TOKEN_KEY)).toBeNull();
    expect(error).not.toHaveBeenCalled();
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('user/getCurrentProfile'))).toBe(true);
    expect(await screen.findAllByRole('link', { name: 'Sign In' })).not.toHaveLength(0);
  });

  it('other profile errors are only logged and the stored user stays', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    const log = vi.spyOn(console, 'error').mockImplementation(() => undefined);
    server(null, (url) => (url.includes('getCurrentProfile') ? jsonResponse(500, {}) : undefined));
    renderAt('/');
    await waitFor(() => expect(log).toHaveBeenCalled());
    expect(getStoredUser()).toEqual(ADA);
    expect((await screen.findAllByRole('link', { name: /Dashboard/ })).length).toBeGreaterThan(0);
  });
});

describe('access guard', () => {
  it('sends a visitor to /auth/login and back to the requested page after login', async () => {
    const user = userEvent.setup();
    server(null, (url) => (url.includes('auth/login') ? jsonResponse(200, { accessToken: 'new-token', refreshToken: 'r', user: ADA, message: 'Welcome back!' }) : undefined));
    const router = renderAt('/user/orders?page=1');
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

  it('sends an administrator who opens /user to /admin', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ROOT);
    server(ROOT);
    const router = renderAt('/user/orders');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByText('Admin Dashboard')).toBeTruthy();
  });

  it('sends a user who opens /admin to /user', async () => {
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    server(ADA);
    const router = renderAt('/admin/users');
    await waitFor(() => expect(router.state.location.pathname).toBe('/user'));
    expect(await screen.findByText('Your Balance:')).toBeTruthy();
  });
});

describe('user shell and logout', () => {
  it('shows the balance, the tab row highlighted from the second segment, and the account menu', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    server(ADA);
    renderAt('/user/orders');
    expect(await screen.findByText('Your Balance:')).toBeTruthy();
    await waitFor(() => expect(screen.getByText(/2,500\.00/)).toBeTruthy());
    expect(screen.getByRole('link', { name: 'Add fund' }).getAttribute('href')).toBe('/user/add-fund');
    const nav = screen.getByRole('navigation', { name: 'User area' });
    const current = nav.querySelector('[aria-current="page"]');
    expect(current?.textContent).toBe('Orders');

    await user.click(screen.getByRole('button', { name: 'Account menu' }));
    const items = screen.getAllByRole('menuitem');
    expect(items.map((i) => i.textContent)).toEqual(['My Account', 'Profile', 'Logout']);
    expect(items[0].getAttribute('aria-disabled')).toBe('true');
  });

  it("logout toasts 'Logout successfully', calls auth/logout, clears the session and goes to /auth/login even if the call fails", async () => {
    const user = userEvent.setup();
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    const success = vi.spyOn(toast, 'success');
    window.localStorage.setItem(TOKEN_KEY, 'tok');
    setStoredUser(ADA);
    const fetch = server(ADA, (url) => (url.includes('auth/logout') ? jsonResponse(500, {}) : undefined));
    const router = renderAt('/user/services');
    await user.click(await screen.findByRole('button', { name: 'Account menu' }));
    await user.click(screen.getByRole('menuitem', { name: 'Logout' }));

    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));
    expect(success).toHaveBeenCalledWith('Logout successfully');
    const logoutCall = fetch.mock.calls.find((c) => String(c[0]).endsWith('auth/logout'));
    expect(logoutCall?.[1]?.method).toBe('POST');
    expect(getStoredUser()).toBeNull();
    expect(getToken()).toBeNull();
  });
});
