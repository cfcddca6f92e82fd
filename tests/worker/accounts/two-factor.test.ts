import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { twoFactorRecoveryCodes, users } from '../../../drizzle/schema';
import { base32Decode, base32Encode, currentStep, totpCode } from '../../../worker/lib/totp';
import { TWO_FACTOR_LIMITS } from '../../../worker/services/accounts/two-factor';
import { auditEntries, call, createAdmin, registerAndLogin, type TestAccount, uniqueIp, withDb } from '../../support/api';
import { mailsTo } from '../fixtures/mailbox';

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));
const RECOVERY_CODE = /^[a-z2-9]{5}-[a-z2-9]{5}$/;
const LOCKED = /^Too many attempts\. Please try again in 1[45] minutes\.$/;

describe('TOTP codes', () => {
  it('match the RFC 6238 SHA-1 test vectors', async () => {
    const secret = ascii('12345678901234567890');
    expect(await totpCode(secret, Math.floor(59 / 30), 8)).toBe('94287082');
    expect(await totpCode(secret, Math.floor(1111111109 / 30), 8)).toBe('07081804');
    expect(await totpCode(secret, Math.floor(1234567890 / 30), 8)).toBe('89005924');
    expect(await totpCode(secret, Math.floor(59 / 30))).toBe('287082');
  });

  it('round-trip secrets through base32', () => {
    const bytes = crypto.getRandomValues(new Uint8Array(20));
    expect(base32Decode(base32Encode(bytes))).toEqual(bytes);
    expect(base32Encode(ascii('12345678901234567890'))).toBe('GEZDGNBVGY3TQOJQGEZDGNBVGY3TQOJQ');
  });
});

interface TwoFactorAdmin extends TestAccount {
  secret: Uint8Array<ArrayBuffer>;
  recoveryCodes: string[];
}

/** An administrator with two-factor sign-in on, holding the secret their app would and the codes shown once. */
async function adminWithTwoFactor(): Promise<TwoFactorAdmin> {
  const admin = await createAdmin();
  const setup = await call('auth/2fa/setup', { method: 'POST', token: admin.accessToken });
  const secret = base32Decode(setup.body.data.secret);
  const enabled = await call('auth/2fa/enable', { token: admin.accessToken, body: { code: await totpCode(secret, currentStep()) } });
  expect(enabled.status, JSON.stringify(enabled.body)).toBe(200);
  return { ...admin, secret, recoveryCodes: enabled.body.data.recoveryCodes };
}

/**
 * The app's code for now. Each code works once, and tests use more codes than 30-second steps pass, so the
 * record of the last accepted step is cleared first, as if the next step had come.
 */
async function freshCode(admin: TwoFactorAdmin): Promise<string> {
  await withDb((db) => db.update(users).set({ totpLastStep: null }).where(eq(users.id, admin.id)));
  return totpCode(admin.secret, currentStep());
}

/** A code that is none of the app's codes in the steps it accepts. */
async function wrongCode(admin: TwoFactorAdmin): Promise<string> {
  const step = currentStep();
  const valid = new Set(await Promise.all([step - 1, step, step + 1].map((s) => totpCode(admin.secret, s))));
  return ['000000', '111111', '222222', '333333'].find((code) => !valid.has(code))!;
}

const signIn = (admin: TestAccount, code?: string, ip?: string) => call('auth/login', { body: { email: admin.email, password: admin.password, code }, ip });

describe('two-factor sign-in for administrators', () => {
  it('is set up, confirmed, asked for at login, refuses replays and can be turned off', async () => {
    const admin = await createAdmin();
    const setup = await call('auth/2fa/setup', { method: 'POST', token: admin.accessToken });
    expect(setup.status).toBe(200);
    expect(setup.body.data.otpauthUrl).toMatch(/^otpauth:\/\/totp\//);
    const secret = base32Decode(setup.body.data.secret);
    const step = currentStep();

    expect(
      (await call('auth/2fa/enable', { token: admin.accessToken, body: { code: '000000' === (await totpCode(secret, step)) ? '111111' : '000000' } })).status,
    ).toBe(400);
    const enabled = await call('auth/2fa/enable', { token: admin.accessToken, body: { code: await totpCode(secret, step) } });
    expect(enabled.status).toBe(200);
    expect(enabled.body.data.recoveryCodes).toHaveLength(10);
    for (const code of enabled.body.data.recoveryCodes) expect(code).toMatch(RECOVERY_CODE);
    expect(new Set(enabled.body.data.recoveryCodes).size).toBe(10);
    expect((await call('auth/2fa', { token: admin.accessToken })).body.data).toMatchObject({ enabled: true, recoveryCodesLeft: 10, required: false });

    const withoutCode = await signIn(admin);
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body).toMatchObject({
      message: 'Enter the 6-digit code from your authenticator app.',
      error: 'Two-factor code required',
      code: 'two_factor_required',
    });

    // The code that confirmed the setup was used once already.
    expect((await signIn(admin, await totpCode(secret, step))).status).toBe(401);

    const nextCode = await totpCode(secret, step + 1);
    const ok = await signIn(admin, nextCode);
    expect(ok.status).toBe(200);
    expect((await signIn(admin, nextCode)).status).toBe(401);

    expect((await signIn(admin, '12')).body.message).toBe('Enter the 6-digit code or a recovery code');
    expect((await call('auth/2fa/enable', { token: admin.accessToken, body: { code: 'abcde-fghij' } })).body.message).toBe('Enter the 6-digit code');

    // Turning it off needs a fresh code too; a stale one is refused.
    expect((await call('auth/2fa/disable', { token: ok.body.accessToken, body: { code: nextCode } })).status).toBe(400);
    expect(await auditEntries({ actorId: admin.id, action: 'two_factor.enable' })).toHaveLength(1);
  });

  it('turns off with a fresh code, and its recovery codes go with it', async () => {
    const admin = await adminWithTwoFactor();
    expect((await call('auth/2fa/disable', { token: admin.accessToken, body: { code: await freshCode(admin) } })).status).toBe(200);
    expect(await withDb((db) => db.select().from(twoFactorRecoveryCodes).where(eq(twoFactorRecoveryCodes.userId, admin.id)))).toEqual([]);
    expect((await signIn(admin)).status).toBe(200);
    expect((await signIn(admin, admin.recoveryCodes[0])).status).toBe(200);
  });

  it('is for administrators only', async () => {
    const user = await registerAndLogin();
    expect((await call('auth/2fa/setup', { method: 'POST', token: user.accessToken })).status).toBe(403);
    expect((await call('auth/2fa/setup', { method: 'POST' })).status).toBe(401);
  });

  it('leaves accounts without it signing in with a password alone', async () => {
    const admin = await createAdmin();
    expect((await signIn(admin)).status).toBe(200);
  });
});

describe('recovery codes', () => {
  it('sign in once each and never again, however they are typed', async () => {
    const admin = await adminWithTwoFactor();
    const [first, second] = admin.recoveryCodes;
    expect((await signIn(admin, first)).status).toBe(200);
    expect((await signIn(admin, first)).status).toBe(401);
    expect((await signIn(admin, second.replace('-', '').toUpperCase())).status).toBe(200);
    expect((await call('auth/2fa', { token: admin.accessToken })).body.data.recoveryCodesLeft).toBe(8);
  });

  it('let only one of two sign-ins racing with the same code in', async () => {
    const admin = await adminWithTwoFactor();
    const statuses = await Promise.all([signIn(admin, admin.recoveryCodes[0]), signIn(admin, admin.recoveryCodes[0])]).then((all) => all.map((r) => r.status));
    expect(statuses.sort()).toEqual([200, 401]);
  });

  it('are made anew with a current code, and the old set stops working', async () => {
    const admin = await adminWithTwoFactor();
    expect((await call('auth/2fa/recovery-codes', { token: admin.accessToken, body: { code: await wrongCode(admin) } })).status).toBe(400);
    const renewed = await call('auth/2fa/recovery-codes', { token: admin.accessToken, body: { code: await freshCode(admin) } });
    expect(renewed.status).toBe(200);
    const codes: string[] = renewed.body.data.recoveryCodes;
    expect(codes).toHaveLength(10);
    expect(codes.filter((code) => admin.recoveryCodes.includes(code))).toEqual([]);
    expect((await signIn(admin, admin.recoveryCodes[0])).status).toBe(401);
    expect((await signIn(admin, codes[0])).status).toBe(200);
    expect(await auditEntries({ actorId: admin.id, action: 'two_factor.recovery_codes' })).toHaveLength(1);
  });
});

describe('wrong two-factor codes', () => {
  it('lock two-factor sign-in for the account after five, refuse even the right code meanwhile, and alert the owner', async () => {
    const admin = await adminWithTwoFactor();
    const wrong = await wrongCode(admin);
    const wrongRecoveryCode = 'wrong-codes';
    // All from one address: the right password gives each attempt back, so only the codes are ever counted.
    const address = uniqueIp();
    const answers = [];
    for (let i = 0; i < TWO_FACTOR_LIMITS.wrongCodes; i++) answers.push(await signIn(admin, i % 2 ? wrong : wrongRecoveryCode, address));
    expect(answers.slice(0, -1).map((r) => r.status)).toEqual(Array(TWO_FACTOR_LIMITS.wrongCodes - 1).fill(401));
    expect(answers.at(-1)).toMatchObject({ status: 429, body: { error: 'Too Many Requests' } });
    expect(answers.at(-1)!.body.message).toMatch(LOCKED);

    for (const code of [await freshCode(admin), admin.recoveryCodes[0], undefined]) {
      const refused = await signIn(admin, code, address);
      expect(refused.status, String(code)).toBe(429);
      expect(refused.body.message).toMatch(LOCKED);
    }

    const alerts = (await mailsTo(admin.email)).filter((mail) => mail.subject === 'Your password was used with wrong two-factor codes');
    expect(alerts).toHaveLength(1);
    expect(alerts[0].text).toContain('locked for 15 minutes');
    expect(alerts[0].text).toContain('/forgot-password');
    expect(await auditEntries({ targetType: 'user', targetId: admin.id, action: 'two_factor.locked' })).toHaveLength(1);

    // Once the lock has passed the right code signs in, and the count starts again from nothing.
    await withDb((db) => db.update(users).set({ totpLockedUntil: sql`now()` }).where(eq(users.id, admin.id)));
    expect((await signIn(admin, await freshCode(admin), address)).status).toBe(200);
    const [row] = await withDb((db) => db.select({ failures: users.totpFailures }).from(users).where(eq(users.id, admin.id)));
    expect(row.failures).toBe(0);
  });

  it('are checked no more in a parallel burst than one after another', async () => {
    const admin = await adminWithTwoFactor();
    const wrong = await wrongCode(admin);
    const burst = await Promise.all(Array.from({ length: 20 }, () => signIn(admin, wrong)));
    const statuses = burst.map((answer) => answer.status).sort();
    expect(statuses).toEqual([...Array(TWO_FACTOR_LIMITS.wrongCodes - 1).fill(401), ...Array(20 - TWO_FACTOR_LIMITS.wrongCodes + 1).fill(429)]);
    const alerts = (await mailsTo(admin.email)).filter((mail) => mail.subject === 'Your password was used with wrong two-factor codes');
    expect(alerts).toHaveLength(1);
  });

  it('start counting again after a right code, the last allowed one included', async () => {
    const admin = await adminWithTwoFactor();
    const wrong = await wrongCode(admin);
    const statuses: number[] = [];
    for (let i = 0; i < TWO_FACTOR_LIMITS.wrongCodes - 1; i++) statuses.push((await signIn(admin, wrong)).status);
    statuses.push((await signIn(admin, admin.recoveryCodes[0])).status);
    for (let i = 0; i < TWO_FACTOR_LIMITS.wrongCodes - 1; i++) statuses.push((await signIn(admin, wrong)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 200, 401, 401, 401, 401]);
  });

  it('lock only the account they were typed for', async () => {
    const [locked, other] = await Promise.all([adminWithTwoFactor(), adminWithTwoFactor()]);
    await withDb((db) => db.update(users).set({ totpLockedUntil: sql`now() + interval '15 minutes'` }).where(eq(users.id, locked.id)));
    expect((await signIn(locked, await freshCode(locked))).status).toBe(429);
    expect((await signIn(other, await freshCode(other))).status).toBe(200);
  });
});
