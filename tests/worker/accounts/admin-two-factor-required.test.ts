// "Administrators must use two-factor": on by default in production, off locally and in the tests until set.
// The tests share one database, so the setting is never saved on: production is the calls' own bindings
// (the default then is on), and the only save here is "off", which every other file sees as its default anyway.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { eq, TransactionRollbackError } from 'drizzle-orm';
import { afterEach, describe, expect, it } from 'vitest';
import { settings } from '../../../drizzle/schema';
import { app } from '../../../worker/app';
import type { Env } from '../../../worker/env';
import { base32Decode, currentStep, totpCode } from '../../../worker/lib/totp';
import { getSecuritySettings, saveSetting } from '../../../worker/services/settings/settings';
import { auditEntries, BASE, type CallOptions, call, createAdmin, registerAndLogin, type TestAccount, uniqueIp, withDb } from '../../support/api';

const production: Env = { ...(env as Env), ENVIRONMENT: 'production' };

/** A call to the Worker as deployed to production, where the setting is on unless an administrator saved it off. */
async function inProduction(path: string, options: CallOptions = {}) {
  const headers: Record<string, string> = { 'cf-connecting-ip': options.ip ?? uniqueIp(), ...options.headers };
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  const request = new Request(`${BASE}/${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const ctx = createExecutionContext();
  const response = await app.fetch(request, production, ctx);
  const text = await response.text();
  await waitOnExecutionContext(ctx);
  return { status: response.status, body: text ? JSON.parse(text) : null };
}

const signInInProduction = async (account: TestAccount) => {
  const answer = await inProduction('auth/login', { body: { email: account.email, password: account.password } });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer.body;
};

const SETUP_REQUIRED = { message: 'Set up two-factor sign-in to continue.', error: 'Forbidden', code: 'two_factor_setup_required' };

async function turnOnTwoFactor(call: typeof inProduction, token: string) {
  const setup = await call('auth/2fa/setup', { method: 'POST', token });
  expect(setup.status, JSON.stringify(setup.body)).toBe(200);
  const code = await totpCode(base32Decode(setup.body.data.secret), currentStep());
  const enabled = await call('auth/2fa/enable', { token, body: { code } });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return enabled.body;
}

describe('administrators must use two-factor sign-in', () => {
  it('lets an administrator without it sign in, told to set it up, and reach nothing else until it is on', async () => {
    const admin = await createAdmin();
    const signedIn = await signInInProduction(admin);
    expect(signedIn.user).toMatchObject({ userType: 1, twoFactorSetupRequired: true });
    const token = signedIn.accessToken;

    for (const [path, options] of [
      ['admin/settings/site', {}],
      ['admin/settings/security', {}],
      ['user/admin-credit-user-wallet', { body: { amount: 1, reference: 'never-credited', userId: admin.id } }],
      ['user/changePassword', { method: 'PUT', body: { oldPassword: admin.password, password: 'another-admin-pass-9' } }],
    ] as const) {
      const refused = await inProduction(path, { token, ...options });
      expect(refused.status, path).toBe(403);
      expect(refused.body, path).toMatchObject(SETUP_REQUIRED);
    }
    expect((await inProduction('user/getCurrentProfile', { token })).body.data).toMatchObject({ id: admin.id, twoFactorSetupRequired: true });
    expect((await inProduction('auth/2fa', { token })).body.data).toMatchObject({ enabled: false, required: true });

    // The same session in a deployment that does not ask it (the tests' own) is let through.
    expect((await call('admin/settings/site', { token })).status).toBe(200);

    const enabled = await turnOnTwoFactor(inProduction, token);
    expect(enabled.data.recoveryCodes).toHaveLength(10);
    expect((await inProduction('admin/settings/site', { token })).status).toBe(200);
    expect((await inProduction('user/getCurrentProfile', { token })).body.data.twoFactorSetupRequired).toBe(false);
  });

  it('lets an administrator asked to set it up sign out', async () => {
    const admin = await createAdmin();
    const { accessToken } = await signInInProduction(admin);
    expect((await inProduction('auth/logout', { method: 'POST', token: accessToken })).status).toBe(200);
    expect((await inProduction('user/getCurrentProfile', { token: accessToken })).status).toBe(401);
  });

  it('asks nothing of customers', async () => {
    const customer = await registerAndLogin();
    const signedIn = await signInInProduction(customer);
    expect(signedIn.user).not.toHaveProperty('twoFactorSetupRequired');
    const profile = await inProduction('user/getCurrentProfile', { token: signedIn.accessToken });
    expect(profile.body.data).not.toHaveProperty('twoFactorSetupRequired');
    expect((await inProduction('user/getWalletBalance', { token: signedIn.accessToken })).status).toBe(200);
  });
});

describe('the security setting', () => {
  afterEach(() => withDb((db) => db.delete(settings).where(eq(settings.key, 'security'))));

  it('is read per deployment, saved by an administrator with two-factor on, audited, and saved off lets the others through', async () => {
    const admin = await createAdmin();
    await turnOnTwoFactor(call, admin.accessToken);
    const withoutTwoFactor = await createAdmin();

    expect((await call('admin/settings/security', { token: admin.accessToken })).body).toEqual({
      message: 'Security settings',
      data: { adminTwoFactorRequired: false },
    });
    expect((await inProduction('admin/settings/security', { token: admin.accessToken })).body.data).toEqual({ adminTwoFactorRequired: true });
    const badInput = await inProduction('admin/settings/security', { method: 'PUT', token: admin.accessToken, body: { adminTwoFactorRequired: 'yes' } });
    expect(badInput.status).toBe(400);
    expect(badInput.body.message).toBe('adminTwoFactorRequired must be true or false');

    const saved = await inProduction('admin/settings/security', { method: 'PUT', token: admin.accessToken, body: { adminTwoFactorRequired: false } });
    expect(saved).toEqual({ status: 200, body: { message: 'Security settings saved', data: { adminTwoFactorRequired: false } } });
    expect(await auditEntries({ actorId: admin.id, action: 'settings.security.update' })).toMatchObject([{ details: { adminTwoFactorRequired: false } }]);

    const signedIn = await signInInProduction(withoutTwoFactor);
    expect(signedIn.user.twoFactorSetupRequired).toBe(false);
    expect((await inProduction('admin/settings/site', { token: signedIn.accessToken })).status).toBe(200);
  });

  it('saved on, asks it even where the deployment would not', async () => {
    const admin = await createAdmin();
    // Saved and read inside a transaction that is rolled back, so no other file's administrator ever meets it.
    let whileSaved: unknown;
    await withDb((db) =>
      db
        .transaction(async (tx) => {
          await saveSetting(tx, 'security', { adminTwoFactorRequired: true }, admin.id);
          whileSaved = await getSecuritySettings(tx, env as Env);
          tx.rollback();
        })
        .catch((error: unknown) => {
          if (!(error instanceof TransactionRollbackError)) throw error;
        }),
    );
    expect(whileSaved).toEqual({ adminTwoFactorRequired: true });
    expect(await withDb((db) => getSecuritySettings(db, env as Env))).toEqual({ adminTwoFactorRequired: false });
  });
});
