// Ledger rows read as what they are, and totals keep deposits, refunds, credits and spending apart,
// on the customer's transactions and dashboard and on the administrator's user detail.

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter, Route, Routes } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import ManageUserPage from '@/features/admin/users/ManageUserPage';
import DashboardPage from '@/features/user/DashboardPage';
import TransactionsPage from '@/features/wallet/TransactionsPage';
import { AuthContext } from '@/lib/authContext';
import { TOKEN_KEY } from '@/lib/session';
import { authStub, CHIDI, columnHeaders, jsonResponse, mockFetch, renderScreen, WithQuery } from '../helpers';

const REFUND = {
  id: 31,
  transaction_type: 1,
  amount: '400.00',
  balance_after: '5400.00',
  source: 'order_refund',
  reference: '102',
  description: 'Refund for order #102',
  note: 'Refund: order #102 canceled',
  created_at: '2024-03-07T10:00:00Z',
};
const ORDER = {
  id: 30,
  transaction_type: 2,
  amount: '400.00',
  balance_after: '5000.00',
  source: 'order',
  reference: '102',
  description: 'Order #102',
  note: 'Order #102: Instagram Likes × 1,000',
  created_at: '2024-03-06T10:00:00Z',
};
const DEPOSIT = {
  id: 29,
  transaction_type: 1,
  amount: '5400.00',
  balance_after: '5400.00',
  source: 'payment',
  reference: 'dep_1',
  description: 'Deposit by card (Paystack)',
  note: 'Wallet funding by card (dep_1)',
  created_at: '2024-03-05T10:00:00Z',
};
const TOTALS = {
  totalDeposits: '5400.00',
  totalSpent: '600.00',
  totalRefunds: '400.00',
  totalAdminCredits: '2000.00',
  totalAdminDebits: '0.00',
  totalCardReversals: '0.00',
};

/** The dashboard greets the signed-in customer; nothing else of the session matters here. */
const SIGNED_IN = authStub({ user: CHIDI, userType: 2 });

function renderPage(page: ReactNode, answers: (url: string) => unknown) {
  window.localStorage.setItem(TOKEN_KEY, 'token');
  mockFetch((url) => {
    const answer = answers(url);
    return answer === undefined ? jsonResponse(200, {}) : jsonResponse(200, answer);
  });
  render(
    <WithQuery>
      <AuthContext.Provider value={SIGNED_IN}>
        <MemoryRouter>{page}</MemoryRouter>
      </AuthContext.Provider>
    </WithQuery>,
  );
}

describe("the customer's transactions", () => {
  it('name each row for what it is, with the text written with it, and keep green + for credits', async () => {
    renderPage(<TransactionsPage />, (url) =>
      url.includes('user/transactions') ? { data: [REFUND, ORDER, DEPOSIT], page: 1, limit: 20, total: 3 } : undefined,
    );
    const table = await screen.findByRole('table', { name: 'Transactions' });
    const refundRow = (await within(table).findByText('Refund for order #102')).closest('tr')!;
    expect(refundRow.textContent).toContain('Refund: order #102 canceled');
    expect(within(refundRow).getByText(/^\+NGN/).className).toContain('text-emerald-700');
    const orderRow = within(table).getByText('Order #102').closest('tr')!;
    expect(orderRow.textContent).toContain('Instagram Likes × 1,000');
    expect(within(orderRow).getByText(/^-NGN/).className).toContain('text-rose-700');
    expect(within(table).getByText('Deposit by card (Paystack)')).toBeTruthy();
  });
});

describe("the customer's dashboard", () => {
  it('shows deposits, refunds, credits and spending as separate figures', async () => {
    renderPage(<DashboardPage />, (url) => {
      if (url.includes('user/wallet-summary')) return { data: url.includes('from=') ? { ...TOTALS, totalSpent: '150.00' } : TOTALS };
      if (url.includes('user/getWalletBalance')) return { walletBalance: 6800, walletDebt: 0 };
      if (url.includes('user/transactions') || url.includes('user/orders')) return { data: [], page: 1, limit: 100, total: 0 };
      return undefined;
    });
    const money = await screen.findByRole('region', { name: 'Money in and out' });
    expect(await within(money).findByText('NGN 5,400.00')).toBeTruthy();
    const figure = (label: string) => within(money).getByText(label).parentElement!.textContent;
    expect(figure('Total Deposits')).toContain('5,400.00');
    expect(figure('Refunds')).toContain('400.00');
    expect(figure('Credits by administrator')).toContain('2,000.00');
    expect(figure('Total Spent')).toContain('600.00');
    const balances = screen.getByRole('region', { name: 'Balances' });
    expect(within(balances).getByText('Spent (30 days)').parentElement!.textContent).toContain('150.00');
  });
});

describe("the administrator's user detail", () => {
  const DETAILS = {
    message: 'ok',
    profile: { ...CHIDI, wallet: { balance: '6800.00' } },
    walletHistory: [REFUND, ORDER, DEPOSIT],
    // The newest orders only; the counts cover all 130.
    orders: [
      {
        id: 102,
        productTitle: 'Instagram Likes',
        productLink: 'https://instagram.com/p/1',
        quantity: 1000,
        price: '400.00',
        smmStatus: { status: 'Canceled' },
        created_at: '2024-03-06T10:00:00Z',
        orderDate: '2024-03-06T10:00:00Z',
      },
    ],
    orderCounts: { total: 130, byStatus: { Completed: 70, 'Pending Submission': 40, Canceled: 20 } },
    summary: { availableBalance: '6800.00', ...TOTALS, debt: '0.00' },
    reversals: [],
  };

  it('keeps the three cards, names refunds and credits apart, describes each row and counts every order', async () => {
    mockFetch((url) => jsonResponse(200, url.includes('getUserDeta') ? DETAILS : {}));
    renderScreen(
      <Routes>
        <Route path="/admin/manage-user" element={<ManageUserPage />} />
      </Routes>,
      { pathname: '/admin/manage-user', state: { userId: 5 } },
      'admin-token',
    );
    const user = userEvent.setup();
    const summary = await screen.findByRole('region', { name: 'Wallet summary' });
    await waitFor(() => expect(summary.textContent).toMatch(/Total Deposits.*5,400\.00/));
    expect(summary.textContent).toMatch(/Total Spent.*600\.00/);
    expect(summary.textContent).toMatch(/Refunds.*400\.00/);
    expect(summary.textContent).toMatch(/Credits by administrator.*2,000\.00/);
    expect(summary.textContent).not.toMatch(/Debits by administrator/);

    await user.click(screen.getByRole('tab', { name: 'Wallet' }));
    const history = screen.getByRole('table', { name: 'Transaction History' });
    expect(columnHeaders(history)).toEqual(['ID', 'Type', 'Amount', 'Date']);
    expect(within(history).getByText('Refund for order #102').closest('tr')!.textContent).toContain('Deposit');

    await user.click(screen.getByRole('tab', { name: 'Orders' }));
    const orders = screen.getByRole('tabpanel', { name: 'Orders' });
    expect(orders.textContent).toMatch(/Total Orders\s*130/);
    expect(orders.textContent).toMatch(/Pending Orders\s*40/);
    expect(orders.textContent).toMatch(/Completed Orders\s*70/);
  });
});
