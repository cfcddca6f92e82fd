import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Route, Routes } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import ManageUserPage from '@/features/admin/users/ManageUserPage';
import { TOKEN_KEY } from '@/lib/session';
import { CHIDI, columnHeaders, jsonResponse, mockFetch, renderScreen, retype } from '../helpers';

const LONG_TITLE = 'Instagram Followers | Real Nigerian Accounts | 30 Days Refill';

const DETAILS = {
  message: 'ok',
  profile: { ...CHIDI, wallet: { balance: '4200.50' } },
  walletHistory: [
    { id: 11, transaction_type: 1, amount: '5000.00', created_at: '2024-03-06T10:00:00Z' },
    { id: 12, transaction_type: 2, amount: '799.50', created_at: '2024-03-07T10:00:00Z' },
    { id: 13, transaction_type: 1, amount: '1000.00', created_at: '2024-03-08T10:00:00Z' },
  ],
  orders: [
    {
      id: 101,
      productTitle: LONG_TITLE,
      productLink: 'https://instagram.com/chidi',
      quantity: 1000,
      price: '500.00',
      smmStatus: { status: 'Pending Submission' },
      created_at: '2024-03-07T10:00:00Z',
      orderDate: '2024-03-07T10:00:00Z',
    },
    {
      id: 102,
      productTitle: 'TikTok Views',
      productLink: 'https://tiktok.com/@chidi/video/1',
      quantity: 5000,
      price: '299.50',
      smmStatus: { status: 'Completed' },
      created_at: '2024-03-06T10:00:00Z',
      orderDate: '2024-03-06T10:00:00Z',
    },
    {
      id: 103,
      productTitle: 'YouTube Likes',
      productLink: '',
      quantity: 100,
      price: '120.00',
      smmStatus: { status: 'In progress' },
      created_at: '2024-03-05T10:00:00Z',
      orderDate: null,
    },
  ],
};

function renderAt(state: unknown) {
  renderScreen(
    <Routes>
      <Route path="/admin/manage-user" element={<ManageUserPage />} />
      <Route path="/admin/users" element={<h1>Users list</h1>} />
    </Routes>,
    { pathname: '/admin/manage-user', state },
  );
}

/** The desktop table of a section (the phone card list repeats the same rows). */
const table = (name: string) => screen.getByRole('table', { name });

describe('Admin user detail', () => {
  it('without router state goes to /admin/users', async () => {
    mockFetch(() => jsonResponse(200, DETAILS));
    renderAt(null);
    expect(await screen.findByText('Users list')).toBeTruthy();
  });

  it('shows the overview, the wallet tab and the orders tab from admin/getUserDeta', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(TOKEN_KEY, 'admin-token');
    const fetch = mockFetch((url) => (url.includes('getUserDeta') ? jsonResponse(200, DETAILS) : jsonResponse(200, {})));
    renderAt({ userId: 5 });

    expect(await screen.findByRole('heading', { name: 'Chidi Okeke' })).toBeTruthy();
    expect(String(fetch.mock.calls.find((c) => String(c[0]).includes('getUserDeta'))?.[0])).toBe('/api/v1/admin/getUserDeta/5');
    expect(screen.getByRole('button', { name: /Go Back/ })).toBeTruthy();
    expect(screen.getAllByRole('tab').map((t) => t.textContent)).toEqual(['Overview', 'Wallet', 'Orders']);

    // Overview: profile fields and the wallet summary (deposits = type 1, spent = type 2).
    const overview = screen.getByRole('tabpanel', { name: 'Overview' });
    for (const label of ['Full Name', 'Username', 'Email Address', 'Member Since']) expect(within(overview).getByText(label)).toBeTruthy();
    expect(within(overview).getByText('chidi')).toBeTruthy();
    expect(within(overview).getByText('Member Since').nextElementSibling?.textContent).toBe('Mar 5, 2024');
    const summary = within(overview).getByRole('region', { name: 'Wallet summary' });
    expect(summary.textContent).toContain('Available Balance');
    expect(summary.textContent).toMatch(/Available Balance.*4,200\.50/);
    expect(summary.textContent).toMatch(/Total Deposits.*6,000\.00/);
    expect(summary.textContent).toMatch(/Total Spent.*799\.50/);
    const recent = table('Recent Orders');
    expect(columnHeaders(recent)).toEqual(['ID', 'Product', 'Quantity', 'Price', 'Status', 'Date']);

    // Wallet: deposits green '+', withdrawals red '-'.
    await user.click(screen.getByRole('tab', { name: 'Wallet' }));
    const history = table('Transaction History');
    expect(columnHeaders(history)).toEqual(['ID', 'Type', 'Amount', 'Date']);
    const deposit = within(history).getByText(/\+NGN.5,000\.00/);
    const withdrawal = within(history).getByText(/-NGN.799\.50/);
    expect(deposit.className).toContain('text-emerald-700');
    expect(withdrawal.className).toContain('text-rose-700');
    expect(within(history).getAllByText('Deposit')).toHaveLength(2);
    expect(within(history).getByText('Withdrawal')).toBeTruthy();

    // Orders: counts by status text, titles cut at 30 characters + '...'.
    await user.click(screen.getByRole('tab', { name: 'Orders' }));
    const ordersPanel = screen.getByRole('tabpanel', { name: 'Orders' });
    expect(ordersPanel.textContent).toMatch(/Total Orders\s*3/);
    expect(ordersPanel.textContent).toMatch(/Pending Orders\s*1/);
    expect(ordersPanel.textContent).toMatch(/Completed Orders\s*1/);
    const orders = table('Orders');
    expect(columnHeaders(orders)).toEqual(['ID', 'Service', 'Link', 'Quantity', 'Price', 'Status', 'Date', 'Actions']);
    expect(within(orders).getByText(`${LONG_TITLE.slice(0, 30)}...`)).toBeTruthy();
    expect(within(orders).getByText('TikTok Views')).toBeTruthy();
  });

  it('shows what a chargeback left the user owing, and each refund and chargeback under Wallet', async () => {
    const user = userEvent.setup();
    const reversal = {
      id: 1,
      reference: 'dep-7f3a',
      provider: 'paystack',
      kind: 'dispute',
      status: 'dispute_open',
      amount: '5000.00',
      taken: '3750.00',
      debt: '1250.00',
      returned: '0.00',
      created_at: '2024-03-09T10:00:00Z',
      resolved_at: null,
    };
    const wonReversal = {
      ...reversal,
      id: 2,
      reference: 'dep-91c0',
      status: 'dispute_won',
      amount: '2000.00',
      taken: '2000.00',
      debt: '0.00',
      returned: '2000.00',
      resolved_at: '2024-03-12T10:00:00Z',
    };
    mockFetch((url) =>
      url.includes('getUserDeta') ? jsonResponse(200, { ...DETAILS, summary: { debt: '1250.00' }, reversals: [reversal, wonReversal] }) : jsonResponse(200, {}),
    );
    renderAt({ userId: 5 });
    const owed = await screen.findByRole('alert', { name: 'Amount owed' });
    expect(owed.textContent).toMatch(/^Owes NGN.1,250\.00 after a card payment was refunded or charged back/);
    await user.click(screen.getByRole('tab', { name: 'Wallet' }));
    const reversals = table('Card payment reversals');
    expect(columnHeaders(reversals)).toEqual(['Payment', 'Kind', 'Status', 'Amount', 'Taken from wallet', 'Added to debt', 'Returned', 'Date']);
    const row = within(reversals).getByText('dep-7f3a').closest('tr')!;
    expect(within(row).getByText('Dispute open')).toBeTruthy();
    expect(row.textContent).toMatch(/NGN.3,750\.00.*NGN.1,250\.00/);
    // A dispute won gives back what it took: the Returned column says how much.
    const returned = (tr: HTMLElement) => within(tr).getAllByRole('cell')[6].textContent;
    expect(returned(row)).toMatch(/^NGN.0\.00$/);
    const won = within(reversals).getByText('dep-91c0').closest('tr')!;
    expect(within(won).getByText('Dispute won')).toBeTruthy();
    expect(returned(won)).toMatch(/^NGN.2,000\.00$/);
  });

  it('shows no debt when the user owes nothing', async () => {
    mockFetch((url) => (url.includes('getUserDeta') ? jsonResponse(200, DETAILS) : jsonResponse(200, {})));
    renderAt({ userId: 5 });
    await screen.findByRole('heading', { name: 'Chidi Okeke' });
    expect(screen.queryByRole('alert', { name: 'Amount owed' })).toBeNull();
    expect(screen.getAllByText('No refunds or chargebacks').length).toBeGreaterThan(0);
  });

  it('Add fund: validates, asks for confirmation, sends {amount, reference, userId}, confirms and refreshes', async () => {
    const user = userEvent.setup();
    window.localStorage.setItem(TOKEN_KEY, 'admin-token');
    let loads = 0;
    const fetch = mockFetch((url) => {
      if (url.includes('getUserDeta')) {
        loads += 1;
        return jsonResponse(200, DETAILS);
      }
      if (url.includes('admin-credit-user-wallet')) return jsonResponse(200, { message: 'Wallet credited' });
      return jsonResponse(404, {});
    });
    renderAt({ userId: 5 });
    await screen.findByRole('heading', { name: 'Chidi Okeke' });
    await user.click(screen.getAllByRole('button', { name: /Add Funds/ })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Add Funds' });

    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(await within(dialog).findByText('Please enter a valid amount')).toBeTruthy();
    expect(within(dialog).getByText('Please enter a valid reference')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Amount'), '0');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    expect(within(dialog).getByText('Please enter a valid amount')).toBeTruthy();

    await retype(user, within(dialog).getByLabelText('Amount'), '1,500.50');
    await user.type(within(dialog).getByLabelText('Reference'), 'Bank transfer 12 March');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));

    // The confirmation dialog must be accepted before anything is sent.
    expect(await screen.findByText('Are you sure?')).toBeTruthy();
    expect(screen.getByText('You want to proceed with this action?')).toBeTruthy();
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('admin-credit-user-wallet'))).toBe(false);
    await user.click(screen.getByRole('button', { name: 'Yes' }));

    await waitFor(() => expect(screen.getByText('Added successfully!')).toBeTruthy());
    const call = fetch.mock.calls.find((c) => String(c[0]).includes('admin-credit-user-wallet'))!;
    expect(call[0]).toBe('/api/v1/user/admin-credit-user-wallet');
    expect(JSON.parse(String(call[1]!.body))).toEqual({ amount: 1500.5, reference: 'Bank transfer 12 March', userId: 5 });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Add Funds' })).toBeNull());
    await waitFor(() => expect(loads).toBe(2));
  });

  it('Add fund: answering No sends nothing', async () => {
    const user = userEvent.setup();
    const fetch = mockFetch((url) => (url.includes('getUserDeta') ? jsonResponse(200, DETAILS) : jsonResponse(200, {})));
    renderAt({ userId: 5 });
    await screen.findByRole('heading', { name: 'Chidi Okeke' });
    await user.click(screen.getAllByRole('button', { name: /Add Funds/ })[0]);
    const dialog = await screen.findByRole('dialog', { name: 'Add Funds' });
    await user.type(within(dialog).getByLabelText('Amount'), '100');
    await user.type(within(dialog).getByLabelText('Reference'), 'ref');
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }));
    await user.click(await screen.findByRole('button', { name: 'No' }));
    await waitFor(() => expect(screen.queryByText('Are you sure?')).toBeNull());
    expect(fetch.mock.calls.some((c) => String(c[0]).includes('admin-credit-user-wallet'))).toBe(false);
    expect(screen.getByRole('dialog', { name: 'Add Funds' })).toBeTruthy();
    vi.restoreAllMocks();
  });
});
