// What keeps a session honest beyond its token: the account a browser tab shows, a suspended
// account's refresh, and answers with tokens or personal data kept out of caches.
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, createAdmin, registerAndLogin, setUserStatus, uniqueIp } from '../../support/api';
import { balanceKobo, fundedUser } from '../fixtures/wallet-fixtures';

const MISMATCH = { message: 'This tab is signed in as a different account. Reload the page to continue.', error: 'Account Mismatch', code: 'account_mismatch' };
const SUSPENDED = { message: 'Your account is suspended. Contact support.', error: 'Account Suspended' };

describe('the account a tab shows (X-Account-Id)', () => {
  it("refuses a call made with another account's token, and spends nothing", async () => {
    const chidi = await registerAndLogin({ fullName: 'Chidi' });
    const bola = await fundedUser(500_000n);
    // Chidi's tab, holding Bola's token from shared storage, tries to order.
    const order = await call('user/orders', {
      token: bola.accessToken,
      headers: { 'X-Account-Id': String(chidi.id), 'Idempotency-Key': crypto.randomUUID() },
      body: { serviceId: 1, link: 'https://instagram.com/chidi', quantity: 100 },
    });
    expect(order).toMatchObject({ status: 409, body: MISMATCH });
    expect(await balanceKobo(bola.id)).toBe(500_000n);
    expect(await call('user/getCurrentProfile', { token: bola.accessToken, headers: { 'X-Account-Id': String(chidi.id) } })).toMatchObject({
      status: 409,
      body: MISMATCH,
    });
  });

  it("lets the call through when the header names the token's own account, or is absent (scripts)", async () => {
    const account = await registerAndLogin();
    expect((await call('user/getCurrentProfile', { token: account.accessToken, headers: { 'X-Account-Id': String(account.id) } })).status).toBe(200);
    expect((await call('user/getCurrentProfile', { token: account.accessToken })).status).toBe(200);
  });
});

describe('a suspended account', () => {
  it('is told so on refresh, and the same refresh token works again once reactivated', async () => {
    const account = await registerAndLogin();
    await setUserStatus(account.id, 'suspended');
    expect(await call('auth/refresh', { body: { refreshToken: account.refreshToken } })).toMatchObject({ status: 403, body: SUSPENDED });
    await setUserStatus(account.id, 'active');
    expect((await call('auth/refresh', { body: { refreshToken: account.refreshToken } })).status).toBe(200);
  });

  it('is told so on refresh when an administrator suspended it, which also ended its sessions', async () => {
    const [admin, account] = await Promise.all([createAdmin(), registerAndLogin()]);
    expect((await call(`admin/users/${account.id}/suspend`, { method: 'POST', token: admin.accessToken })).status).toBe(200);
    expect(await call('auth/refresh', { body: { refreshToken: account.refreshToken } })).toMatchObject({ status: 403, body: SUSPENDED });
    await call(`admin/users/${account.id}/reactivate`, { method: 'POST', token: admin.accessToken });
    expect((await call('auth/refresh', { body: { refreshToken: account.refreshToken } })).status).toBe(401);
  });
});

describe('Cache-Control', () => {
  it('is no-store on answers with tokens or personal data, errors included', async () => {
    const account = await registerAndLogin();
    const answers = [
      await call('auth/login', { body: { email: account.email, password: account.password } }),
      await call('auth/refresh', { body: { refreshToken: account.refreshToken } }),
      await call('user/getCurrentProfile', { token: account.accessToken }),
      await call('user/getWalletBalance', { token: account.accessToken }),
      await call('user/getCurrentProfile'),
      await call('no/such/call'),
    ];
    for (const answer of answers) expect(answer.headers.get('cache-control')).toBe('no-store');
    const reseller = await SELF.fetch('http://shop.test/api/v2?key=nope&action=balance', { headers: { 'cf-connecting-ip': uniqueIp() } });
    expect(reseller.headers.get('cache-control')).toBe('no-store');
  });

  it('leaves the public catalogue, settings and rates cacheable', async () => {
    for (const path of ['services', 'services/categories', 'settings/public', 'rates']) {
      const answer = await call(path);
      expect(answer.status, path).toBe(200);
      expect(answer.headers.get('cache-control'), path).toBeNull();
    }
  });
});
