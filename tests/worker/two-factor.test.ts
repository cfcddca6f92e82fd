import { describe, expect, it } from 'vitest';
import { base32Decode, base32Encode, currentStep, totpCode } from '../../worker/lib/totp';
import { auditEntries, call, createAdmin, registerAndLogin } from '../support/api';

const ascii = (text: string) => Uint8Array.from(text, (c) => c.charCodeAt(0));

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
    expect((await call('auth/2fa/enable', { token: admin.accessToken, body: { code: await totpCode(secret, step) } })).status).toBe(200);
    expect((await call('auth/2fa', { token: admin.accessToken })).body.data.enabled).toBe(true);

    const withoutCode = await call('auth/login', { body: { email: admin.email, password: admin.password } });
    expect(withoutCode.status).toBe(401);
    expect(withoutCode.body).toMatchObject({
      message: 'Enter the 6-digit code from your authenticator app.',
      error: 'Two-factor code required',
      code: 'two_factor_required',
    });

    // The code that confirmed the setup was used once already.
    const replayed = await call('auth/login', { body: { email: admin.email, password: admin.password, code: await totpCode(secret, step) } });
    expect(replayed.status).toBe(401);

    const nextCode = await totpCode(secret, step + 1);
    const ok = await call('auth/login', { body: { email: admin.email, password: admin.password, code: nextCode } });
    expect(ok.status).toBe(200);
    expect((await call('auth/login', { body: { email: admin.email, password: admin.password, code: nextCode } })).status).toBe(401);

    expect((await call('auth/login', { body: { email: admin.email, password: admin.password, code: '12' } })).body.message).toBe('Enter the 6-digit code');

    // Turning it off needs a fresh code too; a stale one is refused.
    expect((await call('auth/2fa/disable', { token: ok.body.accessToken, body: { code: nextCode } })).status).toBe(400);
    const audits = await auditEntries({ actorId: admin.id, action: 'two_factor.enable' });
    expect(audits).toHaveLength(1);
  });

  it('turns off with a fresh code', async () => {
    const admin = await createAdmin();
    const secret = base32Decode((await call('auth/2fa/setup', { method: 'POST', token: admin.accessToken })).body.data.secret);
    const step = currentStep();
    await call('auth/2fa/enable', { token: admin.accessToken, body: { code: await totpCode(secret, step) } });
    expect((await call('auth/2fa/disable', { token: admin.accessToken, body: { code: await totpCode(secret, step + 1) } })).status).toBe(200);
    expect((await call('auth/login', { body: { email: admin.email, password: admin.password } })).status).toBe(200);
  });

  it('is for administrators only', async () => {
    const user = await registerAndLogin();
    expect((await call('auth/2fa/setup', { method: 'POST', token: user.accessToken })).status).toBe(403);
    expect((await call('auth/2fa/setup', { method: 'POST' })).status).toBe(401);
  });

  it('leaves accounts without it signing in with a password alone', async () => {
    const admin = await createAdmin();
    expect((await call('auth/login', { body: { email: admin.email, password: admin.password } })).status).toBe(200);
  });
});
