// The admin screens against a stubbed API: what they send, what they confirm first, and what
// they never show (write-only keys, actions on yourself).

import { cleanup, render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import AdminDashboardPage from '@/features/admin/dashboard/AdminDashboardPage';
import AdminPaymentSettingsPage from '@/features/admin/settings/AdminPaymentSettingsPage';
import AdminAdministratorsPage from '@/features/admin/users/AdminAdministratorsPage';
import AdminUsersPage from '@/features/admin/users/AdminUsersPage';
import AdminTransactionsPage from '@/features/admin/wallet/AdminTransactionsPage';
import { AuthContext, type AuthContextValue } from '@/lib/authContext';
import { type SessionUser, TOKEN_KEY } from '@/lib/session';
import { jsonResponse, mockFetch, retype, WithQuery } from '../helpers';

const ME: SessionUser = {
  id: 9,
  fullName: 'Root Admin',
  email: 'root@example.com',
  username: 'root',
  userType: 1,
  status: 'active',
  emailVerified: true,
  created_at: '2024-01-01T00:00:00Z',
  last_login: '2024-03-01T00:00:00Z',
  wallet: { balance: '0.00' },
};
const ADA: SessionUser = {
  id: 5,
  fullName: 'Ada Obi',
  email: 'ada@example.com',
  username: 'ada',
  userType: 2,
  status: 'active',
  emailVerified: true,
  created_at: '2024-02-01T00:00:00Z',
  last_login: null,
  wallet: { balance: '1500.00' },
};

function renderScreen(screenElement: ReactNode, path = '/admin') {
  window.localStorage.setItem(TOKEN_KEY, 'admin-token');
  const auth = { user: ME, userType: 1, loading: false } as AuthContextValue;
  render(
    <WithQuery>
      <AuthContext.Provider value={auth}>
        <MemoryRouter initialEntries={[path]}>{screenElement}</MemoryRouter>
      </AuthContext.Provider>
    </WithQuery>,
  );
}

const list = <T,>(data: T[]) => ({ data, page: 1, limit: 20, total: data.length });
const NO_KEYS = { paystackSecretKey: false, flutterwaveSecretKey: false, flutterwaveWebhookHash: false };
/** GET admin/settings/payment of a shop in test mode with nothing configured or flagged. */
const UNCHECKED = { source: null, verifiedAt: null, refusals: null };
const PAYMENT_VIEW = {
  provider: 'paystack',
  mode: 'test',
  minDeposit: 100,
  maxDeposit: 500000,
  configuredKeys: NO_KEYS,
  deploymentKeys: NO_KEYS,
  keyChecks: { paystack: UNCHECKED, flutterwave: UNCHECKED },
  problem: null,
  flaggedPayments: { total: 0, recent: [] },
};
const callsTo = (fetch: ReturnType<typeof mockFetch>, part: string) => fetch.mock.calls.filter((c) => String(c[0]).includes(part));

describe('Users', () => {
  it('filters through the URL, and suspends only after a confirmation, never yourself', async () => {
    const user = userEvent.setup();
    const fetch = mockFetch((url) => {
      if (url.includes('/suspend')) return jsonResponse(200, { message: 'User suspended' });
      if (url.includes('admin/users')) return jsonResponse(200, list([ME, ADA]));
      return jsonResponse(200, {});
    });
    renderScreen(<AdminUsersPage />, '/admin/users?status=active&sort=name');
    const table = await screen.findByRole('table', { name: 'Users' });
    expect(String(callsTo(fetch, 'admin/users')[0][0])).toBe('/api/v1/admin/users?page=1&limit=20&status=active&sort=name');
    expect(within(table).queryByRole('button', { name: 'Suspend Root Admin' })).toBeNull();

    await user.click(within(table).getByRole('button', { name: 'Suspend Ada Obi' }));
    expect(await screen.findByText('Suspend Ada Obi?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'No' }));
    expect(callsTo(fetch, '/suspend')).toHaveLength(0);

    await user.click(within(table).getByRole('button', { name: 'Suspend Ada Obi' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, suspend' }));
    await waitFor(() => expect(callsTo(fetch, '/suspend')).toHaveLength(1));
    const [url, init] = callsTo(fetch, '/suspend')[0];
    expect(url).toBe('/api/v1/admin/users/5/suspend');
    expect(init?.method).toBe('POST');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer admin-token');
  });
});

describe('Administrators', () => {
  it('offers no removal of yourself, removes others after a confirmation, and validates invitations', async () => {
    const user = userEvent.setup();
    const other = { ...ADA, id: 7, fullName: 'Bola Admin', userType: 1 };
    const fetch = mockFetch((url, init) => {
      if (init.method === 'DELETE') return jsonResponse(200, { message: 'Administrator removed' });
      if (url.includes('administrators/invite'))
        return jsonResponse(201, { message: 'Invitation sent to new@example.com', data: { ...ADA, id: 8, userType: 1 } });
      if (url.includes('admin/administrators')) return jsonResponse(200, list([ME, other]));
      return jsonResponse(200, {});
    });
    renderScreen(<AdminAdministratorsPage />);
    const table = await screen.findByRole('table', { name: 'Administrators' });
    expect(within(table).queryByRole('button', { name: 'Remove Root Admin' })).toBeNull();
    await user.click(within(table).getByRole('button', { name: 'Remove Bola Admin' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, remove' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url, init]) => url === '/api/v1/admin/administrators/7' && init?.method === 'DELETE')).toBe(true));

    await user.click(screen.getByRole('button', { name: /Invite/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite an administrator' });
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Full name is required')).toBeTruthy();
    await user.type(within(dialog).getByLabelText('Full Name'), 'New Admin');
    await user.type(within(dialog).getByLabelText('Email Address'), 'not-an-email');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    expect(await within(dialog).findByText('Invalid email address')).toBeTruthy();
    await retype(user, within(dialog).getByLabelText('Email Address'), 'new@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(callsTo(fetch, 'administrators/invite')).toHaveLength(1));
    expect(JSON.parse(String(callsTo(fetch, 'administrators/invite')[0][1]?.body))).toEqual({ fullName: 'New Admin', email: 'new@example.com' });
    await waitFor(() => expect(screen.queryByRole('dialog', { name: 'Invite an administrator' })).toBeNull());
  });
});

describe('Transactions', () => {
  const exportOf = (state: string, extra: Record<string, unknown> = {}) => ({
    message: 'ok',
    data: {
      id: 7,
      state,
      filters: { type: 1, source: 'admin_credit' },
      rows: null,
      createdAt: '2026-11-29T10:00:00.000Z',
      finishedAt: null,
      error: null,
      ...extra,
    },
  });

  it('asks the server for the file of the filtered ledger, says it is being written, and downloads it with the bearer token once ready', async () => {
    const user = userEvent.setup();
    const csv = 'id,user_id\r\n"1","5"\r\n';
    let reads = 0;
    const fetch = mockFetch((url, init) => {
      if (url.endsWith('/transactions/exports') && init.method === 'POST') return jsonResponse(202, exportOf('queued'));
      if (url.endsWith('/transactions/exports/7')) {
        reads += 1;
        return jsonResponse(200, reads === 1 ? exportOf('running') : exportOf('done', { rows: 1, finishedAt: '2026-11-29T10:00:03.000Z' }));
      }
      if (url.endsWith('/transactions/exports/7/file')) return jsonResponse(200, csv);
      return jsonResponse(200, list([]));
    });
    const createObjectURL = vi.fn(() => 'blob:csv');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    const click = vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderScreen(<AdminTransactionsPage />, '/admin/transactions?type=1&source=admin_credit');
    await screen.findByText('No transactions match these filters');
    await user.click(screen.getByRole('button', { name: /Export CSV/ }));
    expect(await screen.findByText('Writing the file of these transactions; it downloads when ready.')).toBeTruthy();
    expect(screen.getByRole('button', { name: /Preparing CSV/ }).hasAttribute('disabled')).toBe(true);
    const [, started] = callsTo(fetch, 'transactions/exports')[0];
    expect(JSON.parse(String(started?.body))).toEqual({ type: 1, source: 'admin_credit' });

    await waitFor(() => expect(click).toHaveBeenCalledTimes(1), { timeout: 10_000 });
    const [url, init] = callsTo(fetch, 'exports/7/file')[0];
    expect(url).toBe('/api/v1/admin/transactions/exports/7/file');
    expect(new Headers(init?.headers).get('Authorization')).toBe('Bearer admin-token');
    const blob = (createObjectURL.mock.calls[0] as unknown as [Blob])[0];
    // jsdom's Blob has no text(): read it the old way.
    const saved = await new Promise<string>((resolve) => {
      const reader = new FileReader();
      reader.onload = () => resolve(String(reader.result));
      reader.readAsText(blob);
    });
    expect(saved).toBe(csv);
    expect(await screen.findByText(/transactions-\d{4}-\d{2}-\d{2}\.csv: 1 row\./)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Download again' }));
    await waitFor(() => expect(click).toHaveBeenCalledTimes(2));
    expect(screen.getByRole('button', { name: /Export CSV/ }).hasAttribute('disabled')).toBe(false);
  });

  it('says why the file could not be written, and starts a new export on the next tap', async () => {
    const user = userEvent.setup();
    const fetch = mockFetch((url, init) => {
      if (url.endsWith('/transactions/exports') && init.method === 'POST') return jsonResponse(202, exportOf('queued'));
      if (url.endsWith('/transactions/exports/7'))
        return jsonResponse(200, exportOf('failed', { error: 'The file could not be written; start the export again.' }));
      return jsonResponse(200, list([]));
    });
    renderScreen(<AdminTransactionsPage />, '/admin/transactions');
    await screen.findByText('No transactions yet');
    await user.click(screen.getByRole('button', { name: /Export CSV/ }));
    expect(await screen.findByText('The file could not be written; start the export again.', undefined, { timeout: 10_000 })).toBeTruthy();
    expect(callsTo(fetch, 'exports/7/file')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: /Export CSV/ }));
    await waitFor(() => expect(callsTo(fetch, 'transactions/exports').filter(([, init]) => init?.method === 'POST')).toHaveLength(2));
  });
});

describe('Transactions: by user email', () => {
  it("filters by an address once it is whole, and names each row's user with a link to their page", async () => {
    const user = userEvent.setup();
    const fetch = mockFetch(() =>
      jsonResponse(
        200,
        list([
          {
            id: 1,
            userId: 5,
            userFullName: 'Ada Obi',
            userEmail: 'ada@example.com',
            transaction_type: 1,
            amount: '250.00',
            balance_after: '1000.00',
            source: 'admin_credit',
            reference: 'ref-1',
            description: 'Admin credit',
            note: null,
            created_at: '2024-03-05T10:00:00Z',
          },
        ]),
      ),
    );
    renderScreen(<AdminTransactionsPage />, '/admin/transactions');
    const table = await screen.findByRole('table', { name: 'Transactions' });
    expect(
      within(table)
        .getByRole('link', { name: /Ada Obi\s*ada@example\.com/ })
        .getAttribute('href'),
    ).toBe('/admin/manage-user');

    await user.type(screen.getByRole('textbox', { name: 'User email' }), 'Ada@Example.com');
    await waitFor(() => expect(callsTo(fetch, 'admin/transactions').at(-1)?.[0]).toContain('email=ada%40example.com'));
    // Half an address was never sent.
    expect(callsTo(fetch, 'admin/transactions').filter(([url]) => String(url).includes('email=') && !String(url).includes('email=ada%40example.com'))).toEqual(
      [],
    );
  });
});

describe('Transactions: ledger sources in words', () => {
  it('names a referral commission taken back with its deposit, and one returned with it, in the Source column and filter', async () => {
    const row = (id: number, type: number, source: string, description: string) => ({
      id,
      userId: 8,
      transaction_type: type,
      amount: '250.00',
      balance_after: '1000.00',
      source,
      reference: 'paystack:evt_1:taken',
      description,
      note: null,
      created_at: '2024-03-05T10:00:00Z',
    });
    mockFetch(() =>
      jsonResponse(
        200,
        list([
          row(2, 1, 'commission_return', 'Referral commission returned (dep-7f3a)'),
          row(1, 2, 'commission_reversal', 'Referral commission taken back (dep-7f3a)'),
        ]),
      ),
    );
    renderScreen(<AdminTransactionsPage />, '/admin/transactions');
    const table = await screen.findByRole('table', { name: 'Transactions' });
    const sources = within(table)
      .getAllByRole('row')
      .slice(1)
      .map((tr) => within(tr).getAllByRole('cell')[4].textContent);
    expect(sources).toEqual(['Referral commission returned', 'Referral commission taken back']);
    const offered = within(screen.getByLabelText('Source'))
      .getAllByRole('option')
      .map((option) => option.textContent);
    expect(offered).toEqual(expect.arrayContaining(['Referral commission taken back', 'Referral commission returned']));
  });
});

describe('Payment settings', () => {
  it('never shows a stored key, keeps it when the field is left blank, and confirms a switch to live mode', async () => {
    const user = userEvent.setup();
    const view = {
      ...PAYMENT_VIEW,
      configuredKeys: { paystackSecretKey: true, flutterwaveSecretKey: false, flutterwaveWebhookHash: false },
      keyChecks: { ...PAYMENT_VIEW.keyChecks, paystack: { source: 'settings', verifiedAt: '2024-03-05T10:00:00Z', refusals: null } },
    };
    const fetch = mockFetch((_url, init) =>
      init.method === 'PUT' ? jsonResponse(200, { message: 'Payment settings saved', data: { ...view, mode: 'live' } }) : jsonResponse(200, { data: view }),
    );
    renderScreen(<AdminPaymentSettingsPage />);
    const key = await screen.findByLabelText(/Paystack secret key/, { selector: 'input' });
    expect((key as HTMLInputElement).value).toBe('');
    expect(screen.getByText('Verified')).toBeTruthy();

    await user.click(screen.getByLabelText('Live'));
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    expect(await screen.findByText(/in live mode\?/)).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes, save' }));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    const body = JSON.parse(String(fetch.mock.calls.find(([, init]) => init?.method === 'PUT')![1]?.body));
    expect(body).toMatchObject({ provider: 'paystack', mode: 'live', minDeposit: 100, maxDeposit: 500000, paystackSecretKey: '' });
  });

  it('says which keys come from the deployment, why payments are refused, and keeps a refused save on screen', async () => {
    const user = userEvent.setup();
    const problem =
      "Card payments are refused. Live mode takes real money, but the Paystack secret key in the deployment's secrets (PAYSTACK_SECRET_KEY) is a test key (sk_test_…). Enter the live key (sk_live_…), or choose test mode.";
    const refusal =
      'Live mode takes real money, but the Paystack secret key entered is a test key (sk_test_…). Enter the live key (sk_live_…), or choose test mode.';
    const view = {
      ...PAYMENT_VIEW,
      mode: 'live',
      deploymentKeys: { paystackSecretKey: true, flutterwaveSecretKey: false, flutterwaveWebhookHash: false },
      problem,
    };
    mockFetch((_url, init) => (init.method === 'PUT' ? jsonResponse(400, { message: refusal, error: 'Bad Request' }) : jsonResponse(200, { data: view })));
    renderScreen(<AdminPaymentSettingsPage />);
    expect(await screen.findByText('From deployment secrets')).toBeTruthy();
    expect(screen.getByText(problem)).toBeTruthy();
    expect(screen.queryByRole('note', { name: 'Test payments' })).toBeNull();

    await user.type(screen.getByLabelText(/Paystack secret key/, { selector: 'input' }), 'sk_test_123');
    await user.click(screen.getByRole('button', { name: 'Save settings' }));
    // The alert outlives the 1.5 s toast.
    await waitFor(() => expect(screen.getAllByRole('alert').some((alert) => alert.textContent?.includes(refusal))).toBe(true));
  });
});

describe('Payment notices on the dashboard', () => {
  it('say the shop is in test mode, and list test payments refused in live mode', async () => {
    const flagged = {
      total: 1,
      recent: [{ reference: 'dep-abc', provider: 'paystack', amount: '4000.00', userId: 5, email: 'ada@example.com', flaggedAt: '2024-03-05T10:00:00Z' }],
    };
    let view: object = { ...PAYMENT_VIEW, mode: 'test' };
    // The notices do not wait for the dashboard's figures, nor fall with them.
    mockFetch((url) =>
      url.includes('admin/settings/payment') ? jsonResponse(200, { data: view }) : jsonResponse(503, { message: 'Busy', error: 'Service Unavailable' }),
    );
    renderScreen(<AdminDashboardPage />);
    const note = await screen.findByRole('note', { name: 'Test payments' });
    expect(note.textContent).toContain('move no real money');
    expect(within(note).getByRole('link', { name: 'Payment Settings' }).getAttribute('href')).toBe('/admin/payment-settings');
    cleanup();

    view = { ...PAYMENT_VIEW, mode: 'live', flaggedPayments: flagged };
    renderScreen(<AdminDashboardPage />);
    const alert = await screen.findByRole('alert', { name: 'Test payments refused in live mode' });
    expect(alert.textContent).toContain('1 test payment refused in live mode');
    expect(alert.textContent).toMatch(/dep-abc · ada@example\.com · NGN.4,000\.00 · paystack/);
    expect(screen.queryByRole('note', { name: 'Test payments' })).toBeNull();
  });
});

describe('Dashboard', () => {
  it('shows the totals, low provider balances, provider health, stuck orders and recent changes', async () => {
    const dashboard = {
      period: 'day',
      series: [{ bucket: '2024-03-05', deposits: '5000.00', spend: '1200.50', providerCost: '700.25', profit: '500.25', orders: 3, newUsers: 2 }],
      totals: { deposits: '5000.00', spend: '1200.50', providerCost: '700.25', profit: '500.25', orders: 3, newUsers: 2 },
      ordersByStatus: [
        { status: 'Completed', count: 2 },
        { status: 'Pending', count: 1 },
      ],
      pendingPayments: 4,
      lastSync: { catalogue: '2024-03-05T10:00:00Z', orders: null },
      openWarnings: 1,
      // Counted to 1,000 at most: past it the dashboard says 1,000+.
      stuckOrders: {
        total: 1000,
        totalCapped: true,
        data: [
          {
            id: 77,
            userId: 5,
            userEmail: 'ada@example.com',
            serviceId: 3,
            serviceName: 'TikTok Views',
            providerName: 'Panel',
            status: 'Pending',
            submission: 'accepted',
            openSince: '2024-03-01T00:00:00Z',
            expectedSeconds: null,
          },
        ],
      },
      providers: [
        {
          id: 1,
          name: 'Panel',
          currency: 'USD',
          enabled: true,
          balance: '3.50',
          lowBalanceAlert: '10.00',
          lowBalance: true,
          balanceCheckedAt: null,
          catalogueSyncedAt: null,
          lastError: null,
          serviceCount: 4,
        },
      ],
      providerHealth: [
        { id: 1, name: 'Panel', unhealthySince: '2024-03-05T09:00:00Z', lastError: 'SMM provider status: HTTP 502', openOrders: 12, needsAttention: 2 },
      ],
      recentAudit: [
        {
          id: 1,
          action: 'wallet.credit',
          targetType: 'user',
          targetId: '5',
          details: { amount: '5000', reference: 'Bank' },
          actor: { id: 9, fullName: 'Root Admin', email: 'root@example.com' },
          created_at: '2024-03-05T10:00:00Z',
        },
      ],
    };
    const fetch = mockFetch((url) => (url.includes('admin/dashboard') ? jsonResponse(200, { data: dashboard }) : jsonResponse(200, {})));
    renderScreen(<AdminDashboardPage />);
    const totals = await screen.findByRole('region', { name: 'Totals' });
    await waitFor(() => expect(totals.textContent).toMatch(/Deposits.*5,000\.00/));
    expect(totals.textContent).toMatch(/Profit.*500\.25/);
    expect(String(callsTo(fetch, 'admin/dashboard')[0][0])).toBe('/api/v1/admin/dashboard?period=day');
    expect(screen.getByText(/below the low-balance alert/)).toBeTruthy();
    expect(screen.getByText('USD 3.50')).toBeTruthy();
    expect(screen.getByText(/Panel is not answering readably/)).toBeTruthy();
    expect(screen.getByText('Unhealthy')).toBeTruthy();
    expect(screen.getByText(/2 orders need attention/)).toBeTruthy();
    expect(within(screen.getByRole('table', { name: 'Stuck orders' })).getByText('TikTok Views')).toBeTruthy();
    expect(screen.getByRole('heading', { name: /Stuck orders/ }).textContent).toContain('1,000+');
    expect(screen.getByRole('region', { name: 'Now' }).textContent).toMatch(/Stuck orders\s*1,000\+/);
    expect(screen.getByText(/Credited NGN.5,000\.00 to user #5 \(ref Bank\)/)).toBeTruthy();

    await userEvent.setup().click(screen.getByLabelText('Month'));
    await waitFor(() => expect(callsTo(fetch, 'period=month')).toHaveLength(1));
  });
});
