// Two-factor sign-in end to end in Chromium at phone width: an administrator turns it on from the setup
// screen (this test is the authenticator app: it reads the QR code drawn on the page, checks it is the
// otpauth link's, and computes RFC 6238 codes from the key with node:crypto, independently of the
// Worker's own code), saves the recovery codes shown once, signs out, signs in with a code, is refused
// the same code the next time, and signs in with a recovery code instead, which then works only once.
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
import { encode } from 'uqr';
import { describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, newUser, sharedBrowser, signedInPage, signInByApi, submitLogin } from './shop';

const admin = inject('e2eAdmin');
const REUSED = 'That code is not valid. Check your authenticator app and try again.';
const browser = sharedBrowser();

function base32Decode(text: string): Buffer {
  const alphabet = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ234567';
  let bits = '';
  for (const char of text.replace(/\s/g, '').toUpperCase()) {
    const value = alphabet.indexOf(char);
    if (value < 0) throw new Error(`not base32: ${char}`);
    bits += value.toString(2).padStart(5, '0');
  }
  const bytes = bits.match(/.{8}/g) ?? [];
  return Buffer.from(bytes.map((byte) => parseInt(byte, 2)));
}

/** The 6-digit code of a 30-second step (HMAC-SHA1, dynamic truncation), as authenticator apps compute it. */
function totp(secret: Buffer, step: number): string {
  const counter = Buffer.alloc(8);
  counter.writeBigUInt64BE(BigInt(step));
  const mac = createHmac('sha1', secret).update(counter).digest();
  const offset = mac[mac.length - 1] & 0x0f;
  return String((mac.readUInt32BE(offset) & 0x7fffffff) % 1_000_000).padStart(6, '0');
}

const stepNow = () => Math.floor(Date.now() / 30_000);

/** The dark modules of the QR code on the page (unit squares of its path), as "x,y". */
async function modulesOnPage(page: Page): Promise<string[]> {
  const path = await page.getByRole('img', { name: 'QR code for your authenticator app' }).locator('path').getAttribute('d');
  return [...(path ?? '').matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map(([, x, y]) => `${x},${y}`);
}

/** The dark modules of `text`'s QR code (medium error correction, two-module quiet zone), as a QR library lays them out. */
const modulesOf = (text: string) => encode(text, { ecc: 'M', border: 2 }).data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`${x},${y}`] : [])));

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL('**/auth/login');
}

/** Signs in with the password, answers the code the server then asks for (from the app, or a recovery code), and returns the code field. */
async function signInWithCode(page: Page, account: { email: string; password: string }, code: string, kind: 'app' | 'recovery' = 'app') {
  await submitLogin(page, account.email, account.password);
  await page.getByLabel('Authentication code').waitFor({ state: 'visible' });
  if (kind === 'recovery') await page.getByRole('button', { name: 'Use a recovery code' }).click();
  const field = page.getByLabel(kind === 'recovery' ? 'Recovery code' : 'Authentication code');
  await field.fill(code);
  await page.getByRole('button', { name: 'Sign In' }).click();
  return field;
}

/** The message under a field: the element the input names in aria-describedby once it has an error. */
async function messageUnder(page: Page, field: ReturnType<Page['getByLabel']>) {
  const id = await field.getAttribute('aria-describedby');
  return id ? page.locator(`[id="${id}"]`).textContent() : null;
}

describe('an administrator with two-factor sign-in', () => {
  it('turns it on from the QR code, saves the recovery codes, signs in with a code and then with a recovery code', async () => {
    // An administrator of its own, so the shared one keeps signing in with a password alone.
    const account = await newUser('Tobi Adeyemi');
    const adminToken = await signInByApi(admin.email, admin.password);
    expect((await api('admin/administrators/promote', { body: { userId: account.id }, token: adminToken })).status).toBe(200);

    const { context, page } = await signedInPage(browser(), account, 'admin', PHONE);
    await page.goto('/admin/account-settings');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    // The key as the setup screen shows it, in groups of four: what a person types into their app.
    const shownKey = await page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/).textContent();
    const link = (await page.getByRole('link', { name: 'Open in authenticator app' }).getAttribute('href')) ?? '';
    expect(shownKey?.replace(/\s/g, '')).toBe(new URL(link).searchParams.get('secret'));
    // What a phone camera reads: the QR code is drawn from this very link (loaded on demand, so waited for).
    await expect.poll(() => modulesOnPage(page)).toEqual(modulesOf(link));
    const secret = base32Decode(shownKey ?? '');
    await screenshot(page, 'two-factor-setup');

    // Each code works once: setup takes this step's, the sign-in the next one's (inside the allowed drift).
    const step = stepNow();
    await page.getByLabel('Code from the app').fill(totp(secret, step));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    const saved = page.getByRole('region', { name: 'Save your recovery codes' });
    await saved.waitFor({ state: 'visible' });
    const recoveryCodes = await saved.getByRole('list', { name: 'Recovery codes' }).getByRole('listitem').allTextContents();
    expect(recoveryCodes).toHaveLength(10);
    for (const code of recoveryCodes) expect(code).toMatch(/^[a-z0-9]{5}-[a-z0-9]{5}$/);
    await screenshot(page, 'two-factor-recovery-codes');
    await saved.getByRole('button', { name: 'I have saved them' }).click();
    await page.getByRole('button', { name: 'Turn off' }).waitFor({ state: 'visible' });
    await signOut(page);

    const signInCode = totp(secret, step + 1);
    await signInWithCode(page, account, signInCode);
    await page.waitForURL(/\/admin(\/|$)/);
    await expect.poll(() => page.getByText('Admin Dashboard').count()).toBeGreaterThan(0);
    await signOut(page);

    const field = await signInWithCode(page, account, signInCode);
    await expect.poll(() => messageUnder(page, field), { timeout: 10_000 }).toBe(REUSED);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await screenshot(page, 'two-factor-reused-code');

    // A lost phone: a recovery code signs in, once.
    await signInWithCode(page, account, recoveryCodes[3], 'recovery');
    await page.waitForURL(/\/admin(\/|$)/);
    await page.goto('/admin/account-settings');
    await expect.poll(() => page.getByText('Recovery codes left').locator('xpath=following-sibling::dd[1]').textContent()).toBe('9 of 10');
    await signOut(page);
    const spent = await signInWithCode(page, account, recoveryCodes[3], 'recovery');
    await expect.poll(() => messageUnder(page, spent), { timeout: 10_000 }).toBeTruthy();
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await context.close();
  });
});
