// A visitor who arrives through a referral link keeps the code while browsing and sends it with the
// sign-up; the Referrals screen shows the link to copy, the rule, the counts, what is earned and what is
// still held, and the people referred by display name; administrators set the rate, the hold and the cap.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import AdminReferralsPage from '@/features/admin/referrals/AdminReferralsPage';
import { ADA, renderApp } from '../app';
import { describedText, jsonResponse, mockFetch, renderScreen, retype } from '../helpers';

const SUMMARY = {
  enabled: true,
  ratePercent: '5.00',
  holdDays: 14,
  capPerReferred: '5000.00',
  code: 'ABCD2345',
  link: 'https://shop.test/auth/register?ref=ABCD2345',
  signUps: 2,
  depositsCredited: 3,
  earnings: '150.00',
  pending: '75.00',
  referred: [
    { displayName: 'Bola A.', joinedAt: '2026-11-20T10:00:00Z', voided: false, deposits: 3, earned: '150.00', pending: '75.00' },
    { displayName: 'Bola A.', joinedAt: '2026-11-21T10:00:00Z', voided: true, deposits: 0, earned: '0.00', pending: '0.00' },
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
  const serve = (summary: object) =>
    mockFetch((url) => {
      if (url.includes('user/referrals')) return jsonResponse(200, { data: summary });
      if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { message: 'ok', data: ADA });
      if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: 2500 });
      if (url.includes('tickets/unread')) return jsonResponse(200, { data: { unread: 0 } });
      return jsonResponse(200, { data: [] });
    });

  it('shows the link to copy, the rule, the counts, the earnings with what is pending, and who signed up, with the voided one marked', async () => {
    serve(SUMMARY);
    renderApp('/user/referrals');
    const linkSection = await screen.findByRole('region', { name: 'Your referral link' });
    expect(await within(linkSection).findByText(SUMMARY.link)).toBeTruthy();
    expect(within(linkSection).getByRole('button', { name: 'Copy referral link' })).toBeTruthy();
    expect(screen.getByText(/earn 5% of every deposit they make/)).toBeTruthy();
    const rule = screen.getByRole('region', { name: 'How you earn' });
    expect(rule.textContent).toContain('You earn 5% of every deposit a friend makes.');
    expect(rule.textContent).toMatch(/held 14 days before you can spend it; if the deposit is refunded or disputed, the commission is taken back/);
    expect(rule.textContent).toMatch(/One friend can earn you at most NGN.5,000\.00 in all\./);
    expect(screen.getByText('Sign-ups').closest('.card')?.textContent).toContain('2');
    const earnings = screen.getByText('Earnings').closest('.card')?.textContent;
    expect(earnings).toMatch(/150\.00/);
    expect(earnings).toMatch(/NGN.75\.00 pending, spendable after the hold/);
    const people = screen.getByRole('region', { name: 'People you referred' });
    expect(within(people).getAllByText('Bola A.').length).toBeGreaterThan(0);
    expect(within(people).queryByText('bola')).toBeNull();
    expect(within(people).getAllByText('No longer earning').length).toBeGreaterThan(0);
    const row = within(within(people).getByRole('table')).getAllByRole('row')[1];
    expect(row.textContent).toMatch(/NGN.150\.00\+ NGN.75\.00 pending/);
  });

  it('says commissions are spendable at once with no hold, names no cap when there is none, and no pending when nothing is held', async () => {
    serve({ ...SUMMARY, holdDays: 0, capPerReferred: null, pending: '0.00', referred: [] });
    renderApp('/user/referrals');
    const rule = await screen.findByRole('region', { name: 'How you earn' });
    await waitFor(() => expect(rule.textContent).toContain('Each commission can be spent at once'));
    expect(rule.textContent).not.toContain('at most');
    expect(screen.getByText('Earnings').closest('.card')?.textContent).not.toContain('pending');
    expect(screen.getByText('No sign-ups yet')).toBeTruthy();
  });
});

describe('the referral settings (admin)', () => {
  const SETTINGS = { enabled: true, ratePercent: '5.00', holdDays: 14, capPerReferred: null };

  it('shows the hold and the cap, refuses a hold past 90 days, and sends holdDays as a number and an empty cap as null', async () => {
    const user = userEvent.setup();
    const saved: unknown[] = [];
    mockFetch((url, init) => {
      if (url.includes('admin/referrals/settings')) {
        if (init.method === 'PUT') {
          saved.push(JSON.parse(String(init.body)));
          return jsonResponse(200, { message: 'Referral settings saved', data: saved.at(-1) });
        }
        return jsonResponse(200, { message: 'Referral settings', data: SETTINGS });
      }
      return jsonResponse(200, { data: [], total: 0 });
    });
    renderScreen(<AdminReferralsPage />, '/admin/referrals', 'admin-token');
    const card = screen.getByRole('region', { name: 'Referral settings' });
    const hold = within(card).getByLabelText('Hold (days)') as HTMLInputElement;
    await waitFor(() => expect(hold.value).toBe('14'));
    const cap = within(card).getByLabelText(/Cap per referred account/) as HTMLInputElement;
    expect(cap.value).toBe('');
    expect(describedText(hold)).toMatch(/^Commission is held this many days before the referrer can spend it; a refunded or disputed deposit takes it back/);
    expect(describedText(cap)).toMatch(/^The most one referred account can earn its referrer/);

    await retype(user, hold, '91');
    await user.click(within(card).getByRole('button', { name: 'Save referral settings' }));
    expect(describedText(hold)).toBe('Hold must be at most 90 days');
    expect(saved).toEqual([]);

    await retype(user, hold, '7');
    await user.click(within(card).getByRole('button', { name: 'Save referral settings' }));
    await waitFor(() => expect(saved).toEqual([{ enabled: true, ratePercent: '5.00', holdDays: 7, capPerReferred: null }]));

    await user.type(cap, '2500');
    await retype(user, within(card).getByLabelText('Commission (% of each deposit)'), '2.5');
    await user.click(within(card).getByRole('button', { name: 'Save referral settings' }));
    await waitFor(() => expect(saved.at(-1)).toEqual({ enabled: true, ratePercent: '2.5', holdDays: 7, capPerReferred: '2500' }));
  });

  it('refuses a cap that is not an amount', async () => {
    const user = userEvent.setup();
    const fetch = mockFetch((url) =>
      url.includes('admin/referrals/settings')
        ? jsonResponse(200, { message: 'Referral settings', data: SETTINGS })
        : jsonResponse(200, { data: [], total: 0 }),
    );
    renderScreen(<AdminReferralsPage />, '/admin/referrals', 'admin-token');
    const card = screen.getByRole('region', { name: 'Referral settings' });
    await waitFor(() => expect((within(card).getByLabelText('Hold (days)') as HTMLInputElement).value).toBe('14'));
    const cap = within(card).getByLabelText(/Cap per referred account/);
    await user.type(cap, 'lots');
    await user.click(within(card).getByRole('button', { name: 'Save referral settings' }));
    expect(describedText(cap)).toBe('Cap must be an amount in naira, like 5000');
    expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(false);
  });
});
