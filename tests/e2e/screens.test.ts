// Every screen at phone and desktop widths: it renders without a script error or a stray 404,
// and leaves a screenshot in test-results/screenshots/ to look at.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, launchBrowser, newPage, PHONE, screenshot } from '../support/browser';

const shopUrl = inject('shopUrl');
const admin = inject('e2eAdmin');
let browser: Browser;

beforeAll(async () => {
  browser = await launchBrowser();
});
afterAll(async () => {
  await browser?.close();
});

/** Sign-ins are rate limited per address, so each browser here comes from one of its own. */
const uniqueIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

const PUBLIC_SCREENS = ['/', '/services', '/about-us', '/contact-us', '/auth/login', '/auth/register', '/forgot-password'];
const USER_SCREENS = ['/user/dashboard', '/user/services', '/user/create-order', '/user/orders', '/user/transactions', '/user/add-fund', '/user/profile', '/user/api'];
const ADMIN_SCREENS = ['/admin/dashboard', '/admin/users', '/admin/administrators', '/admin/services', '/admin/orders', '/admin/transactions', '/admin/payment-settings', '/admin/site-settings', '/admin/account-settings'];

async function signIn(page: Page, email: string, password: string, home: RegExp) {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
  await page.waitForURL(home);
}

async function tour(page: Page, paths: string[]) {
  const scriptErrors: string[] = [];
  page.on('pageerror', (error) => scriptErrors.push(`${page.url()}: ${error.message}`));
  for (const path of paths) {
    await page.goto(path);
    await page.waitForLoadState('networkidle');
    expect(await page.getByText('404 Not Found').count(), path).toBe(0);
    await screenshot(page, `screen${path === '/' ? '-home' : path.replace(/\//g, '-')}`);
  }
  expect(scriptErrors).toEqual([]);
}

describe.each([
  ['phone', PHONE],
  ['desktop', DESKTOP],
])('every screen on a %s', (_width, viewport) => {
  it('public screens', async () => {
    const { context, page } = await newPage(browser, shopUrl, viewport);
    await tour(page, PUBLIC_SCREENS);
    await context.close();
  });

  it('user screens', async () => {
    const email = `tour${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}@example.com`;
    const registered = await fetch(`${shopUrl}/api/v1/auth/register`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueIp() },
      body: JSON.stringify({ fullName: 'Tour Guide', email, password: 'tour-password-1', userType: 2 }),
    });
    expect(registered.status).toBe(201);
    const { context, page } = await newPage(browser, shopUrl, viewport);
    await context.setExtraHTTPHeaders({ 'cf-connecting-ip': uniqueIp() });
    await signIn(page, email, 'tour-password-1', /\/user(\/|$)/);
    await tour(page, USER_SCREENS);
    await context.close();
  });

  it('admin screens', async () => {
    const { context, page } = await newPage(browser, shopUrl, viewport);
    await context.setExtraHTTPHeaders({ 'cf-connecting-ip': uniqueIp() });
    await signIn(page, admin.email, admin.password, /\/admin(\/|$)/);
    await tour(page, ADMIN_SCREENS);
    await context.close();
  });
});
