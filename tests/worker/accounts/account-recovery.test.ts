// Recovering an account takes back every way in: a reset (and, unless the owner keeps them, a password
// change) stops each session, refresh token and reseller API key, and the owner's mailbox says which keys.
import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { call, registerAndLogin, type TestAccount } from '../../support/api';
import { emailedResetToken, mailsTo } from '../fixtures/mailbox';

async function balanceWith(key: string) {
  const response = await SELF.fetch('http://shop.test/api/v2', { method: 'POST', body: new URLSearchParams({ key, action: 'balance' }) });
  return response.json();
}

async function newKey(owner: TestAccount, name: string): Promise<string> {
  const created = await call('user/api-keys', { token: owner.accessToken, body: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.key;
}

const reset = (token: string, password: string) =>
  call('auth/reset-password', {
    body: new URLSearchParams({ password }).toString(),
    token,
    headers: { 'content-type': 'application/x-www-form-urlencoded' },
  });

describe('a password reset', () => {
  it('revokes the API key a squatter made: its next /api/v2 call is refused, and the email and API page say so', async () => {
    const squatter = await registerAndLogin();
    const key = await newKey(squatter, 'Squatter tool');
    expect(await balanceWith(key)).toMatchObject({ currency: 'NGN' });

    await call('auth/forgot-password', { body: { email: squatter.email } });
    expect((await reset(await emailedResetToken(squatter.email), 'owners-own-passphrase-7')).status).toBe(200);

    expect(await balanceWith(key)).toEqual({ error: 'Invalid API key' });
    expect((await call('auth/refresh', { body: { refreshToken: squatter.refreshToken } })).status).toBe(401);
    expect((await call('user/getCurrentProfile', { token: squatter.accessToken })).status).toBe(401);

    const notice = (await mailsTo(squatter.email)).at(-1)!;
    expect(notice.subject).toBe('Your password was changed');
    expect(notice.text).toContain(`- Squatter tool (${key.slice(0, 8)}…)`);
    expect(notice.text).toContain('Every device that was signed in has been signed out.');

    const owner = await call('auth/login', { body: { email: squatter.email, password: 'owners-own-passphrase-7' } });
    const keys = await call('user/api-keys', { token: owner.body.accessToken });
    expect(keys.body.data).toEqual([]);
    expect(keys.body.revoked).toMatchObject([{ name: 'Squatter tool', prefix: key.slice(0, 8), revoked_reason: 'password_reset' }]);
  });
});

describe('a password change', () => {
  const change = (account: TestAccount, body: Record<string, unknown>) => call('user/changePassword', { method: 'PUT', token: account.accessToken, body });

  it('revokes the API keys by default and answers which', async () => {
    const account = await registerAndLogin();
    const key = await newKey(account, 'Panel script');
    const changed = await change(account, { oldPassword: account.password, password: 'a-new-long-phrase-9' });
    expect(changed.body).toEqual({ message: 'Password updated successfully', revokedKeys: [{ name: 'Panel script', prefix: key.slice(0, 8) }] });
    expect(await balanceWith(key)).toEqual({ error: 'Invalid API key' });
    expect((await mailsTo(account.email)).at(-1)!.text).toContain('- Panel script');
  });

  it('keeps the API keys when the owner asks to, and still signs every device out', async () => {
    const account = await registerAndLogin();
    const key = await newKey(account, 'Kept tool');
    const changed = await change(account, { oldPassword: account.password, password: 'a-new-long-phrase-9', revokeApiKeys: false });
    expect(changed.body).toEqual({ message: 'Password updated successfully', revokedKeys: [] });
    expect(await balanceWith(key)).toMatchObject({ currency: 'NGN' });
    expect((await call('user/getCurrentProfile', { token: account.accessToken })).status).toBe(401);
    expect((await mailsTo(account.email)).at(-1)!.text).toContain('No reseller API keys were revoked.');
  });

  it('refuses a revokeApiKeys that is not true or false, changing nothing', async () => {
    const account = await registerAndLogin();
    const refused = await change(account, { oldPassword: account.password, password: 'a-new-long-phrase-9', revokeApiKeys: 'yes' });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('revokeApiKeys must be true or false');
    expect((await call('user/getCurrentProfile', { token: account.accessToken })).status).toBe(200);
  });
});
