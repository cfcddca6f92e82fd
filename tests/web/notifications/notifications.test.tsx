// The Settings screen saves which emails the user gets, the low-balance amount and the daily summary of
// orders placed through the API (a setting of its own, off by default, not among the emails); the bell shows
// the unread count and the latest events and clears them; the unsubscribe page turns one kind of
// email off from its link and says which.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import type { SessionUser } from '@/lib/session';
import { ADA, renderApp } from '../app';
import { jsonResponse, mockFetch, retype } from '../helpers';

const ALL_ON = {
  deposit_credited: true,
  order_completed: true,
  order_partial: true,
  order_canceled: true,
  refill_completed: true,
  ticket_answered: true,
  low_balance: true,
};

/** The bell's latest events, newest first. */
const EVENTS = [
  { id: 2, kind: 'order_completed', title: 'Order #12 completed', body: 'Your order for Likes is complete.', link: '/user/orders' },
  {
    id: 1,
    kind: 'deposit_credited',
    title: 'Deposit credited',
    body: 'NGN\u00a02,500.00 from your card payment was added to your wallet.',
    link: '/user/transactions',
  },
];

function server(unreadAtFirst = 2) {
  const saved: unknown[] = [];
  const read: unknown[] = [];
  let unread = unreadAtFirst;
  const fetch = mockFetch((url, init) => {
    if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { message: 'ok', data: ADA });
    if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: 2500 });
    if (url.includes('user/notification-settings') && init.method === 'PUT') {
      const body = JSON.parse(String(init.body));
      saved.push(body);
      return jsonResponse(200, {
        message: 'Settings saved',
        data: {
          email: { ...ALL_ON, ...body.email },
          lowBalance: body.lowBalance === null ? null : `${body.lowBalance}.00`,
          apiOrderDigest: body.apiOrderDigest ?? false,
        },
      });
    }
    if (url.includes('user/notification-settings')) return jsonResponse(200, { data: { email: ALL_ON, lowBalance: null, apiOrderDigest: false } });
    if (url.includes('user/notifications/read')) {
      read.push(JSON.parse(String(init.body)));
      unread = 0;
      return jsonResponse(200, { message: 'Marked as read', data: null });
    }
    if (url.includes('user/notifications')) {
      return jsonResponse(200, {
        data: {
          unread,
          items: EVENTS.map((event) => ({ ...event, createdAt: new Date().toISOString(), read: unread === 0 })),
        },
      });
    }
    if (url.includes('notifications/unsubscribe')) {
      const { token } = JSON.parse(String(init.body));
      return token === 'good'
        ? jsonResponse(200, { message: 'You will no longer get emails about orders completed.', data: { kind: 'order_completed' } })
        : jsonResponse(400, { message: 'This unsubscribe link is not valid.', error: 'Bad Request' });
    }
    return jsonResponse(200, { data: [] });
  });
  return { fetch, saved, read };
}

/** The app at `path` against the fake server, signed in as Ada unless `as` is null; returns what the server kept and a user to drive the screen. */
function openAt(path: string, as: SessionUser | null = ADA, unread?: number) {
  const served = server(unread);
  renderApp(path, as);
  return { ...served, user: userEvent.setup() };
}

describe('the Settings screen', () => {
  it('turns an email off and sets the low-balance amount, and refuses an amount that is not one', async () => {
    const { saved, user } = openAt('/user/settings');
    const completed = await screen.findByRole('switch', { name: 'Orders completed' });
    expect(completed.getAttribute('aria-checked')).toBe('true');
    await user.click(completed);
    expect(completed.getAttribute('aria-checked')).toBe('false');
    const amount = screen.getByLabelText('Alert me when my balance is under (NGN)');
    await user.type(amount, 'lots');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText('Low balance alert must be an amount in naira, like 1000')).toBeTruthy();
    expect(saved).toEqual([]);
    await retype(user, amount, '1000');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved).toEqual([{ email: { ...ALL_ON, order_completed: false }, lowBalance: '1000', apiOrderDigest: false }]));
  });

  it('turns on the daily summary of orders placed through the API, a setting apart from the emails switched per kind', async () => {
    const { saved, user } = openAt('/user/settings');
    const digest = await screen.findByRole('switch', { name: 'Orders placed through the API: a daily summary by email' });
    expect(digest.getAttribute('aria-checked')).toBe('false');
    expect(within(screen.getByRole('region', { name: 'Email me about' })).queryByRole('switch', { name: /through the API/ })).toBeNull();
    expect(screen.getByText(/never told one by one/)).toBeTruthy();
    await user.click(digest);
    expect(digest.getAttribute('aria-checked')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    await waitFor(() => expect(saved).toEqual([{ email: ALL_ON, lowBalance: null, apiOrderDigest: true }]));
    await waitFor(() =>
      expect(screen.getByRole('switch', { name: 'Orders placed through the API: a daily summary by email' }).getAttribute('aria-checked')).toBe('true'),
    );
  });
});

describe('the bell', () => {
  it('shows the unread count and the latest events, and marks them all read', async () => {
    const { read, user } = openAt('/user/orders');
    const bell = await screen.findByRole('button', { name: 'Notifications, 2 unread' });
    await user.click(bell);
    const panel = screen.getByRole('region', { name: 'Notifications' });
    expect(within(panel).getByText('Deposit credited')).toBeTruthy();
    expect(
      within(panel)
        .getByRole('link', { name: /Order #12 completed/ })
        .getAttribute('href'),
    ).toBe('/user/orders');
    expect(within(panel).getByRole('link', { name: 'Email settings' }).getAttribute('href')).toBe('/user/settings');
    await user.click(within(panel).getByRole('button', { name: 'Mark all as read' }));
    await waitFor(() => expect(screen.getByRole('button', { name: 'Notifications' })).toBeTruthy());
    expect(read).toEqual([{}]);
  });

  it('says 99+ past 99, as far as the shop counts (100)', async () => {
    openAt('/user/orders', ADA, 100);
    const bell = await screen.findByRole('button', { name: 'Notifications, 99+ unread' });
    expect(within(bell).getByText('99+')).toBeTruthy();
  });
});

describe('the unsubscribe link', () => {
  it('turns its kind of email off at once and says which', async () => {
    openAt('/unsubscribe?token=good', null);
    expect(await screen.findByText('You will no longer get emails about orders completed.')).toBeTruthy();
  });

  it('says when the link is not valid', async () => {
    openAt('/unsubscribe?token=forged', null);
    expect(await screen.findByText('This unsubscribe link is not valid.')).toBeTruthy();
  });
});
