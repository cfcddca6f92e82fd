// Payment keys on the admin screens against a stubbed API: each key says when its provider last
// accepted it or why it fails, can be checked again or cleared, and a provider refusing the shop
// is the dashboard's first alert.

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { describeAuditEntry } from '@/features/admin/audit/auditText';
import AdminDashboardPage from '@/features/admin/dashboard/AdminDashboardPage';
import AdminPaymentSettingsPage from '@/features/admin/settings/AdminPaymentSettingsPage';
import { AuthContext, type AuthContextValue } from '@/lib/authContext';
import { TOKEN_KEY } from '@/lib/session';
import { jsonResponse, mockFetch, retype, sessionUser, WithQuery } from '../helpers';

const ME = sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', userType: 1 });
const KEYS = (paystackSecretKey: boolean) => ({ paystackSecretKey, flutterwaveSecretKey: false, flutterwaveWebhookHash: false });
const UNCHECKED = { source: null, verifiedAt: null, refusals: null };
const REFUSED = { count: 3, lastError: 'Invalid key', lastAt: '2024-03-05T11:00:00Z' };
const VIEW = {
  provider: 'paystack',
  mode: 'test',
  minDeposit: 100,
  maxDeposit: 500000,
  configuredKeys: KEYS(true),
  deploymentKeys: KEYS(true),
  keyChecks: { paystack: { source: 'settings', verifiedAt: null, refusals: REFUSED }, flutterwave: UNCHECKED },
  problem: null,
  flaggedPayments: { total: 0, recent: [] },
};

function renderScreen(element: ReactNode) {
  window.localStorage.setItem(TOKEN_KEY, 'admin-token');
  render(
    <WithQuery>
      <AuthContext.Provider value={{ user: ME, userType: 1, loading: false } as AuthContextValue}>
        <MemoryRouter initialEntries={['/admin']}>{element}</MemoryRouter>
      </AuthContext.Provider>
    </WithQuery>,
  );
}

const bodyOf = (init: RequestInit | undefined) => JSON.parse(String(init?.body));

describe('Payment Settings keys', () => {
  it('say why a key fails, show a refused check on screen, and clear only after a confirmation', async () => {
    const user = userEvent.setup();
    const refusal = 'Paystack refused the secret key saved in Payment Settings: Invalid key. Enter a working key.';
    const cleared = {
      ...VIEW,
      configuredKeys: KEYS(false),
      keyChecks: { ...VIEW.keyChecks, paystack: { source: 'deployment', verifiedAt: '2024-03-05T12:00:00Z', refusals: null } },
    };
    const fetch = mockFetch((url, init) => {
      if (url.endsWith('admin/settings/payment/check')) return jsonResponse(400, { message: refusal, error: 'Bad Request' });
      if (init.method === 'PUT') return jsonResponse(200, { message: 'Payment settings saved', data: cleared });
      return jsonResponse(200, { data: VIEW });
    });
    renderScreen(<AdminPaymentSettingsPage />);
    expect(await screen.findByText('Refused')).toBeTruthy();
    expect(screen.getByText(/Paystack refused the shop's calls 3 times since, the last at .*: “Invalid key”/)).toBeTruthy();
    expect(screen.getByText('Not verified with Paystack since it was set')).toBeTruthy();
    expect(screen.queryByText('Configured')).toBeNull();

    await user.click(screen.getByRole('button', { name: 'Check now: the Paystack secret key' }));
    await waitFor(() => expect(screen.getAllByRole('alert').some((alert) => alert.textContent?.includes(refusal))).toBe(true));
    expect(bodyOf(fetch.mock.calls.find(([url]) => String(url).endsWith('/check'))![1])).toEqual({ provider: 'paystack' });

    // An unsaved edit of the form is not sent along with a clear.
    await retype(user, screen.getByLabelText('Minimum deposit'), '999');
    await user.click(screen.getByRole('button', { name: 'Clear the saved Paystack secret key' }));
    expect(await screen.findByText('Clear the saved Paystack secret key?')).toBeTruthy();
    await user.click(screen.getByRole('button', { name: 'Yes, clear' }));
    await waitFor(() => expect(fetch.mock.calls.some(([, init]) => init?.method === 'PUT')).toBe(true));
    expect(bodyOf(fetch.mock.calls.find(([, init]) => init?.method === 'PUT')![1])).toEqual({
      provider: 'paystack',
      mode: 'test',
      minDeposit: 100,
      maxDeposit: 500000,
      clearKeys: ['paystackSecretKey'],
    });
    expect(await screen.findByText('Verified')).toBeTruthy();
    expect(screen.getByText('From deployment secrets')).toBeTruthy();
    expect(screen.getByText(/Paystack accepted it/)).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Clear the saved Paystack secret key' })).toBeNull();
  });
});

describe('Payment Settings keys in use', () => {
  it('call a key the provider answers payments with "In use", with when, though nobody pressed Check now', async () => {
    const inUse = {
      ...VIEW,
      keyChecks: { ...VIEW.keyChecks, paystack: { source: 'settings', verifiedAt: null, usedAt: '2024-03-05T12:00:00Z', refusals: null } },
    };
    mockFetch(() => jsonResponse(200, { data: inUse }));
    renderScreen(<AdminPaymentSettingsPage />);
    expect(await screen.findByText('In use')).toBeTruthy();
    expect(screen.getByText(/Paystack answered a payment made with it/)).toBeTruthy();
    expect(screen.queryByText('Not verified')).toBeNull();
    expect(screen.queryByText(/Not verified with Paystack/)).toBeNull();
  });
});

describe('the dashboard', () => {
  it('alerts first that the provider refuses the shop, with the count and the last reason', async () => {
    const dashboard = {
      period: 'day',
      series: [],
      totals: { deposits: '0.00', spend: '0.00', providerCost: '0.00', profit: '0.00', orders: 0, newUsers: 0 },
      ordersByStatus: [],
      pendingPayments: 0,
      lastSync: { catalogue: null, orders: null },
      openWarnings: 0,
      stuckOrders: { total: 0, data: [] },
      providers: [],
      providerHealth: [],
      recentAudit: [],
      paymentRefusals: { provider: 'paystack', label: 'Paystack', ...REFUSED, verifiedAt: '2024-03-05T09:00:00Z' },
    };
    mockFetch((url) => (url.includes('admin/dashboard') ? jsonResponse(200, { data: dashboard }) : jsonResponse(200, { data: { ...VIEW, mode: 'live' } })));
    renderScreen(<AdminDashboardPage />);
    const alert = await screen.findByRole('alert', { name: 'Card payments refused' });
    expect(alert.textContent).toMatch(/Paystack refused the shop's calls 3 times since its key was last verified \(.+\); the last at .+: “Invalid key”/);
    expect(alert.querySelector('a')?.getAttribute('href')).toBe('/admin/payment-settings');
  });
});

describe('the audit log', () => {
  it('says which keys were set or cleared and what else changed, never a key', () => {
    const entry = (details: Record<string, unknown>) =>
      describeAuditEntry(
        {
          id: 1,
          action: 'settings.payment.update',
          targetType: 'settings',
          targetId: 'payment',
          details,
          actor: null,
          created_at: '2024-03-05T10:00:00Z',
        } as never,
        'NGN',
      );
    const details = {
      provider: 'paystack',
      mode: 'live',
      keysSet: ['paystackSecretKey'],
      keysCleared: ['flutterwaveWebhookHash'],
      changes: { mode: { from: 'test', to: 'live' }, maxDeposit: { from: 5000000, to: 1000000 } },
    };
    expect(entry(details).replaceAll('\u00a0', ' ')).toBe(
      'Payment settings: set the Paystack secret key; cleared the Flutterwave webhook hash; mode test → live; maximum deposit NGN 5,000,000.00 → NGN 1,000,000.00',
    );
    expect(entry({ ...details, keysSet: [], keysCleared: [], changes: {} })).toBe('Saved the payment settings unchanged');
    expect(entry({ keysChanged: [] })).toBe('Changed the payment settings');
  });
});
