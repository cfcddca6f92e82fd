// The dashboard's Money section: each alert with what happened, its next step and a link where to take
// it (a user's page opened with the user in router state), a dispute due within 48 hours or overdue in red,
// and "No money needs your attention" when there is nothing; the Deposits tile says what it counts.

import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import AdminDashboardPage from '@/features/admin/dashboard/AdminDashboardPage';
import type { Dashboard, MoneyAlert } from '@/features/admin/dashboard/api/get-dashboard';
import { MoneyAlerts } from '@/features/admin/dashboard/MoneyAlerts';
import { TOKEN_KEY } from '@/lib/session';
import { jsonResponse, mockFetch, WithQuery } from '../helpers';

const HOUR = 60 * 60 * 1000;
const at = (offset: number) => new Date(Date.now() + offset).toISOString();

const dispute = (id: number, dueAt: string | null, email = 'ada@example.com'): MoneyAlert => ({
  id: `dispute:${id}`,
  kind: 'dispute_open',
  title: `Open dispute of ₦5,000.00 at Paystack (${id})`,
  detail: `${email} disputes their ₦5,000.00 card deposit dep-${id}, opened 5 Mar 2026, 10:00 UTC; the disputed money is held back from their wallet until it is resolved.`,
  amount: '5000.00',
  nextStep: `Answer at Paystack with evidence of the orders delivered before the deadline, or accept it.`,
  link: { to: '/admin/manage-user', label: 'Open user', userId: 5 },
  user: { id: 5, email },
  provider: 'paystack',
  reference: `dep-${id}`,
  createdAt: at(-2 * HOUR),
  dueAt,
});

const BOOKS: MoneyAlert = {
  id: 'reconciliation:2026-03-06T09:30:00.000Z',
  kind: 'reconciliation',
  title: 'The books are not clean',
  detail: 'The hourly reconciliation of 6 Mar 2026, 09:30 UTC found 3 problems; ₦59,500.00 of credit has nothing behind it.',
  amount: '59500.00',
  nextStep: 'Open Reconciliation, run it again, and resolve each finding by its user and cause.',
  link: { to: '/admin/reconciliation', label: 'Open Reconciliation', userId: null },
  user: null,
  provider: null,
  reference: null,
  createdAt: '2026-03-06T09:30:00.000Z',
  dueAt: null,
};

const COMMISSION: MoneyAlert = {
  id: 'commission:31',
  kind: 'commission_reversed',
  title: 'Commission taken back from bola@example.com',
  detail:
    "ada@example.com's deposit dep-31 was refunded, so ₦1,000.00 of the ₦1,000.00 commission it paid was taken back, ₦400.00 of it as debt (already spent).",
  amount: '1000.00',
  nextStep: 'bola@example.com owes ₦400.00: their orders are refused until credits settle it. If the two accounts look like one person, void the referral.',
  link: { to: '/admin/manage-user', label: 'Open user', userId: 8 },
  user: { id: 8, email: 'bola@example.com' },
  provider: 'paystack',
  reference: 'dep-31',
  createdAt: at(-HOUR),
  dueAt: null,
};

/** Where a link led, with the user it carries in router state. */
function Landing() {
  const location = useLocation();
  return <p>Landed on {`${location.pathname} for user ${(location.state as { userId?: number } | null)?.userId ?? 'none'}`}</p>;
}

function renderMoney(money: Dashboard['money'] | undefined, loading = false) {
  const data = (money ? { money } : undefined) as Dashboard | undefined;
  render(
    <MemoryRouter initialEntries={['/admin']}>
      <Routes>
        <Route path="/admin" element={<MoneyAlerts data={data} loading={loading} currency="NGN" />} />
        <Route path="*" element={<Landing />} />
      </Routes>
    </MemoryRouter>,
  );
}

const section = () => screen.getByRole('region', { name: /^Money( \d+)?$/ });

describe('the Money section', () => {
  it('lists each alert with its amount, next step and link; a dispute due within 48 hours or overdue is red', async () => {
    const soon = dispute(1, at(20 * HOUR));
    const overdue = dispute(2, at(-3 * HOUR));
    const later = dispute(3, at(5 * 24 * HOUR));
    const undated = dispute(4, null);
    renderMoney({ total: 6, items: [overdue, soon, later, undated, BOOKS, COMMISSION] });

    const items = within(section()).getAllByRole('listitem');
    expect(items.map((item) => item.getAttribute('aria-label'))).toEqual([
      overdue.title,
      soon.title,
      later.title,
      undated.title,
      BOOKS.title,
      COMMISSION.title,
    ]);
    expect(items.map((item) => item.getAttribute('data-urgent'))).toEqual(['true', 'true', null, null, null, null]);
    expect(items[0].className).toContain('bg-rose-50');
    expect(items[2].className).not.toContain('bg-rose-50');
    expect(within(items[0]).getByText('Overdue')).toBeTruthy();
    expect(within(items[1]).getByText('Due within 48 hours')).toBeTruthy();
    expect(within(items[2]).queryByText('Due within 48 hours')).toBeNull();
    // The deadline, in the administrator's own time, where there is one.
    expect(
      within(items[2])
        .getByText(/^Deadline:/)
        .querySelector('time')
        ?.getAttribute('dateTime'),
    ).toBe(later.dueAt);
    expect(within(items[3]).queryByText(/^Deadline:/)).toBeNull();

    const books = items[4];
    expect(books.textContent).toContain('NGN');
    expect(books.textContent).toMatch(/59,500\.00/);
    expect(books.textContent).toContain(`Next step: ${BOOKS.nextStep}`);
    expect(
      within(books)
        .getByRole('link', { name: `Open Reconciliation: ${BOOKS.title}` })
        .getAttribute('href'),
    ).toBe('/admin/reconciliation');
    expect(items[5].textContent).toContain(COMMISSION.detail);
    // The heading counts them all; with none left off, the list says nothing more.
    expect(within(section()).getByRole('heading', { name: /Money/ }).textContent).toContain('6');
    expect(screen.queryByText(/^Showing/)).toBeNull();

    // A user's page is opened with the user in router state, as /admin/manage-user reads it.
    await userEvent.setup().click(within(items[5]).getByRole('link', { name: `Open user: ${COMMISSION.title}` }));
    expect(await screen.findByText('Landed on /admin/manage-user for user 8')).toBeTruthy();
  });

  it('says when nothing needs attention, shows skeletons while loading, and how many it left off', () => {
    renderMoney({ total: 0, items: [] });
    expect(within(section()).getByText('No money needs your attention')).toBeTruthy();
    cleanup();

    renderMoney(undefined, true);
    expect(within(section()).queryByText('No money needs your attention')).toBeNull();
    expect(within(section()).queryAllByRole('listitem')).toHaveLength(0);
    cleanup();

    renderMoney({ total: 120, items: [dispute(9, at(72 * HOUR))] });
    expect(screen.getByText(/^Showing 1 of 120/)).toBeTruthy();
  });
});

describe('the dashboard', () => {
  it('shows the Money section and a Deposits figure that says what it counts', async () => {
    const dashboard = {
      period: 'day',
      series: [],
      totals: {
        deposits: '12600.25',
        bankTransfers: '5000.00',
        depositsReversed: '2500.00',
        adminCredits: '100.25',
        spend: '0.00',
        providerCost: '0.00',
        profit: '0.00',
        orders: 0,
        newUsers: 0,
      },
      ordersByStatus: [],
      pendingPayments: 0,
      lastSync: { catalogue: null, orders: null },
      openWarnings: 0,
      stuckOrders: { total: 0, data: [] },
      providers: [],
      providerHealth: [],
      recentAudit: [],
      paymentRefusals: null,
      money: { total: 1, items: [dispute(7, at(10 * HOUR), 'chidi@example.com')] },
    };
    mockFetch((url) => (url.includes('admin/dashboard') ? jsonResponse(200, { data: dashboard }) : jsonResponse(503, { message: 'Busy' })));
    window.localStorage.setItem(TOKEN_KEY, 'admin-token');
    render(
      <WithQuery>
        <MemoryRouter initialEntries={['/admin']}>
          <AdminDashboardPage />
        </MemoryRouter>
      </WithQuery>,
    );
    const totals = await screen.findByRole('region', { name: 'Totals' });
    await waitFor(() => expect(totals.textContent).toMatch(/Deposits.*12,600\.25/));
    expect(totals.textContent).toMatch(/Card and bank transfer less NGN.2,500\.00 taken back by refunds and chargebacks, and admin credits/);
    expect(totals.textContent).toMatch(/Bank transfers NGN.5,000\.00 · admin credits NGN.100\.25/);
    const [item] = within(section()).getAllByRole('listitem');
    expect(item.textContent).toContain('chidi@example.com disputes their');
    expect(item.getAttribute('data-urgent')).toBe('true');
  });
});
