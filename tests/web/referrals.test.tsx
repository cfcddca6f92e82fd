// A visitor who arrives through a referral link keeps the code while browsing and sends it with the
// sign-up; the Referrals screen shows the link to copy, the counts and the people referred.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { ADA, renderApp } from './app';
import { jsonResponse, mockFetch } from './helpers';

const SUMMARY = {
  enabled: true,
  ratePercent: '5.00',
  code: 'ABCD2345',
  link: 'https://shop.test/auth/register?ref=ABCD2345',
  signUps: 2,
  depositsCredited: 3,
  earnings: '150.00',
  referred: [
    { username: 'bola', joinedAt: '2026-11-20T10:00:00Z', voided: false, deposits: 3, earned: '150.00' },
    { username: 'bola2', joinedAt: '2026-11-21T10:00:00Z', voided: true, deposits: 0, earned: '0.00' },
  ],
};

describe('a referral link', () => {
  it('is remembered while the visitor browses, sent with the sign-up, then forgotten', async () => {
    const user = userEvent.setup();
    const registered: unknown[] = [];
    mockFetch((url, init) => {
      if (url.includes('auth/register')) {
        registered.push(JSON.parse(String(init.body)));
        return jsonResponse(201, { message: 'User registered successfully' });
      }
      if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'Boost Hub' });
      if (url.includes('/user/')) return jsonResponse(401, { message: 'Unauthorized', error: 'Unauthorized' });
      return jsonResponse(200, { data: [] });
    });
    const router = renderApp('/services?ref=abcd2345', null);
    await waitFor(() => expect(window.localStorage.getItem('referralCode')).toBe('ABCD2345'));
    await router.navigate('/auth/register');
    const form = await screen.findByRole('form', { name: 'Create account' });
    await user.type(within(form).getByLabelText('Full Name'), 'Bola Ade');
    await user.type(within(form).getByLabelText('Email Address'), 'bola@example.com');
    await user.type(within(form).getByLabelText('Password'), 'lantern-okra-789');
    await user.type(within(form).getByLabelText('Confirm Password'), 'lantern-okra-789');
    await user.click(within(form).getByRole('button', { name: 'Sign Up' }));
    await waitFor(() => expect(registered).toEqual([expect.objectContaining({ email: 'bola@example.com', referralCode: 'ABCD2345' })]));
    expect(window.localStorage.getItem('referralCode')).toBeNull();
  });

  it('that is not a code is not remembered', async () => {
    mockFetch((url) => (url.includes('/user/') ? jsonResponse(401, { message: 'Unauthorized', error: 'Unauthorized' }) : jsonResponse(200, { data: [] })));
    renderApp('/auth/register?ref=<b>x</b>', null);
    await screen.findByRole('form', { name: 'Create account' });
    expect(window.localStorage.getItem('referralCode')).toBeNull();
  });
});

describe('the Referrals screen', () => {
  it('shows the link to copy, the counts, the earnings and who signed up, with the voided one marked', async () => {
    mockFetch((url) => {
      if (url.includes('user/referrals')) return jsonResponse(200, { data: SUMMARY });
      if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { message: 'ok', data: ADA });
      if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: 2500 });
      return jsonResponse(200, { data: [] });
    });
    renderApp('/user/referrals');
    const linkSection = await screen.findByRole('region', { name: 'Your referral link' });
    expect(await within(linkSection).findByText(SUMMARY.link)).toBeTruthy();
    expect(within(linkSection).getByRole('button', { name: 'Copy referral link' })).toBeTruthy();
    expect(screen.getByText(/earn 5% of every deposit they make/)).toBeTruthy();
    expect(screen.getByText('Sign-ups').closest('.card')?.textContent).toContain('2');
    expect(screen.getByText('Earnings').closest('.card')?.textContent).toMatch(/150\.00/);
    const people = screen.getByRole('region', { name: 'People you referred' });
    expect(within(people).getAllByText('bola').length).toBeGreaterThan(0);
    expect(within(people).getAllByText('No longer earning').length).toBeGreaterThan(0);
  });
});
