// Two-factor sign-in end to end in Chromium: an administrator turns it on from the setup screen
// (this test is the authenticator app: it reads the key shown and computes RFC 6238 codes with
// node:crypto, independently of the Worker's own code), signs out, signs in with a code, and is
// refused the same code the next time.
import { createHmac } from 'node:crypto';
import type { Page } from 'playwright-core';
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

async function signOut(page: Page) {
  await page.getByRole('button', { name: 'User menu' }).click();
  await page.getByRole('menuitem', { name: 'Logout' }).click();
  await page.waitForURL('**/auth/login');
}

/** Signs in with the password, answers the code the server then asks for, and returns the code field. */
async function signInWithCode(page: Page, account: { email: string; password: string }, code: string) {
  await submitLogin(page, account.email, account.password);
  const field = page.getByLabel('Authentication code');
  await field.waitFor({ state: 'visible' });
  await field.fill(code);
  await page.getByRole('button', { name: 'Sign In' }).click();
  return field;
}

describe('an administrator with two-factor sign-in', () => {
  it('turns it on, signs in with a code from the app, and is refused that code a second time', async () => {
    // An administrator of its own, so the shared one keeps signing in with a password alone.
    const account = await newUser('Tobi Adeyemi');
    const adminToken = await signInByApi(admin.email, admin.password);
    expect((await api('admin/administrators/promote', { body: { userId: account.id }, token: adminToken })).status).toBe(200);

    const { context, page } = await signedInPage(browser(), account, 'admin', PHONE);
    await page.goto('/admin/account-settings');
    await page.getByRole('button', { name: 'Set up two-factor sign-in' }).click();
    // The key as the setup screen shows it, in groups of four: what a person types into their app.
    const shownKey = await page.getByText(/^[A-Z2-7]{4}( [A-Z2-7]{1,4})+$/).textContent();
    const linkKey = new URL((await page.getByRole('link', { name: 'Open in authenticator app' }).getAttribute('href')) ?? '').searchParams.get('secret');
    expect(shownKey?.replace(/\s/g, '')).toBe(linkKey);
    const secret = base32Decode(shownKey ?? '');
    await screenshot(page, 'two-factor-setup');

    // Each code works once: setup takes this step's, the sign-in the next one's (inside the allowed drift).
    const step = stepNow();
    await page.getByLabel('Code from the app').fill(totp(secret, step));
    await page.getByRole('button', { name: 'Confirm and turn on' }).click();
    await page.getByRole('button', { name: 'Turn off' }).waitFor({ state: 'visible' });
    await signOut(page);

    const signInCode = totp(secret, step + 1);
    await signInWithCode(page, account, signInCode);
    await page.waitForURL(/\/admin(\/|$)/);
    await expect.poll(() => page.getByText('Admin Dashboard').count()).toBeGreaterThan(0);
    await signOut(page);

    const field = await signInWithCode(page, account, signInCode);
    // The message under the field: the element the input names in aria-describedby once it has an error.
    const messageUnderField = async () => {
      const id = await field.getAttribute('aria-describedby');
      return id ? page.locator(`[id="${id}"]`).textContent() : null;
    };
    await expect.poll(messageUnderField, { timeout: 10_000 }).toBe(REUSED);
    expect(new URL(page.url()).pathname).toBe('/auth/login');
    await screenshot(page, 'two-factor-reused-code');
    await context.close();
  });
});
