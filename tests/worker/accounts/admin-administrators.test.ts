import { SELF } from 'cloudflare:test';
import { and, eq, inArray, ne, TransactionRollbackError } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, emailOutbox, passwordResets, users } from '../../../drizzle/schema';
import { USER_TYPE } from '../../../vocabulary';
import { CANNOT_REMOVE_YOURSELF, LAST_ADMINISTRATOR, PROMOTE_UNVERIFIED, removeAdministrator } from '../../../worker/services/accounts/administrators';
import { auditEntries, call, createAdmin, login, registerAndLogin, setUserStatus, type TestAccount, unique, withDb } from '../../support/api';
import { emailedResetToken, mailsTo } from '../fixtures/mailbox';

const userTypeOf = async (userId: number) =>
  (await withDb((db) => db.select({ userType: users.userType }).from(users).where(eq(users.id, userId))))[0].userType;
const profileStatus = async (account: TestAccount) => (await call('user/getCurrentProfile', { token: account.accessToken })).status;

/** A role change takes effect at once: the target's sessions end, signed in again they get `dashboardStatus` from the admin dashboard, and the audit log names who did it to whom. */
async function expectRoleChanged(by: TestAccount, target: TestAccount, action: string, dashboardStatus: number) {
  expect(await profileStatus(target)).toBe(401);
  const again = await login(target.email, target.password);
  expect((await call('admin/dashboard', { token: again.accessToken })).status).toBe(dashboardStatus);
  const [entry] = await auditEntries({ actorId: by.id, action });
  expect(entry).toMatchObject({ targetType: 'user', targetId: String(target.id) });
}

describe('GET admin/administrators', () => {
  it('lists administrators only, searchable and paginated', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const found = await call(`admin/administrators?search=${encodeURIComponent(admin.email)}`, { token: admin.accessToken });
    expect(found.status).toBe(200);
    expect(found.body).toMatchObject({ page: 1, limit: 20, total: 1 });
    expect(found.body.data[0]).toMatchObject({ id: admin.id, email: admin.email, userType: 1 });
    expect((await call(`admin/administrators?search=${encodeURIComponent(user.email)}`, { token: admin.accessToken })).body.total).toBe(0);
    expect((await call('admin/administrators?limit=101', { token: admin.accessToken })).body.message).toBe('limit must be at most 100');
  });
});

describe('POST admin/administrators/promote', () => {
  it('makes a user an administrator at once: their sessions and API keys end, the audit log names who did it', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    expect((await call('user/api-keys', { token: user.accessToken, body: { name: 'Old tool' } })).status).toBe(201);
    const promoted = await call('admin/administrators/promote', { token: admin.accessToken, body: { userId: user.id } });
    expect(promoted.status).toBe(200);
    expect(promoted.body.data).toMatchObject({ id: user.id, userType: 1 });
    await expectRoleChanged(admin, user, 'admin.promote', 200);
    const keys = await withDb((db) => db.select({ revokedReason: apiKeys.revokedReason }).from(apiKeys).where(eq(apiKeys.userId, user.id)));
    expect(keys).toEqual([{ revokedReason: 'promotion' }]);
  });

  it('validates the body and explains what cannot be promoted', async () => {
    const admin = await createAdmin();
    const other = await createAdmin();
    const suspended = await registerAndLogin();
    await withDb((db) => db.update(users).set({ status: 'suspended' }).where(eq(users.id, suspended.id)));
    const promote = (body: unknown) => call('admin/administrators/promote', { token: admin.accessToken, body });
    expect(await promote({})).toMatchObject({ status: 400, body: { message: 'userId must be a number' } });
    expect((await promote({ userId: -3 })).body.message).toBe('userId must be positive');
    expect(await promote({ userId: 99_999_999 })).toMatchObject({ status: 404, body: { message: 'User not found' } });
    expect(await promote({ userId: other.id })).toMatchObject({ status: 409, body: { message: 'This user is already an administrator' } });
    expect((await promote({ userId: suspended.id })).status).toBe(409);
    expect(await userTypeOf(suspended.id)).toBe(USER_TYPE.user);
    expect(await auditEntries({ actorId: admin.id, action: 'admin.promote' })).toHaveLength(0);
  });

  it('refuses an account whose address is unconfirmed, advising an invitation by email', async () => {
    const admin = await createAdmin();
    const unconfirmed = await registerAndLogin({ verified: false });
    const refused = await call('admin/administrators/promote', { token: admin.accessToken, body: { userId: unconfirmed.id } });
    expect(refused).toMatchObject({ status: 409, body: { message: PROMOTE_UNVERIFIED, error: 'Conflict' } });
    expect(await userTypeOf(unconfirmed.id)).toBe(USER_TYPE.user);
    expect(await profileStatus(unconfirmed)).toBe(200);
  });
});

describe('POST admin/administrators/invite', () => {
  it('creates an administrator who sets a password through the emailed link', async () => {
    const admin = await createAdmin();
    const email = `${unique('invited')}@Example.com`;
    const invited = await call('admin/administrators/invite', { token: admin.accessToken, body: { fullName: 'Ngozi Eze', email } });
    expect(invited.status).toBe(201);
    expect(invited.body.data).toMatchObject({ fullName: 'Ngozi Eze', email: email.toLowerCase(), userType: 1 });

    const [mail] = await mailsTo(email.toLowerCase());
    expect(mail.text).toContain('Test Admin made you an administrator');
    const token = await emailedResetToken(email.toLowerCase());
    // The outbox keeps the email without a usable link.
    const [kept] = await withDb((db) => db.select().from(emailOutbox).where(eq(emailOutbox.toAddress, email.toLowerCase())));
    expect(kept.body).toContain('Test Admin made you an administrator');
    expect(kept.body).not.toContain(encodeURIComponent(token));
    const set = await call('auth/reset-password', {
      body: new URLSearchParams({ password: 'chosen-password-1' }).toString(),
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });
    expect(set.status).toBe(200);
    const session = await login(email.toLowerCase(), 'chosen-password-1');
    expect((await call('admin/administrators', { token: session.accessToken })).status).toBe(200);
    const [entry] = await auditEntries({ actorId: admin.id, action: 'admin.invite' });
    expect(entry).toMatchObject({ targetType: 'user', targetId: String(invited.body.data.id) });
  });

  it('validates the body with the registration messages and refuses administrators and suspended accounts', async () => {
    const admin = await createAdmin();
    const suspended = await registerAndLogin();
    await setUserStatus(suspended.id, 'suspended');
    const invite = (body: unknown) => call('admin/administrators/invite', { token: admin.accessToken, body });
    expect((await invite({ email: `${unique()}@example.com` })).body.message).toBe('Full name is required');
    expect((await invite({ fullName: 'Ada' })).body.message).toBe('Email is required');
    expect((await invite({ fullName: 'Ada', email: 'not-an-email' })).body.message).toBe('Invalid email address');
    expect(await invite({ fullName: 'Ada', email: admin.email.toUpperCase() })).toMatchObject({
      status: 409,
      body: { message: 'This person is already an administrator' },
    });
    expect(await invite({ fullName: 'Ada', email: suspended.email })).toMatchObject({
      status: 409,
      body: { message: 'This account is suspended. Reactivate it before inviting its owner to be an administrator.' },
    });
    expect(await mailsTo(suspended.email)).toHaveLength(1);
    expect(await auditEntries({ actorId: admin.id, action: 'admin.invite' })).toHaveLength(0);
    expect(await auditEntries({ actorId: admin.id, action: 'admin.invite_existing' })).toHaveLength(0);
  });
});

describe('POST admin/administrators/invite for an address that already has an account', () => {
  const balanceWith = async (key: string) =>
    (await SELF.fetch('http://shop.test/api/v2', { method: 'POST', body: new URLSearchParams({ key, action: 'balance' }) })).json();
  const setPasswordWithLink = (token: string, password: string) =>
    call('auth/reset-password', {
      body: new URLSearchParams({ password }).toString(),
      token,
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
    });

  /** An account someone registered with the invitee's address, never confirmed, with a reseller key (made before confirmation was required). */
  async function squatted(): Promise<{ account: TestAccount; key: string }> {
    const account = await registerAndLogin({ fullName: 'Chidi Okeke' });
    const created = await call('user/api-keys', { token: account.accessToken, body: { name: 'Squatter tool' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    await withDb((db) => db.update(users).set({ emailVerifiedAt: null }).where(eq(users.id, account.id)));
    return { account, key: created.body.data.key };
  }

  it('changes nothing until the mailbox link is used; using it makes an administrator and takes back the old password, sessions and keys', async () => {
    const admin = await createAdmin();
    const { account, key } = await squatted();
    const invited = await call('admin/administrators/invite', {
      token: admin.accessToken,
      body: { fullName: 'Someone Else', email: account.email.toUpperCase() },
    });
    expect(invited).toMatchObject({
      status: 202,
      body: { message: `We emailed ${account.email} a link: the account becomes an administrator when they use it.` },
    });
    const [entry] = await auditEntries({ actorId: admin.id, action: 'admin.invite_existing' });
    expect(entry).toMatchObject({ targetType: 'user', targetId: String(account.id) });
    const [link] = await withDb((db) => db.select().from(passwordResets).where(eq(passwordResets.userId, account.id)));
    expect(link).toMatchObject({ purpose: 'promote', usedAt: null });
    expect(link.expiresAt.getTime() - link.createdAt.getTime()).toBe(72 * 3600_000);

    const mail = (await mailsTo(account.email)).at(-1)!;
    expect(mail.text).toContain('Hello Chidi Okeke,');
    expect(mail.text).toContain('Test Admin invited you to become an administrator');
    expect(mail.text).toContain('sets a new password for your account');
    expect(mail.text).toContain('every reseller API key of the account stops working');

    // Until the link is used: the same role, password, sessions and key.
    expect(await userTypeOf(account.id)).toBe(USER_TYPE.user);
    expect(await profileStatus(account)).toBe(200);
    expect(await balanceWith(key)).toMatchObject({ currency: 'NGN' });
    const stillSignedIn = await login(account.email, account.password);

    const used = await setPasswordWithLink(await emailedResetToken(account.email), 'the-owners-own-phrase-4');
    expect(used).toMatchObject({ status: 200, body: { message: 'Password set. Your account is now an administrator: please log in with your new password.' } });
    expect(await userTypeOf(account.id)).toBe(USER_TYPE.admin);
    expect((await call('auth/login', { body: { email: account.email, password: account.password } })).status).toBe(401);
    for (const session of [account, stillSignedIn]) {
      expect(await profileStatus(session)).toBe(401);
      expect((await call('auth/refresh', { body: { refreshToken: session.refreshToken } })).status).toBe(401);
    }
    expect(await balanceWith(key)).toEqual({ error: 'Invalid API key' });
    const [revoked] = await withDb((db) => db.select({ reason: apiKeys.revokedReason }).from(apiKeys).where(eq(apiKeys.userId, account.id)));
    expect(revoked.reason).toBe('promotion');

    const notice = (await mailsTo(account.email)).at(-1)!;
    expect(notice.subject).toBe('You are now an administrator');
    expect(notice.text).toContain(`- Squatter tool (${key.slice(0, 8)}…)`);
    const owner = await login(account.email, 'the-owners-own-phrase-4');
    expect((await call('admin/dashboard', { token: owner.accessToken })).status).toBe(200);
    expect((await call('user/getCurrentProfile', { token: owner.accessToken })).body.data.emailVerified).toBe(true);
    const [promotion] = await auditEntries({ action: 'admin.promote', targetId: account.id });
    expect(promotion).toMatchObject({ actorId: null, targetType: 'user' });
  });

  it('sets the password but not the role when the account was suspended before the link was used', async () => {
    const admin = await createAdmin();
    const { account } = await squatted();
    expect((await call('admin/administrators/invite', { token: admin.accessToken, body: { fullName: 'Ada', email: account.email } })).status).toBe(202);
    await setUserStatus(account.id, 'suspended');
    const used = await setPasswordWithLink(await emailedResetToken(account.email), 'the-owners-own-phrase-4');
    expect(used).toMatchObject({ status: 200, body: { message: 'Password reset successfully. Please log in with your new password.' } });
    expect(await userTypeOf(account.id)).toBe(USER_TYPE.user);
    expect(await auditEntries({ action: 'admin.promote', targetId: account.id })).toHaveLength(0);
  });
});

describe('DELETE admin/administrators/:userId', () => {
  it('turns an administrator back into a user at once, with an audit entry', async () => {
    const admin = await createAdmin();
    const other = await createAdmin();
    const removed = await call(`admin/administrators/${other.id}`, { method: 'DELETE', token: admin.accessToken });
    expect(removed).toMatchObject({ status: 200, body: { message: 'Administrator removed' } });
    expect(await userTypeOf(other.id)).toBe(USER_TYPE.user);
    await expectRoleChanged(admin, other, 'admin.remove', 403);
  });

  it('never removes yourself, and says why other removals are refused', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const remove = (id: number | string) => call(`admin/administrators/${id}`, { method: 'DELETE', token: admin.accessToken });
    expect(await remove(admin.id)).toMatchObject({ status: 403, body: { message: CANNOT_REMOVE_YOURSELF } });
    expect(await userTypeOf(admin.id)).toBe(USER_TYPE.admin);
    expect(await remove(user.id)).toMatchObject({ status: 409, body: { message: 'This user is not an administrator' } });
    expect(await remove(99_999_999)).toMatchObject({ status: 404, body: { message: 'User not found' } });
    expect(await remove('abc')).toMatchObject({ status: 400, body: { message: 'userId must be a number' } });
    expect(await auditEntries({ actorId: admin.id, action: 'admin.remove' })).toHaveLength(0);
  });

  it('refuses yourself however many times it is asked at once', async () => {
    const admin = await createAdmin();
    const statuses = await Promise.all(
      Array.from({ length: 10 }, () => call(`admin/administrators/${admin.id}`, { method: 'DELETE', token: admin.accessToken }).then((r) => r.status)),
    );
    expect(statuses.every((status) => status === 403)).toBe(true);
    expect(await userTypeOf(admin.id)).toBe(USER_TYPE.admin);
  });

  it('lets only one of two administrators removing each other at once succeed', async () => {
    for (let round = 0; round < 3; round += 1) {
      const [a, b] = await Promise.all([createAdmin(), createAdmin()]);
      const [ab, ba] = await Promise.all([
        call(`admin/administrators/${b.id}`, { method: 'DELETE', token: a.accessToken }),
        call(`admin/administrators/${a.id}`, { method: 'DELETE', token: b.accessToken }),
      ]);
      const [winner, loser] = ab.status === 200 ? [ab, ba] : [ba, ab];
      expect(winner.status).toBe(200);
      // The loser either lost its session before its turn (401) or found itself removed once it had the lock (403).
      expect(loser.body.message).toMatch(/^(You are no longer an administrator\.|Unauthorized\. Please log in again\.)$/);
      expect([await userTypeOf(a.id), await userTypeOf(b.id)].sort()).toEqual([USER_TYPE.admin, USER_TYPE.user]);
    }
  });

  it('leaves at least one of a group of administrators removing one another all at once', async () => {
    const group = await Promise.all(Array.from({ length: 5 }, () => createAdmin()));
    const attempts = group.flatMap((actor) => group.filter((target) => target !== actor).map((target) => ({ actor, target })));
    const results = await Promise.all(
      attempts.map(({ actor, target }) => call(`admin/administrators/${target.id}`, { method: 'DELETE', token: actor.accessToken })),
    );
    const remaining = await withDb((db) =>
      db
        .select({ id: users.id })
        .from(users)
        .where(
          and(
            inArray(
              users.id,
              group.map((g) => g.id),
            ),
            eq(users.userType, USER_TYPE.admin),
          ),
        ),
    );
    expect(remaining.length).toBeGreaterThanOrEqual(1);
    expect(results.filter((r) => r.status === 200)).toHaveLength(group.length - remaining.length);
  });

  it('never removes the last administrator, even for a caller whose own access was just removed', async () => {
    const [actor, last] = await Promise.all([createAdmin(), createAdmin()]);
    // Inside a transaction that is rolled back: everyone but `last` stops being an administrator,
    // as if the caller's access had been removed while this request was on its way.
    const attempt = withDb((db) =>
      db.transaction(async (tx) => {
        await tx
          .update(users)
          .set({ userType: USER_TYPE.user })
          .where(and(eq(users.userType, USER_TYPE.admin), ne(users.id, last.id)));
        await expect(removeAdministrator(tx, actor.id, last.id)).rejects.toThrow(LAST_ADMINISTRATOR);
        tx.rollback();
      }),
    );
    await expect(attempt).rejects.toThrow(TransactionRollbackError);
    expect(await userTypeOf(last.id)).toBe(USER_TYPE.admin);
  });
});
