// The operator's smaller screens against a stubbed API: Transactions name their users, the referral
// switch says what it is, the dashboard's Pending payments opens its list and its Day / Week / Month
// reads as a grouping, and a provider balance not read yet says when it will be.

import { cleanup, render, screen, within } from '@testing-library/react';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, describe, expect, it } from 'vitest';
import AdminDashboardPage from '@/features/admin/dashboard/AdminDashboardPage';
import { ReferralSettingsCard } from '@/features/admin/referrals/ReferralSettingsCard';
import AdminTransactionsPage from '@/features/admin/wallet/AdminTransactionsPage';
import PendingPaymentsPage from '@/features/admin/wallet/PendingPaymentsPage';
import { TOKEN_KEY } from '@/lib/session';
import { jsonResponse, mockFetch, WithQuery } from '../helpers';

function renderAt(element: ReactNode, path: string) {
  window.localStorage.setItem(TOKEN_KEY, 'admin-token');
  render(
    <WithQuery>
      <MemoryRouter initialEntries={[path]}>{element}</MemoryRouter>
    </WithQuery>,
  );
}

const page = <T,>(data: T[]) => ({ data, page: 1, limit: 25, total: data.length });

const provider = (id: number, name: string, more: Record<string, unknown>) => ({
  id,
  name,
  currency: 'USD',
  enabled: true,
  balance: null,
  lowBalanceAlert: null,
  lowBalance: false,
  balanceCheckedAt: null,
  catalogueSyncedAt: null,
  lastError: null,
  serviceCount: 0,
  ...more,
});

const DASHBOARD = {
  period: 'day',
  series: [],
  totals: {
    deposits: '0.00',
    bankTransfers: '0.00',
    depositsReversed: '0.00',
    adminCredits: '0.00',
    spend: '0.00',
    providerCost: '0.00',
    profit: '0.00',
    orders: 0,
    newUsers: 0,
  },
  ordersByStatus: [],
  pendingPayments: 3,
  lastSync: { catalogue: null, orders: null },
  openWarnings: 0,
  stuckOrders: { total: 0, data: [] },
  providers: [
    provider(1, 'Fresh Panel', {}),
    provider(2, 'Failing Panel', { lastError: 'SMM provider balance: HTTP 502' }),
    provider(3, 'Old Panel', { enabled: false }),
  ],
  providerHealth: [],
  recentAudit: [],
  paymentRefusals: null,
  money: { total: 0, items: [] },
};

afterEach(cleanup);

describe('admin Transactions', () => {
  it('names each row\'s user by full name and email, linked to their page, never "User #2"', async () => {
    const row = {
      id: 41,
      userId: 2,
      userFullName: 'Ada Obi',
      userEmail: 'ada@example.com',
      transaction_type: 1,
      amount: '5000.00',
      balance_after: '5000.00',
      source: 'admin_credit',
      reference: 'bank-1',
      description: 'Credit by administrator',
      note: 'Bank transfer',
      created_at: '2024-03-05T10:00:00Z',
    };
    mockFetch(() => jsonResponse(200, page([row])));
    renderAt(<AdminTransactionsPage />, '/admin/transactions');
    const name = (await screen.findAllByText('Ada Obi'))[0];
    expect(name.closest('a')?.getAttribute('href')).toBe('/admin/manage-user');
    expect(screen.getAllByText('ada@example.com').length).toBeGreaterThan(0);
    expect(screen.queryByText('User #2')).toBeNull();
  });
});

describe('the referral settings', () => {
  it("show the switch's name and state beside it, and what each state means", async () => {
    mockFetch(() => jsonResponse(200, { data: { enabled: false, ratePercent: '5', holdDays: 14, capPerReferred: null } }));
    renderAt(<ReferralSettingsCard />, '/admin/referrals');
    expect(await screen.findByText('Pay referral commissions: Off')).toBeTruthy();
    expect(screen.getByText('No commission is earned on new deposits; commissions already earned are kept.')).toBeTruthy();
    expect(screen.getByRole('switch', { name: 'Pay referral commissions' }).getAttribute('aria-checked')).toBe('false');
  });
});

describe('the dashboard', () => {
  it('links Pending payments to their list, groups by Day / Week / Month, and says when an unread balance will be read', async () => {
    mockFetch((url) => (url.includes('admin/dashboard') ? jsonResponse(200, { data: DASHBOARD }) : jsonResponse(503, { message: 'Busy' })));
    renderAt(<AdminDashboardPage />, '/admin');
    const link = await screen.findByRole('link', { name: 'See the payments' });
    expect(link.getAttribute('href')).toBe('/admin/pending-payments');
    expect(screen.getByText('Group by:')).toBeTruthy();
    const grouping = screen.getByRole('group', { name: 'Group by' });
    expect(within(grouping).getByRole('radio', { name: 'Day' })).toBeTruthy();
    expect(screen.getByText('Money and orders over the last 30 days, by day (UTC).')).toBeTruthy();
    expect(screen.getByText('Balance not checked yet: checked within 2 minutes')).toBeTruthy();
    expect(screen.getByText('Balance not checked yet: the last try failed; tried again within 2 minutes')).toBeTruthy();
    expect(screen.getByText('Balance not checked: provider switched off')).toBeTruthy();
  });
});

describe('Pending payments', () => {
  it('lists the payments started but not confirmed, each naming its payer, amount, channel and when it was last asked about', async () => {
    const payment = {
      id: 5,
      reference: 'dep-abc123',
      provider: 'paystack',
      channel: 'card',
      providerStatus: 'abandoned',
      userId: 2,
      userFullName: 'Ada Obi',
      userEmail: 'ada@example.com',
      amount: '2500.00',
      created_at: '2024-03-05T10:00:00Z',
      lastCheckedAt: null,
    };
    const fetch = mockFetch(() => jsonResponse(200, page([payment])));
    renderAt(<PendingPaymentsPage />, '/admin/pending-payments');
    expect((await screen.findAllByText('Ada Obi')).length).toBeGreaterThan(0);
    expect(screen.getAllByText('Card (Paystack)').length).toBeGreaterThan(0);
    expect(screen.getAllByText('dep-abc123').length).toBeGreaterThan(0);
    expect(screen.getAllByText('Provider: abandoned').length).toBeGreaterThan(0);
    expect(String(fetch.mock.calls[0][0])).toBe('/api/v1/admin/payments/pending?page=1&limit=25');
  });
});
