// The API page against a stubbed API: keys are listed by prefix only, a new or rotated key is
// shown once (and copied), revoking asks first, keys stopped lately say when and why, an unconfirmed
// address cannot make keys, and the documentation shows each type's fields.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import ApiPage from '@/features/user/ApiPage';
import { AuthContext } from '@/lib/authContext';
import { formatDateTime } from '@/lib/format';
import type { SessionUser } from '@/lib/session';
import { ADA, renderApp } from '../app';
import { authStub, jsonResponse, mockFetch, renderScreen } from '../helpers';

const BOT = { id: 3, name: 'Telegram bot', prefix: '3f9a1c2b', created_at: '2024-03-05T10:00:00Z', last_used_at: null, last_get_write_at: null };
const PANEL = {
  id: 4,
  name: 'Child panel',
  prefix: 'aa00bb11',
  created_at: '2024-03-06T10:00:00Z',
  last_used_at: new Date().toISOString(),
  last_get_write_at: null,
};
const LIMITS = { perMinute: { add: 600, status: 1200, services: 60, balance: 600 }, writesOverGet: true };
const NEW_KEY = 'c0ffee'.padEnd(64, '0');
const ROTATED_KEY = 'beef'.padEnd(64, '1');

const UNVERIFIED_REFUSAL = 'Confirm your email address first: open the link we emailed you, or send a new one.';

function stubApi({
  live = [BOT, PANEL] as unknown[],
  revoked = [] as unknown[],
  limits = LIMITS,
  createAnswer = () => jsonResponse(201, { message: 'API key created', data: NEW }),
} = {}) {
  return mockFetch((url, init) => {
    if (url.endsWith('/user/webhooks')) return jsonResponse(200, { message: 'ok', data: [], deliveries: [] });
    if (url.endsWith('/rotate')) return jsonResponse(200, { message: 'API key rotated', data: { ...BOT, key: ROTATED_KEY } });
    if (init.method === 'DELETE') return jsonResponse(200, { message: 'API key revoked' });
    if (init.method === 'POST') return createAnswer();
    return jsonResponse(200, { message: 'ok', data: live, revoked, limits });
  });
}
const NEW = { ...BOT, id: 5, name: 'Reseller', prefix: NEW_KEY.slice(0, 8), key: NEW_KEY };

/** The page on its own against the stubbed API, signed in as `me`; returns the fetch mock, the session and a user to drive the page. */
function openPage(me: SessionUser = ADA, api: Parameters<typeof stubApi>[0] = {}) {
  const fetch = stubApi(api);
  const auth = authStub({ user: me, userType: 2 });
  renderScreen(
    <AuthContext.Provider value={auth}>
      <ApiPage />
    </AuthContext.Provider>,
    '/user/api',
    'user-token',
  );
  return { fetch, auth, user: userEvent.setup() };
}

describe('API page', () => {
  it('lists keys by prefix and usage, never their secret', async () => {
    openPage();
    const list = await screen.findByRole('list', { name: 'API keys' });
    const rows = within(list).getAllByRole('listitem');
    expect(rows.map((row) => row.textContent)).toEqual([expect.stringContaining('Telegram bot'), expect.stringContaining('Child panel')]);
    expect(rows[0].textContent).toContain('3f9a1c2b…');
    expect(rows[0].textContent).toContain('Never used');
    expect(rows[1].textContent).toMatch(/Last used just now/);
    expect(within(list).queryByText(/over GET/)).toBeNull();
  });

  it('tells the owner of a key that placed orders over GET to move the tool to POST', async () => {
    openPage(ADA, { live: [BOT, { ...PANEL, last_get_write_at: new Date().toISOString() }] });
    const rows = within(await screen.findByRole('list', { name: 'API keys' })).getAllByRole('listitem');
    expect(rows[0].textContent).not.toMatch(/over GET/);
    expect(rows[1].textContent).toMatch(/Placed an order, refill or cancel over GET just now\. Set the tool to POST, with the key in the body/);
  });

  it('creates a key, shows it once with a copy button, and forgets it when closed', async () => {
    const { fetch, user } = openPage();
    await screen.findByRole('list', { name: 'API keys' });

    await user.click(screen.getByRole('button', { name: 'Create key' }));
    expect(await screen.findByText('Name is required')).toBeTruthy();
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);

    await user.type(screen.getByLabelText('Key name'), 'Reseller');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your new API key' });
    const [url, init] = fetch.mock.calls.find(([, i]) => i?.method === 'POST')!;
    expect(url).toBe('/api/v1/user/api-keys');
    expect(JSON.parse(String(init?.body))).toEqual({ name: 'Reseller' });
    expect((within(dialog).getByLabelText('Reseller') as HTMLInputElement).value).toBe(NEW_KEY);
    await user.click(within(dialog).getByRole('button', { name: 'Copy API key' }));
    expect(await navigator.clipboard.readText()).toBe(NEW_KEY);

    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
    expect(document.body.textContent).not.toContain(NEW_KEY);
  });

  it('rotates and revokes only after a confirmation', async () => {
    const { fetch, user } = openPage();
    await screen.findByRole('list', { name: 'API keys' });

    await user.click(screen.getByRole('button', { name: 'Revoke Telegram bot' }));
    await user.click(await screen.findByRole('button', { name: 'No' }));
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'DELETE')).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Revoke Telegram bot' }));
    await user.click(await screen.findByRole('button', { name: 'Revoke' }));
    await waitFor(() => expect(fetch.mock.calls.some(([url, init]) => url === '/api/v1/user/api-keys/3' && init?.method === 'DELETE')).toBe(true));

    await user.click(screen.getByRole('button', { name: 'Rotate Telegram bot' }));
    await user.click(await screen.findByRole('button', { name: 'Rotate' }));
    const dialog = await screen.findByRole('dialog', { name: 'Your rotated API key' });
    expect(fetch.mock.calls.some(([url, init]) => url === '/api/v1/user/api-keys/3/rotate' && init?.method === 'POST')).toBe(true);
    expect((within(dialog).getByLabelText('Telegram bot') as HTMLInputElement).value).toBe(ROTATED_KEY);
    expect(dialog.textContent).toContain('The previous key of “Telegram bot” no longer works.');
  });

  it('lists the keys stopped lately with when and why, apart from the live ones', async () => {
    const revokedAt = '2024-03-07T09:30:00Z';
    openPage(ADA, {
      revoked: [
        { id: 7, name: 'Old bot', prefix: 'dead0001', revoked_at: revokedAt, revoked_reason: 'password_reset' },
        { id: 6, name: 'Test script', prefix: 'dead0002', revoked_at: revokedAt, revoked_reason: 'password_change' },
        { id: 2, name: 'Promo panel', prefix: 'dead0003', revoked_at: revokedAt, revoked_reason: 'promotion' },
        { id: 1, name: 'First key', prefix: 'dead0004', revoked_at: revokedAt, revoked_reason: 'owner' },
      ],
    });
    const revoked = await screen.findByRole('list', { name: 'Revoked keys' });
    const when = formatDateTime(revokedAt);
    expect(
      within(revoked)
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual([
      `Old botdead0001…·Revoked when your password was reset on ${when}`,
      `Test scriptdead0002…·Revoked when your password was changed on ${when}`,
      `Promo paneldead0003…·Revoked when the account became an administrator on ${when}`,
      `First keydead0004…·Revoked by you on ${when}`,
    ]);
    // Stopped keys have nothing left to rotate or revoke.
    expect(within(revoked).queryAllByRole('button')).toHaveLength(0);
    expect(within(screen.getByRole('list', { name: 'API keys' })).getAllByRole('listitem')).toHaveLength(2);
  });

  it('says no key is in use, not that there never was one, when a reset stopped them all', async () => {
    openPage(ADA, {
      live: [],
      revoked: [{ id: 7, name: 'Old bot', prefix: 'dead0001', revoked_at: '2024-03-07T09:30:00Z', revoked_reason: 'password_reset' }],
    });
    expect(await screen.findByText('No API keys in use')).toBeTruthy();
    expect(screen.queryByText('No API keys yet')).toBeNull();
  });

  it('shows no revoked list when no key stopped lately', async () => {
    openPage();
    await screen.findByRole('list', { name: 'API keys' });
    expect(screen.queryByRole('heading', { name: 'Revoked keys' })).toBeNull();
  });

  it('explains that an unconfirmed address cannot make keys, with the form shut', async () => {
    const { fetch } = openPage({ ...ADA, emailVerified: false });
    const notice = await screen.findByRole('alert', { name: 'Confirm your email address to create API keys' });
    expect(notice.textContent).toContain('Confirm your email address to create or rotate API keys');
    expect(notice.textContent).toContain('ada@example.com');
    expect(screen.getByLabelText('Key name').matches(':disabled')).toBe(true);
    expect(screen.getByRole('button', { name: 'Create key' }).matches(':disabled')).toBe(true);
    await screen.findByRole('list', { name: 'API keys' });
    expect((screen.getByRole('button', { name: 'Rotate Telegram bot' }) as HTMLButtonElement).disabled).toBe(true);
    // Revoking stays possible: it only takes power away.
    expect((screen.getByRole('button', { name: 'Revoke Telegram bot' }) as HTMLButtonElement).disabled).toBe(false);
    expect(fetch.mock.calls.filter(([, init]) => init?.method === 'POST')).toHaveLength(0);
  });

  it("says the server's refusal when the address turns out unconfirmed, and reads the profile again", async () => {
    const { auth, user } = openPage(ADA, {
      createAnswer: () => jsonResponse(403, { message: UNVERIFIED_REFUSAL, error: 'Forbidden', code: 'email_unverified' }),
    });
    await user.type(screen.getByLabelText('Key name'), 'Reseller');
    await user.click(screen.getByRole('button', { name: 'Create key' }));
    const notice = await screen.findByRole('alert', { name: 'Confirm your email address to create API keys' });
    expect(notice.textContent).toContain(UNVERIFIED_REFUSAL);
    expect(auth.reloadProfile).toHaveBeenCalled();
    expect(screen.queryByRole('dialog')).toBeNull();
    expect(screen.getByLabelText('Key name').matches(':disabled')).toBe(true);
  });

  it("documents the endpoint, every action with an example answer, each type's fields, and curl and PHP examples", async () => {
    const { user } = openPage();
    const endpoint = `${window.location.origin}/api/v2`;
    expect(screen.getAllByText(endpoint).length).toBeGreaterThan(0);
    const actions = screen.getByRole('navigation', { name: 'API actions' });
    expect(
      within(actions)
        .getAllByRole('link')
        .map((link) => link.textContent),
    ).toEqual([
      'Service list',
      'Add order',
      'Order status',
      'Multiple orders status',
      'Create refill',
      'Create multiple refill',
      'Get refill status',
      'Get multiple refill status',
      'Create cancel',
      'User balance',
    ]);
    expect(screen.getByLabelText('User balance example response').textContent).toContain('"currency": "NGN"');

    const addParams = () =>
      within(screen.getByRole('table', { name: 'Add order parameters' }))
        .getAllByRole('row')
        .map((row) => row.firstElementChild?.textContent);
    const everyType = ['Parameter', 'key', 'action', 'service', 'request_id (optional)'];
    expect(addParams()).toEqual([...everyType, 'link', 'quantity', 'runs (optional)', 'interval (optional)']);
    await user.selectOptions(screen.getByLabelText('Service type'), 'Subscriptions');
    expect(addParams()).toEqual([...everyType, 'username', 'min', 'max', 'posts (optional)', 'old_posts (optional)', 'delay', 'expiry (optional)']);

    // The operator's limits and GET rule as the shop applies them, the headers every answer carries, the protocol's words.
    expect(await screen.findByText(/per minute: 600 orders, refills and cancels together, 1,200 status checks/)).toBeTruthy();
    expect(screen.getByText(/X-RateLimit-Remaining/).closest('p')?.textContent).toMatch(/Retry-After/);
    expect(screen.getByText(/or GET with the fields in the query string\. Prefer POST for add, refill and cancel/)).toBeTruthy();
    expect(screen.getByText(/An order not yet passed to our supplier is Pending/)).toBeTruthy();

    expect(screen.getByLabelText('curl example').textContent).toContain(`curl -X POST '${endpoint}'`);
    await user.click(screen.getByRole('tab', { name: 'PHP' }));
    expect(screen.getByLabelText('PHP example').textContent).toContain(`curl_init('${endpoint}')`);
  });

  it('says writes over GET are refused where the operator refuses them', async () => {
    openPage(ADA, { limits: { ...LIMITS, writesOverGet: false } });
    expect(await screen.findByText(/add, refill and cancel over GET are refused with HTTP 405/)).toBeTruthy();
  });
});

describe('finding the API page', () => {
  it("is linked from a user's profile, at /user/api, and leaves the tab row as it is", async () => {
    const user = userEvent.setup();
    mockFetch((url) => {
      if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { message: 'ok', data: ADA });
      if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: 2500 });
      if (url.includes('user/api-keys')) return jsonResponse(200, { message: 'ok', data: [], revoked: [] });
      if (url.includes('user/webhooks')) return jsonResponse(200, { message: 'ok', data: [], deliveries: [] });
      return jsonResponse(200, {});
    });
    const router = renderApp('/user/profile', ADA);
    await user.click(await screen.findByRole('link', { name: 'API keys and docs' }));
    expect(await screen.findByRole('heading', { name: 'API', level: 1 })).toBeTruthy();
    expect(router.state.location.pathname).toBe('/user/api');
    expect(await screen.findByText('No API keys yet')).toBeTruthy();
    const tabs = within(screen.getByRole('navigation', { name: 'User area' })).getAllByRole('link');
    expect(tabs.map((tab) => tab.textContent)).toEqual(['Services', 'Orders', 'Transactions', 'Profile']);
  });
});
