// Signing in from a device (or, for a browser without its device cookie, an address) the account never
// signed in from tells the owner: when, from where, which browser, and where to reset the password.
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { sessions } from '../../../drizzle/schema';
import { call, registerAndLogin, type TestAccount, unique, uniqueIp, withDb } from '../../support/api';
import { mailsTo } from '../fixtures/mailbox';

const NOTICE = 'New sign-in to your account';
const BROWSER = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) Chrome/126.0 Mobile';

const newDevice = () => unique('device-cookie-').padEnd(24, 'x');

async function signIn(account: TestAccount, from: { ip: string; device?: string }) {
  const headers: Record<string, string> = { 'user-agent': BROWSER, ...(from.device && { cookie: `device=${from.device}` }) };
  const answer = await call('auth/login', { body: { email: account.email, password: account.password }, ip: from.ip, headers });
  expect(answer.status, JSON.stringify(answer.body)).toBe(200);
  return answer;
}

const notices = async (account: TestAccount) => (await mailsTo(account.email)).filter((mail) => mail.subject === NOTICE);

describe('the new sign-in notice', () => {
  it("is not sent for the account's first sign-in", async () => {
    const account = await registerAndLogin();
    expect(await notices(account)).toEqual([]);
  });

  it('tells the owner of a new device, with the time, address, browser and a reset link, and only once per device', async () => {
    const account = await registerAndLogin();
    const device = newDevice();
    const address = uniqueIp();
    await signIn(account, { ip: address, device });
    const [notice, ...more] = await notices(account);
    expect(more).toEqual([]);
    expect(notice.text).toMatch(/^Time: .+ GMT$/m);
    expect(notice.text).toContain(`Address: ${address}`);
    expect(notice.text).toContain(`Browser: ${BROWSER}`);
    expect(notice.text).toContain('http://localhost:8787/forgot-password');

    // The same browser, wherever it is, is known.
    await signIn(account, { ip: uniqueIp(), device });
    expect(await notices(account)).toHaveLength(1);
    // A new browser is news even from an address the account knows.
    await signIn(account, { ip: address, device: newDevice() });
    expect(await notices(account)).toHaveLength(2);
  });

  it('tells a browser without its cookie apart by its address, and gives it a cookie to be known by', async () => {
    const account = await registerAndLogin();
    const address = uniqueIp();
    const first = await signIn(account, { ip: address });
    expect(await notices(account)).toHaveLength(1);
    await signIn(account, { ip: address });
    expect(await notices(account)).toHaveLength(1);

    const device = /(?:^|[;,]\s*)device=([A-Za-z0-9_-]+)/.exec(first.headers.get('set-cookie') ?? '')?.[1];
    expect(device).toBeDefined();
    const stored = await withDb((db) => db.select({ device: sessions.device }).from(sessions).where(eq(sessions.userId, account.id)));
    expect(stored.map((row) => row.device)).toContain(device);
    await signIn(account, { ip: uniqueIp(), device });
    expect(await notices(account)).toHaveLength(1);
  });
});
