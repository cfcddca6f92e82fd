import { env } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { SignJWT } from 'jose';
import { describe, expect, it } from 'vitest';
import { emailOutbox, passwordResets, refreshTokens, sessions, users } from '../../../drizzle/schema';
import { sha256Hex } from '../../../worker/lib/crypto';
import { REFRESH_GRACE_SECONDS } from '../../../worker/services/accounts/auth';
import { signAccessToken } from '../../../worker/services/accounts/tokens';
import { call, createAdmin, login, registerAndLogin, setUserStatus, unique, withDb, withoutRequestId } from '../../support/api';
import { emailedResetToken } from '../fixtures/mailbox';

const register = (body: unknown) => call('auth/register', { body });

describe('POST auth/register', () => {
  it('creates a type-2 account whatever userType is sent, with a derived unique username and an empty wallet', async () => {
    const email = `${unique()}@Example.COM`;
    const response = await register({ fullName: 'Ada Obi', email, password: 'password-123', userType: 1 });
    expect(response.status).toBe(201);
    expect(response.body.message).toBe('Account created successfully');
    expect(response.body.user).toMatchObject({ fullName: 'Ada Obi', email: email.toLowerCase(), userType: 2, status: 'active' });
    expect(response.body.user).not.toHaveProperty('passwordHash');
    const second = await register({ fullName: 'Ada Two', email: `${email.split('@')[0]}@other.org`, password: 'password-123' });
    expect(second.status).toBe(201);
    expect(second.body.user.username).not.toBe(response.body.user.username);
    const profile = await login(email.toLowerCase(), 'password-123');
    const me = await call('user/getCurrentProfile', { token: profile.accessToken });
    expect(me.body.data.wallet).toEqual({ balance: '0.00' });
  });

  it.each([
    [{ email: 'a@b.co', password: 'password-1' }, 'Full name is required'],
    [{ fullName: '   ', email: 'a@b.co', password: 'password-1' }, 'Full name is required'],
    [{ fullName: 'A', password: 'password-1' }, 'Email is required'],
    [{ fullName: 'A', email: '', password: 'password-1' }, 'Email is required'],
    [{ fullName: 'A', email: 'not-an-email', password: 'password-1' }, 'Invalid email address'],
    [{ fullName: 'A', email: 'a@b.c', password: 'password-1' }, 'Invalid email address'],
    [{ fullName: 'A', email: 'a@b.co' }, 'Password is required'],
    [{ fullName: 'A', email: 'a@b.co', password: '' }, 'Password is required'],
    [{ fullName: 'A', email: 'a@b.co', password: 'short' }, 'Password must be at least 8 characters'],
    [{}, 'Full name is required'],
  ])('rejects %j with "%s" and writes nothing', async (body, message) => {
    const response = await register(body);
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message, error: 'Bad Request' });
  });

  it('refuses a second registration of the same email, in any case, with 409', async () => {
    const email = `${unique()}@example.com`;
    expect((await register({ fullName: 'One', email, password: 'kettle-copper-41' })).status).toBe(201);
    const again = await register({ fullName: 'Two', email: email.toUpperCase(), password: 'kettle-copper-41' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ message: 'Email already registered', error: 'Conflict' });
    const rows = await withDb((db) => db.select().from(users).where(eq(users.email, email)));
    expect(rows).toHaveLength(1);
  });

  it('answers malformed JSON with a 400, never a 500', async () => {
    const response = await call('auth/register', { body: '{"fullName": ', headers: { 'content-type': 'application/json' } });
    expect(response.status).toBe(400);
    expect(response.body).toMatchObject({ message: 'Malformed JSON body.', error: 'Bad Request' });
  });
});

describe('POST auth/login', () => {
  it('answers tokens, the user and a message, and records last_login', async () => {
    const account = await registerAndLogin({ fullName: 'Login Person' });
    const response = await call('auth/login', { body: { email: account.email, password: account.password } });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Login successful');
    expect(typeof response.body.accessToken).toBe('string');
    expect(typeof response.body.refreshToken).toBe('string');
    expect(Object.keys(response.body.user).sort()).toEqual([
      'created_at',
      'email',
      'emailVerified',
      'fullName',
      'id',
      'last_login',
      'status',
      'userType',
      'username',
    ]);
    expect(response.body.user.last_login).not.toBeNull();
    const cookie = response.headers.get('set-cookie') ?? '';
    expect(cookie).toMatch(/refresh_token=/);
    expect(cookie).toMatch(/HttpOnly/);
    expect(cookie).toMatch(/Secure/);
    expect(cookie).toMatch(/SameSite=Lax/);
  });

  it('gives one message for a wrong password and an unknown email', async () => {
    const account = await registerAndLogin();
    const wrongPassword = await call('auth/login', { body: { email: account.email, password: 'nope-nope-nope' } });
    const unknownEmail = await call('auth/login', { body: { email: `${unique()}@example.com`, password: 'whatever-1' } });
    expect(wrongPassword.status).toBe(401);
    expect(unknownEmail.status).toBe(401);
    expect(withoutRequestId(wrongPassword.body)).toEqual(withoutRequestId(unknownEmail.body));
    expect(wrongPassword.body.message).toBe('Invalid email or password');
  });

  it('validates input with the spec messages', async () => {
    expect((await call('auth/login', { body: { password: 'x' } })).body.message).toBe('Email is required');
    expect((await call('auth/login', { body: { email: 'bad', password: 'x' } })).body.message).toBe('Invalid email address');
    expect((await call('auth/login', { body: { email: 'a@b.co' } })).body.message).toBe('Password is required');
  });

  it('refuses suspended users with 403 and says so', async () => {
    const account = await registerAndLogin();
    await setUserStatus(account.id, 'suspended');
    const response = await call('auth/login', { body: { email: account.email, password: account.password } });
    expect(response.status).toBe(403);
    expect(response.body).toMatchObject({ message: 'Your account is suspended. Contact support.', error: 'Account Suspended', code: 'account_suspended' });
  });
});

describe('access tokens and guards', () => {
  it('rejects missing, forged and expired tokens with the spec 401', async () => {
    const account = await registerAndLogin();
    const forged = await new SignJWT({ typ: 2, sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(account.id))
      .setIssuer('smm-panel')
      .setExpirationTime('5m')
      .sign(new TextEncoder().encode('not-the-secret-not-the-secret-123'));
    const expired = await new SignJWT({ typ: 2, sid: crypto.randomUUID() })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(String(account.id))
      .setIssuer('smm-panel')
      .setIssuedAt(1_000)
      .setExpirationTime(2_000)
      .sign(new TextEncoder().encode(env.JWT_SECRET));
    for (const token of [undefined, 'garbage', forged, expired]) {
      const response = await call('user/getCurrentProfile', { token });
      expect(response.status).toBe(401);
      expect(response.body).toMatchObject({ message: 'Unauthorized. Please log in again.', error: 'Unauthorized' });
    }
  });

  it('rejects a well-signed token whose session does not exist', async () => {
    const account = await registerAndLogin();
    const token = await signAccessToken(env.JWT_SECRET, { userId: account.id, userType: 2, sessionId: crypto.randomUUID() });
    expect((await call('user/getCurrentProfile', { token })).status).toBe(401);
  });

  it('lets admins reach admin calls and answers users there with 403', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    expect((await call('admin/users', { token: admin.accessToken })).status).toBe(200);
    const denied = await call('admin/users', { token: user.accessToken });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ message: 'Forbidden. You do not have permission.', error: 'Forbidden' });
    expect((await call('admin/users')).status).toBe(401);
  });

  it("ends a suspended user's access at once", async () => {
    const account = await registerAndLogin();
    expect((await call('user/getCurrentProfile', { token: account.accessToken })).status).toBe(200);
    await setUserStatus(account.id, 'suspended');
    expect((await call('user/getCurrentProfile', { token: account.accessToken })).status).toBe(401);
  });
});

/** Moves a used refresh token's use back past the grace window, as if it came back much later. */
async function usedLongAgo(refreshToken: string) {
  const tokenHash = await sha256Hex(refreshToken);
  await withDb((db) =>
    db
      .update(refreshTokens)
      .set({ usedAt: sql`now() - make_interval(secs => ${REFRESH_GRACE_SECONDS + 1})` })
      .where(eq(refreshTokens.tokenHash, tokenHash)),
  );
}

describe('POST auth/refresh', () => {
  it('rotates the refresh token; one used again after the grace window revokes the whole session', async () => {
    const account = await registerAndLogin();
    const first = await call('auth/refresh', { body: { refreshToken: account.refreshToken } });
    expect(first.status).toBe(200);
    expect(first.body.refreshToken).not.toBe(account.refreshToken);
    expect((await call('user/getCurrentProfile', { token: first.body.accessToken })).status).toBe(200);

    await usedLongAgo(account.refreshToken);
    const replay = await call('auth/refresh', { body: { refreshToken: account.refreshToken } });
    expect(replay.status).toBe(401);
    expect(replay.body).toMatchObject({ message: 'Invalid or expired refresh token.', error: 'Invalid or expired refresh token.' });
    // The thief's replay killed the session, so the newer token and its access token die too.
    expect((await call('auth/refresh', { body: { refreshToken: first.body.refreshToken } })).status).toBe(401);
    expect((await call('user/getCurrentProfile', { token: first.body.accessToken })).status).toBe(401);
  });

  it('keeps the person signed in when two tabs refresh one token at once: both get the same new token, which works', async () => {
    const account = await registerAndLogin();
    const answers = await Promise.all([0, 1].map(() => call('auth/refresh', { body: { refreshToken: account.refreshToken } })));
    expect(answers.map((answer) => answer.status)).toEqual([200, 200]);
    expect(answers[0].body.refreshToken).toBe(answers[1].body.refreshToken);
    for (const answer of answers) expect((await call('user/getCurrentProfile', { token: answer.body.accessToken })).status).toBe(200);
    expect((await call('auth/refresh', { body: { refreshToken: answers[0].body.refreshToken } })).status).toBe(200);
    const tokens = await withDb((db) =>
      db
        .select({ usedAt: refreshTokens.usedAt })
        .from(refreshTokens)
        .innerJoin(sessions, eq(sessions.id, refreshTokens.sessionId))
        .where(eq(sessions.userId, account.id)),
    );
    // The login's token, the one both tabs got, and the next: one rotation per refresh that claimed.
    expect(tokens).toHaveLength(3);
  });

  it('answers a refresh retried after a lost answer with the same new token, within the grace window', async () => {
    const account = await registerAndLogin();
    const lost = await call('auth/refresh', { body: { refreshToken: account.refreshToken } });
    const retried = await call('auth/refresh', { body: { refreshToken: account.refreshToken } });
    expect(retried.status).toBe(200);
    expect(retried.body.refreshToken).toBe(lost.body.refreshToken);
    expect((await call('auth/refresh', { body: { refreshToken: retried.body.refreshToken } })).status).toBe(200);
  });

  it('refuses a token used within the grace window once its session was signed out', async () => {
    const account = await registerAndLogin();
    await call('auth/refresh', { body: { refreshToken: account.refreshToken } });
    await call('auth/logout', { method: 'POST', token: account.accessToken });
    expect((await call('auth/refresh', { body: { refreshToken: account.refreshToken } })).status).toBe(401);
  });

  it('reads the token from the cookie when the body has none', async () => {
    const account = await registerAndLogin();
    const response = await call('auth/refresh', { body: {}, headers: { cookie: `refresh_token=${account.refreshToken}` } });
    expect(response.status).toBe(200);
  });

  it('refuses unknown tokens and missing tokens', async () => {
    expect((await call('auth/refresh', { body: { refreshToken: 'nope' } })).body.error).toBe('Invalid or expired refresh token.');
    expect((await call('auth/refresh', { body: {} })).status).toBe(401);
  });
});

describe('POST auth/logout', () => {
  it('revokes the session: its access and refresh tokens stop working', async () => {
    const account = await registerAndLogin();
    const response = await call('auth/logout', { method: 'POST', token: account.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.message).toBe('Logout successfully');
    expect((await call('user/getCurrentProfile', { token: account.accessToken })).status).toBe(401);
    expect((await call('auth/refresh', { body: { refreshToken: account.refreshToken } })).status).toBe(401);
  });
});

describe('profile', () => {
  it('returns the current profile with the wallet balance', async () => {
    const account = await registerAndLogin({ fullName: 'Profile Person' });
    const response = await call('user/getCurrentProfile', { token: account.accessToken });
    expect(response.status).toBe(200);
    expect(response.body.data).toMatchObject({ id: account.id, fullName: 'Profile Person', email: account.email, userType: 2, wallet: { balance: '0.00' } });
  });

  it('updates name and username, keeps the email read-only and usernames unique', async () => {
    const account = await registerAndLogin();
    const other = await registerAndLogin();
    const otherProfile = (await call('user/getCurrentProfile', { token: other.accessToken })).body.data;
    const username = unique('name').slice(0, 20);
    const ok = await call('user/updateProfile', { method: 'PUT', token: account.accessToken, body: { fullName: 'New Name', username, email: account.email } });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Profile updated successfully');
    expect(ok.body.data).toMatchObject({ fullName: 'New Name', username });

    const emailChange = await call('user/updateProfile', {
      method: 'PUT',
      token: account.accessToken,
      body: { fullName: 'X', username, email: `${unique()}@example.com` },
    });
    expect(emailChange.status).toBe(400);
    expect(emailChange.body.message).toBe('Email address cannot be changed');

    const taken = await call('user/updateProfile', {
      method: 'PUT',
      token: account.accessToken,
      body: { fullName: 'X', username: otherProfile.username, email: account.email },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.message).toBe('Username is already taken');

    const empty = await call('user/updateProfile', { method: 'PUT', token: account.accessToken, body: { fullName: '', username, email: account.email } });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe('Full name is required');
  });

  it('changes the password after checking the old one, then revokes every session', async () => {
    const account = await registerAndLogin();
    const otherDevice = await login(account.email, account.password);
    const wrong = await call('user/changePassword', {
      method: 'PUT',
      token: account.accessToken,
      body: { oldPassword: 'not-it-at-all', password: 'brand-new-pass' },
    });
    expect(wrong.status).toBe(400);
    expect(wrong.body.message).toBe('Current password is incorrect');
    expect((await call('user/changePassword', { method: 'PUT', token: account.accessToken, body: { oldPassword: account.password } })).body.message).toBe(
      'All fields are required',
    );

    const ok = await call('user/changePassword', {
      method: 'PUT',
      token: account.accessToken,
      body: { oldPassword: account.password, password: 'brand-new-pass' },
    });
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('Password updated successfully');
    expect((await call('user/getCurrentProfile', { token: account.accessToken })).status).toBe(401);
    expect((await call('user/getCurrentProfile', { token: otherDevice.accessToken })).status).toBe(401);
    expect((await call('auth/login', { body: { email: account.email, password: account.password } })).status).toBe(401);
    expect((await call('auth/login', { body: { email: account.email, password: 'brand-new-pass' } })).status).toBe(200);
  });
});

describe('password reset', () => {
  const reset = (token: string, password: string, ip?: string) =>
    call('auth/reset-password', {
      body: new URLSearchParams({ password }).toString(),
      token,
      ip,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  it('answers the same whether or not the email exists, and mails a single-use link', async () => {
    const account = await registerAndLogin();
    const known = await call('auth/forgot-password', { body: { email: account.email } });
    const unknown = await call('auth/forgot-password', { body: { email: `${unique()}@example.com` } });
    expect(known.status).toBe(200);
    expect(known.body).toEqual(unknown.body);

    const token = await emailedResetToken(account.email);
    const stored = await withDb((db) => db.select().from(passwordResets).where(eq(passwordResets.userId, account.id)));
    expect(stored[0].tokenHash).not.toBe(token);
    expect(stored[0].expiresAt.getTime() - stored[0].createdAt.getTime()).toBe(30 * 60_000);

    const done = await reset(token, 'reset-password-1');
    expect(done.status).toBe(200);
    expect((await call('user/getCurrentProfile', { token: account.accessToken })).status).toBe(401);
    expect((await call('auth/login', { body: { email: account.email, password: 'reset-password-1' } })).status).toBe(200);
    const reused = await reset(token, 'another-password-1');
    expect(reused.status).toBe(401);
    expect(reused.body.message).toMatch(/invalid or has expired/);
  });

  it('keeps only a hash of the token in the email outbox, which resets nothing', async () => {
    const account = await registerAndLogin();
    await call('auth/forgot-password', { body: { email: account.email } });
    const token = await emailedResetToken(account.email);
    // The registration's confirmation link went to the same mailbox first.
    const [mail] = await withDb((db) =>
      db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toAddress, account.email), eq(emailOutbox.subject, 'Reset your password'))),
    );
    expect(mail.sentAt).not.toBeNull();
    expect(mail.body).not.toContain(token);
    expect(mail.body).not.toContain(encodeURIComponent(token));
    expect(mail.body).toContain(`/reset-password?token=[token sha256:${await sha256Hex(token)}]`);
    for (const candidate of [await sha256Hex(token), /token=(\S+)/.exec(mail.body)![1]]) {
      expect((await reset(candidate, 'outbox-password-1')).status).toBe(401);
    }
    expect((await reset(token, 'mailbox-password-1')).status).toBe(200);
  });

  it('refuses expired tokens, bad passwords and missing bearer tokens', async () => {
    const account = await registerAndLogin();
    await call('auth/forgot-password', { body: { email: account.email } });
    const token = await emailedResetToken(account.email);
    expect((await reset(token, 'short')).body.message).toBe('Password must be at least 8 characters');
    await withDb((db) =>
      db
        .update(passwordResets)
        .set({ expiresAt: new Date(Date.now() - 1000) })
        .where(eq(passwordResets.userId, account.id)),
    );
    expect((await reset(token, 'fine-password-1')).status).toBe(401);
    const noBearer = await call('auth/reset-password', { body: 'password=whatever-123', headers: { 'content-type': 'application/x-www-form-urlencoded' } });
    expect(noBearer.status).toBe(401);
  });
});

describe('sessions table', () => {
  it('stores refresh tokens only as hashes', async () => {
    const account = await registerAndLogin();
    const rows = await withDb((db) => db.select().from(sessions).where(eq(sessions.userId, account.id)));
    expect(rows.length).toBe(1);
    const tokens = await withDb((db) => db.select().from(refreshTokens).where(eq(refreshTokens.sessionId, rows[0].id)));
    expect(tokens.map((t) => t.tokenHash)).not.toContain(account.refreshToken);
  });
});
