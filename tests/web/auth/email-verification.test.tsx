// Confirming the email address: the link's page posts its token once and says what happened (with the
// way on, signed in or not); signed-in pages carry a banner until the address is confirmed, whose
// "Send a new link" shows the server's answer where it was asked (sent, or when to try again).

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@/lib/session';
import { ADA, renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch, sessionUser } from '../helpers';

const UNCONFIRMED: SessionUser = { ...ADA, emailVerified: false };
const LINK_SPENT = 'This confirmation link is invalid or has expired. Sign in and ask for a new one.';
const SENT = 'We emailed a new confirmation link to ada@example.com.';
const TOO_SOON = 'Too many requests. Please try again in 52 seconds.';
const BANNER = 'Confirm your email address';

/** The shop's API with the profile answering `me` (as it is now: confirmed once the link worked) and these answers for the rest. */
function stubApi(profile: () => SessionUser | null, answers: Record<string, () => Response> = {}) {
  return mockFetch((url) => {
    for (const [path, answer] of Object.entries(answers)) if (url.includes(path)) return answer();
    const me = profile();
    if (url.includes('user/getCurrentProfile') && !me) return jsonResponse(401, { message: 'Unauthorized' });
    return userAreaAnswer(url, me ?? undefined) ?? jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
  });
}

const calls = (fetch: ReturnType<typeof mockFetch>, path: string) => fetch.mock.calls.filter(([url]) => String(url).includes(path));

describe('the confirmation link', () => {
  it("posts the link's token once and offers a visitor the way to sign in", async () => {
    const fetch = stubApi(() => null, { 'auth/verify-email': () => jsonResponse(200, { message: 'Email address confirmed' }) });
    renderApp('/verify-email?token=tok%2Fen-1', null);
    expect(await screen.findByRole('heading', { name: 'Email address confirmed' })).toBeTruthy();
    expect(calls(fetch, 'auth/verify-email')).toHaveLength(1);
    const [url, init] = calls(fetch, 'auth/verify-email')[0];
    expect(url).toBe('/api/v1/auth/verify-email');
    expect(JSON.parse(String(init?.body))).toEqual({ token: 'tok/en-1' });
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth/login');
  });

  it('takes someone signed in on to their dashboard, and the banner goes once the profile says confirmed', async () => {
    let confirmed = false;
    const fetch = stubApi(() => ({ ...ADA, emailVerified: confirmed }), {
      'auth/verify-email': () => {
        confirmed = true;
        return jsonResponse(200, { message: 'Email address confirmed' });
      },
    });
    renderApp('/verify-email?token=abc', UNCONFIRMED);
    expect(await screen.findByRole('heading', { name: 'Email address confirmed' })).toBeTruthy();
    const onward = await screen.findByRole('link', { name: 'Continue to your dashboard' });
    expect(onward.getAttribute('href')).toBe('/user');
    await userEvent.setup().click(onward);
    await screen.findByRole('navigation', { name: 'User area' });
    expect(screen.queryByRole('region', { name: BANNER })).toBeNull();
    expect(calls(fetch, 'auth/verify-email')).toHaveLength(1);
  });

  it('says why a spent link cannot be used, and how a visitor gets a new one', async () => {
    stubApi(() => null, { 'auth/verify-email': () => jsonResponse(400, { message: LINK_SPENT, error: 'Bad Request' }) });
    renderApp('/verify-email?token=used', null);
    expect(await screen.findByRole('heading', { name: 'This link cannot be used' })).toBeTruthy();
    expect(screen.getByText(LINK_SPENT)).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Sign in' }).getAttribute('href')).toBe('/auth/login');
  });

  it('lets someone signed in ask for a new link right there', async () => {
    const fetch = stubApi(() => UNCONFIRMED, {
      'auth/verify-email': () => jsonResponse(400, { message: LINK_SPENT, error: 'Bad Request' }),
      'auth/resend-verification': () => jsonResponse(200, { message: SENT }),
    });
    renderApp('/verify-email?token=expired', UNCONFIRMED);
    expect(await screen.findByText(LINK_SPENT)).toBeTruthy();
    const card = screen.getByRole('region', { name: 'This link cannot be used' });
    await userEvent.setup().click(await within(card).findByRole('button', { name: 'Send a new link' }));
    await waitFor(() => expect(within(card).getByRole('status').textContent).toBe(SENT));
    expect(calls(fetch, 'auth/resend-verification')).toHaveLength(1);
  });

  it('says a link without its token is cut short, and sends nothing', async () => {
    const fetch = stubApi(() => null);
    renderApp('/verify-email', null);
    expect(await screen.findByRole('heading', { name: 'This link cannot be used' })).toBeTruthy();
    expect(screen.getByText(/missing its token or has been cut short/)).toBeTruthy();
    expect(calls(fetch, 'auth/verify-email')).toHaveLength(0);
  });
});

describe('the banner asking to confirm the address', () => {
  it('shows on signed-in pages while the address is unconfirmed, and sends a new link', async () => {
    const fetch = stubApi(() => UNCONFIRMED, { 'auth/resend-verification': () => jsonResponse(200, { message: SENT }) });
    renderApp('/user/orders', UNCONFIRMED);
    const banner = await screen.findByRole('region', { name: BANNER });
    expect(banner.textContent).toContain('Confirm your email address: we sent a link to ada@example.com.');
    await userEvent.setup().click(within(banner).getByRole('button', { name: 'Send a new link' }));
    await waitFor(() => expect(within(banner).getByRole('status').textContent).toBe(SENT));
    const [url, init] = calls(fetch, 'auth/resend-verification')[0];
    expect(url).toBe('/api/v1/auth/resend-verification');
    expect(init?.method).toBe('POST');
  });

  it('says when to try again when asked too often', async () => {
    stubApi(() => UNCONFIRMED, { 'auth/resend-verification': () => jsonResponse(429, { message: TOO_SOON, error: 'Too Many Requests' }) });
    renderApp('/user/orders', UNCONFIRMED);
    const banner = await screen.findByRole('region', { name: BANNER });
    await userEvent.setup().click(within(banner).getByRole('button', { name: 'Send a new link' }));
    await waitFor(() => expect(within(banner).getByRole('status').textContent).toBe(TOO_SOON));
  });

  it('goes when the server answers that the address was confirmed meanwhile', async () => {
    let confirmed = false;
    stubApi(() => ({ ...ADA, emailVerified: confirmed }), {
      'auth/resend-verification': () => {
        confirmed = true;
        return jsonResponse(409, { message: 'Your email address is already confirmed.', error: 'Conflict' });
      },
    });
    renderApp('/user/orders', UNCONFIRMED);
    const banner = await screen.findByRole('region', { name: BANNER });
    await userEvent.setup().click(within(banner).getByRole('button', { name: 'Send a new link' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: BANNER })).toBeNull());
  });

  it('is absent once the address is confirmed', async () => {
    stubApi(() => ADA);
    renderApp('/user/orders', ADA);
    await screen.findByRole('navigation', { name: 'User area' });
    // The profile answered (the balance comes with the same session check): the banner has had its chance.
    await waitFor(() => expect(screen.getByText('Your Balance:')).toBeTruthy());
    expect(screen.queryByRole('region', { name: BANNER })).toBeNull();
  });

  it('shows in the admin area too', async () => {
    const admin = sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', userType: 1, emailVerified: false });
    stubApi(() => admin);
    renderApp('/admin/account-settings', admin);
    const banner = await screen.findByRole('region', { name: BANNER });
    expect(banner.textContent).toContain('we sent a link to root@example.com.');
  });

  it.each([
    ['/user/orders', ADA],
    ['/admin/account-settings', sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', userType: 1 })],
  ])('on %s stands in the bottom dock, after the page, so that its coming moves nothing on it', async (path, who) => {
    const unconfirmed = { ...who, emailVerified: false };
    stubApi(() => unconfirmed);
    renderApp(path, unconfirmed);
    const banner = await screen.findByRole('region', { name: BANNER });
    expect(banner.parentElement?.id).toBe('dock-notices');
    const main = screen.getByRole('main');
    expect(main.compareDocumentPosition(banner) & Node.DOCUMENT_POSITION_FOLLOWING).toBeTruthy();
    expect(main.contains(banner)).toBe(false);
  });
});
