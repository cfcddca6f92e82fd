// New passwords that are common or easy to guess are refused wherever one is chosen:
// sign-up, password change and the emailed reset link.
import { describe, expect, it } from 'vitest';
import { call, login, registerAndLogin, unique } from '../../support/api';
import { emailedResetToken } from '../fixtures/mailbox';

const TOO_GUESSABLE = { message: 'This password is too common or easy to guess. Try a longer phrase or add unusual words.', error: 'Bad Request' };
const WEAK = ['password', '12345678', 'qwerty123', 'iloveyou1', 'P@ssw0rd', 'drowssap', 'aaaaaaaaaa', 'abcdefgh1'];

const register = (fullName: string, email: string, password: string) => call('auth/register', { body: { fullName, email, password, userType: 2 } });

describe('choosing a password', () => {
  it.each(WEAK)('refuses "%s" at sign-up and creates no account', async (password) => {
    const email = `${unique()}@example.com`;
    expect(await register('Chidi Okafor', email, password)).toMatchObject({ status: 400, body: TOO_GUESSABLE });
    expect((await call('auth/login', { body: { email, password } })).status).toBe(401);
  });

  it("refuses the person's own name and email as a password", async () => {
    const email = `chidi.okafor.${unique()}@example.com`;
    expect(await register('Chidi Okafor', email, 'chidiokafor')).toMatchObject({ status: 400, body: TOO_GUESSABLE });
  });

  it('keeps the length rule and its words ahead of the guessability check', async () => {
    expect((await register('Chidi Okafor', `${unique()}@example.com`, 'pass')).body.message).toBe('Password must be at least 8 characters');
  });

  it('accepts a passphrase', async () => {
    expect((await register('Chidi Okafor', `${unique()}@example.com`, 'yam pepper soup on friday')).status).toBe(201);
  });

  it('refuses a guessable new password on change, and the old one keeps working', async () => {
    const account = await registerAndLogin();
    const change = (password: string) =>
      call('user/changePassword', { method: 'PUT', token: account.accessToken, body: { oldPassword: account.password, password } });
    expect(await change('password123')).toMatchObject({ status: 400, body: TOO_GUESSABLE });
    // A wrong current password is named first, whatever the new one.
    const wrongOld = await call('user/changePassword', {
      method: 'PUT',
      token: account.accessToken,
      body: { oldPassword: 'not-my-password-9', password: '12345678' },
    });
    expect(wrongOld.body.message).toBe('Current password is incorrect');
    await login(account.email, account.password);
  });

  it('refuses a guessable password through a reset link, which stays usable for a better one', async () => {
    const account = await registerAndLogin();
    await call('auth/forgot-password', { body: { email: account.email } });
    const token = await emailedResetToken(account.email);
    const reset = (password: string) =>
      call('auth/reset-password', {
        body: new URLSearchParams({ password }).toString(),
        token,
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
      });
    expect(await reset('qwerty123')).toMatchObject({ status: 400, body: TOO_GUESSABLE });
    expect((await reset('velvet-okra-lantern')).status).toBe(200);
    await login(account.email, 'velvet-okra-lantern');
  });
});
