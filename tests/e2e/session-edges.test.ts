// A session that ends under the person, at phone width (spec section 4): an expired or revoked one on a
// pre-rendered /user page is cleared silently (the user, token and refresh token, nothing else) and leads
// to sign-in and back; a suspended customer is told so with a way to reach support that works signed out;
// the payment confirmation waits for the session check and keeps the stored payment for after sign-in.
import pg from 'pg';
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, expectToast, fillDeposit, newUserSignedIn, sharedBrowser, submitLogin } from './shop';

const browser = sharedBrowser();
const SUSPENDED = 'Your account is suspended. Contact support.';
const SESSION_KEYS = ['USER', 'TOKEN', 'REFRESH_TOKEN'];

/** Every error toast the page shows from its first parse on, kept in window.errorToasts. */
async function recordErrorToasts(page: Page) {
  await page.addInitScript(() => {
    const seen: string[] = [];
    Object.assign(window, { errorToasts: seen });
    new MutationObserver(() => {
      for (const toast of document.querySelectorAll('.Toastify__toast--error')) seen.push(toast.textContent ?? '');
    }).observe(document, { childList: true, subtree: true });
  });
}
const errorToasts = (page: Page) => page.evaluate(() => (window as unknown as { errorToasts: string[] }).errorToasts);

const localStorageOf = (page: Page, keys: string[]) => page.evaluate((names) => names.map((name) => localStorage.getItem(name)), keys);

/** Ends the session the page holds, as signing out elsewhere or its expiry does: its access and refresh tokens are refused from now on. */
async function revokeSession(page: Page) {
  const token = await page.evaluate(() => localStorage.getItem('TOKEN'));
  expect((await api('auth/logout', { method: 'POST', token })).status).toBe(200);
}

/** Suspends the account behind the administrator's back: its session stays live, so the next refresh meets the suspension itself. */
async function suspendInDatabase(userId: number) {
  const db = new pg.Client({ connectionString: inject('e2eDatabaseUrl') });
  await db.connect();
  try {
    await db.query("update users set status = 'suspended' where id = $1", [userId]);
  } finally {
    await db.end();
  }
}

/** Fills the sign-in form the page shows and presses Sign In, keeping the page it was sent from. */
async function signInHere(page: Page, user: { email: string; password: string }) {
  await page.getByLabel('Email').fill(user.email);
  await page.getByLabel('Password', { exact: true }).fill(user.password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

describe('a session that ends, at phone width', () => {
  it('expired or revoked on a pre-rendered /user page: to sign-in with no red toast, only its own keys removed, and back after', async () => {
    const { user, context, page } = await newUserSignedIn(browser(), 'Ngozi Expired', PHONE);
    await recordErrorToasts(page);
    await page.evaluate(() => localStorage.setItem('CURRENCY', 'USD'));
    await revokeSession(page);

    const response = await page.goto('/user/orders?page=1');
    expect(await response!.text()).toContain('data-signed-in="true"');
    await page.waitForURL('**/auth/login');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await errorToasts(page)).toEqual([]);
    expect(await localStorageOf(page, SESSION_KEYS)).toEqual([null, null, null]);
    expect(await localStorageOf(page, ['CURRENCY'])).toEqual(['USD']);
    await screenshot(page, 'session-expired-sign-in');

    await signInHere(page, user);
    await page.waitForURL('**/user/orders?page=1');
    await page.getByRole('heading', { name: 'Orders' }).waitFor();
    await context.close();
  });

  it('suspended while signed in: told so on Sign in, with a support link that works signed out and the shop email', async () => {
    const { user, context, page } = await newUserSignedIn(browser(), 'Emeka Suspended', PHONE);
    await suspendInDatabase(user.id);
    const { contactEmail } = (await api<{ contactEmail: string }>('settings/public')).body;

    await page.goto('/user/orders');
    await page.waitForURL('**/auth/login');
    const notice = page.getByRole('alert').filter({ hasText: SUSPENDED });
    await notice.waitFor();
    expect(await localStorageOf(page, SESSION_KEYS)).toEqual([null, null, null]);
    if (contactEmail) expect(await notice.getByRole('link', { name: contactEmail }).getAttribute('href')).toBe(`mailto:${contactEmail}`);
    await screenshot(page, 'session-suspended-sign-in');

    await notice.getByRole('link', { name: 'Contact support' }).click();
    await page.waitForURL('**/contact-us');
    await page.getByRole('heading', { name: 'Contact Us' }).waitFor();
    if (contactEmail) await page.getByRole('complementary', { name: 'Contact details' }).getByRole('link', { name: contactEmail }).waitFor();
    // Signed out: the menu offers Sign In.
    await page.getByRole('button', { name: 'Open menu' }).click();
    await page.locator('#mobile-menu').getByRole('link', { name: 'Sign In' }).waitFor();

    // Signing in again is refused with the same words, and the same ways to reach support.
    await submitLogin(page, user.email, user.password);
    await expectToast(page, SUSPENDED);
    await page.getByRole('alert').filter({ hasText: SUSPENDED }).getByRole('link', { name: 'Contact support' }).waitFor();
    await context.close();
  });
});

describe('the payment confirmation and the session check, at phone width', () => {
  /** Starts a sandbox deposit and returns once the provider's checkout page is open. */
  async function atCheckout(page: Page, amount: string) {
    await fillDeposit(page, amount);
    await page.getByRole('button', { name: 'Proceed to payment' }).click();
    await page.waitForURL(/\/checkout\//);
  }

  it('verifies the stored payment only once the session check has answered', async () => {
    const { context, page } = await newUserSignedIn(browser(), 'Amaka Waits', PHONE);
    await atCheckout(page, '1200');
    const verifications: string[] = [];
    page.on('request', (request) => {
      if (request.url().includes('/api/v1/user/verify-payment')) verifications.push(request.url());
    });
    let answerCheck!: () => void;
    const checkHeld = new Promise<void>((resolve) => (answerCheck = resolve));
    await page.route('**/api/v1/user/getCurrentProfile', async (route) => {
      await checkHeld;
      await route.continue();
    });

    const shellAsked = page.waitForRequest((request) => request.url().includes('/api/v1/user/getWalletBalance'));
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL('**/user/confirm-payment**');
    // The page is on screen under the guard's spinner, and the shell it sits in has made its own calls after it mounted.
    await page.getByRole('heading', { name: 'Your payment is being processed...' }).waitFor();
    await shellAsked;
    expect(verifications).toEqual([]);

    answerCheck();
    await expect.poll(() => page.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(verifications).toHaveLength(1);
    await context.close();
  });

  it('keeps the stored payment when the session has ended, and confirms it after signing in again', async () => {
    const { user, context, page } = await newUserSignedIn(browser(), 'Tobi Returns', PHONE);
    await recordErrorToasts(page);
    await fillDeposit(page, '1300');
    const token = await page.evaluate(() => localStorage.getItem('TOKEN'));
    await page.getByRole('button', { name: 'Proceed to payment' }).click();
    await page.waitForURL(/\/checkout\//);
    expect((await api('auth/logout', { method: 'POST', token })).status).toBe(200);

    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL('**/auth/login');
    await page.getByRole('heading', { name: 'Welcome back' }).waitFor();
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => sessionStorage.getItem('payload'))).not.toBeNull();
    expect(await errorToasts(page)).toEqual([]);

    await signInHere(page, user);
    await page.waitForURL('**/user/confirm-payment**');
    await expect.poll(() => page.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await page.getByText('Payment Failed!').count()).toBe(0);
    expect(await page.evaluate(() => sessionStorage.getItem('payload'))).toBeNull();
    await context.close();
  });
});
