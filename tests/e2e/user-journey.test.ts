// A new user's first visit, end to end in Chromium against the stack `npm start` runs.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from '../support/browser';
import { expectToast, fillDeposit, fillFollowersOrder, openPage, sharedBrowser, shopUrl, signedInPage, signIn, unique } from './shop';

const browser = sharedBrowser();
const uniqueEmail = () => `${unique('e2e')}@example.com`;

/** Toasts show one at a time for 1.5 s each (spec section 9): a new one can wait behind earlier validation toasts for several seconds. */
const TOAST_BEHIND_VALIDATION_WAIT = 25_000;

/** Registers a new account through the form; returns what to sign in with. */
async function register(page: Page) {
  const account = { email: uniqueEmail(), password: 'password-123' };
  await page.goto('/auth/register');
  await page.getByLabel('Full Name').fill('Chioma Okafor');
  await page.getByLabel('Email Address').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL('**/auth/login');
  return account;
}

/** A new user's browser: registered through the form, then signed in through it. */
async function registeredPage(viewport: typeof DESKTOP) {
  const opened = await openPage(browser(), viewport);
  const account = await register(opened.page);
  await signIn(opened.page, account, 'user');
  return { ...opened, account };
}

async function fundThroughCheckout(page: Page, amount: string) {
  await fillDeposit(page, amount);
  await page.getByRole('button', { name: 'Proceed to payment' }).click();
  await page.waitForURL(/\/checkout\//);
  await page.getByRole('button', { name: /^Pay/ }).click();
  await page.waitForURL('**/user/confirm-payment**');
  await expect.poll(() => page.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);
  await page.waitForURL('**/user/transactions', { timeout: 10_000 });
}

describe('a new user', () => {
  it('sees every registration message in the spec order, then registers', async () => {
    const { context, page } = await openPage(browser(), PHONE);
    await page.goto('/auth/register');
    await screenshot(page, 'register');
    const submit = page.getByRole('button', { name: 'Sign Up' });
    await submit.click();
    await expect.poll(() => page.getByText('Full name is required').count()).toBeGreaterThan(0);
    await page.getByLabel('Full Name').fill('Chioma Okafor');
    await submit.click();
    await expect.poll(() => page.getByText('Email is required').count()).toBeGreaterThan(0);
    await page.getByLabel('Email Address').fill('not-an-email');
    await submit.click();
    await expect.poll(() => page.getByText('Invalid email address').count()).toBeGreaterThan(0);
    await page.getByLabel('Email Address').fill(uniqueEmail());
    await submit.click();
    await expect.poll(() => page.getByText('Password is required').count()).toBeGreaterThan(0);
    await page.getByLabel('Password', { exact: true }).fill('password-123');
    await page.getByLabel('Confirm Password').fill('password-456');
    await submit.click();
    await expect.poll(() => page.getByText('Passwords do not match').count()).toBeGreaterThan(0);
    await page.getByLabel('Confirm Password').fill('password-123');
    // The toast lives 1.5 s, so watch for it from the moment of the click.
    await Promise.all([expectToast(page, 'Account created successfully', TOAST_BEHIND_VALIDATION_WAIT), submit.click()]);
    await page.waitForURL('**/auth/login');
    await context.close();
  });

  it('logs in, funds the wallet in the sandbox checkout and sees it credited once', async () => {
    const { context, page } = await registeredPage(DESKTOP);
    await expect.poll(() => page.getByText('Your Balance:').count()).toBeGreaterThan(0);
    await screenshot(page, 'user-home');

    await fillDeposit(page, '2500');
    await screenshot(page, 'add-fund');
    await page.getByRole('button', { name: 'Proceed to payment' }).click();
    await page.waitForURL(/\/checkout\//);
    await screenshot(page, 'sandbox-checkout');
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL('**/user/confirm-payment**');
    await expect.poll(() => page.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await screenshot(page, 'payment-confirmed');
    await page.waitForURL('**/user/transactions', { timeout: 10_000 });
    await expect.poll(() => page.getByText(/2,500\.00/).count()).toBeGreaterThan(0);
    expect(await page.evaluate(() => sessionStorage.getItem('payload'))).toBeNull();
    await screenshot(page, 'transactions');
    await context.close();
  });

  it('is kept to its own area, and visitors are sent to log in', async () => {
    const { context, page } = await openPage(browser(), DESKTOP);
    await page.goto('/user/profile');
    await page.waitForURL('**/auth/login');
    await signIn(page, await register(page), 'user');
    await page.goto('/admin/dashboard');
    await page.waitForURL(/\/user(\/|$)/);
    await context.close();
  });

  it('sees 404 Not Found on an unknown path', async () => {
    const { context, page } = await openPage(browser(), PHONE);
    await page.goto('/no/such/page');
    await expect.poll(() => page.getByText('404 Not Found').count()).toBeGreaterThan(0);
    await screenshot(page, 'not-found');
    await context.close();
  });
});

describe('a funded user', () => {
  it('places an order once, watches it complete, then changes the password and is logged out', async () => {
    const { context, page, account } = await registeredPage(PHONE);
    await fundThroughCheckout(page, '10000');

    await fillFollowersOrder(page, 'https://www.instagram.com/e2e.shop.test');
    await screenshot(page, 'create-order');
    // A double click must still place one order.
    await Promise.all([
      expectToast(page, 'Order placed successfully', TOAST_BEHIND_VALIDATION_WAIT),
      page.getByRole('button', { name: 'Place order' }).dblclick(),
    ]);
    await screenshot(page, 'order-placed');
    await page.goto('/user/orders');

    const token = await page.evaluate(() => localStorage.getItem('TOKEN'));
    const orders = async () => {
      const response = await fetch(`${shopUrl}/api/v1/user/orders`, { headers: { authorization: `Bearer ${token}` } });
      return ((await response.json()) as { data: Array<{ status: string }> }).data;
    };
    expect(await orders()).toHaveLength(1);
    // The sandbox provider moves orders along on the local cron; the page polls and shows it.
    await expect.poll(async () => (await orders())[0].status, { timeout: 80_000, interval: 2000 }).toMatch(/Completed|Partial|Canceled/);
    const finalStatus = (await orders())[0].status;
    await expect.poll(() => page.getByText(finalStatus).count(), { timeout: 30_000 }).toBeGreaterThan(0);
    await screenshot(page, 'orders');

    await page.goto('/user/profile');
    await page.getByRole('tab', { name: /password/i }).click();
    await page.getByLabel('Current password').fill(account.password);
    await page.getByLabel('New password').fill('lantern-okra-789');
    await page.getByLabel('Confirm password').fill('lantern-okra-789');
    await Promise.all([
      expectToast(page, 'Password updated successfully', TOAST_BEHIND_VALIDATION_WAIT),
      page.getByRole('button', { name: 'Save password' }).click(),
    ]);
    await page.waitForURL('**/auth/login');
    await signIn(page, { ...account, password: 'lantern-okra-789' }, 'user');
    await context.close();
  });
});

describe('an administrator', () => {
  it('logs in and lands in the admin area', async () => {
    const admin = inject('e2eAdmin');
    const { context, page } = await signedInPage(browser(), admin, 'admin', DESKTOP);
    await expect.poll(() => page.getByText('Admin Dashboard').count()).toBeGreaterThan(0);
    await screenshot(page, 'admin-dashboard');
    await context.close();
  });
});
