// What the browser tests share: one Chromium per file, calls to the shop's API as a script would
// make them, browsers each coming from an address of their own (sign-ins are rate limited per
// address), signing in through the SPA, each area's screens at both widths, and toasts.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, launchBrowser, newPage, PHONE } from '../support/browser';

export const shopUrl = inject('shopUrl');

export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const uniqueIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

// biome-ignore lint/suspicious/noExplicitAny: a test that names no answer type reads the answer field by field; a field it misreads fails its expect()
export async function api<T = any>(
  path: string,
  options: { method?: string; body?: unknown; token?: string | null } = {},
): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'cf-connecting-ip': uniqueIp() };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${shopUrl}/api/v1/${path}`, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  return { status: response.status, body: (await response.json()) as T };
}

/** Confirms the address with the link the sandbox mailbox holds for it, as its owner would (keys, commission and promotion need it). */
export async function confirmAddress(email: string) {
  const inbox = (await (await fetch(`${inject('e2eMailboxUrl')}/__messages?to=${encodeURIComponent(email)}`)).json()) as { messages: Array<{ text: string }> };
  const link = inbox.messages.map((message) => /verify-email\?token=(\S+)/.exec(message.text)).findLast((found) => found !== null);
  expect(link, `a confirmation link emailed to ${email}`).toBeTruthy();
  expect((await api('auth/verify-email', { body: { token: decodeURIComponent(link![1]) } })).status).toBe(200);
}

/** A user registered (their address confirmed, as most customers' is) and signed in through the API. */
export async function newUser(fullName: string) {
  const email = `${unique('e2e-user')}@example.com`;
  const password = 'user-password-1';
  expect((await api('auth/register', { body: { fullName, email, password, userType: 2 } })).status).toBe(201);
  await confirmAddress(email);
  const session = await api<{ accessToken: string; user: { id: number } }>('auth/login', { body: { email, password } });
  return { id: session.body.user.id, email, password, fullName, token: session.body.accessToken };
}

export async function signInByApi(email: string, password: string): Promise<string> {
  const session = await api<{ accessToken: string }>('auth/login', { body: { email, password } });
  expect(session.status).toBe(200);
  return session.body.accessToken;
}

export async function openPage(browser: Browser, viewport = DESKTOP): Promise<{ context: BrowserContext; page: Page }> {
  const opened = await newPage(browser, shopUrl, viewport);
  await opened.context.setExtraHTTPHeaders({ 'cf-connecting-ip': uniqueIp() });
  return opened;
}

/** Fills the login form and presses Sign In; where that leads is the caller's to check. */
export async function submitLogin(page: Page, email: string, password: string) {
  await page.goto('/auth/login');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password', { exact: true }).fill(password);
  await page.getByRole('button', { name: 'Sign In' }).click();
}

type Account = { email: string; password: string };
const AREA_HOME = { user: /\/user(\/|$)/, admin: /\/admin(\/|$)/ };

/** Signs in through the login form and waits to land in the account's own area. */
export async function signIn(page: Page, account: Account, area: keyof typeof AREA_HOME): Promise<void> {
  await submitLogin(page, account.email, account.password);
  await page.waitForURL(AREA_HOME[area]);
}

/** A browser of its own, signed in through the login form and landed in the account's area. */
export async function signedInPage(browser: Browser, account: Account, area: keyof typeof AREA_HOME, viewport = DESKTOP) {
  const opened = await openPage(browser, viewport);
  await signIn(opened.page, account, area);
  return opened;
}

/** A user registered through the API, and a browser of its own signed in as them through the form. */
export async function newUserSignedIn(browser: Browser, fullName: string, viewport = DESKTOP) {
  const user = await newUser(fullName);
  return { user, ...(await signedInPage(browser, user, 'user', viewport)) };
}

type Area = 'visitor' | keyof typeof AREA_HOME;
const AREAS: Array<[string, Area]> = [
  ['the public screens', 'visitor'],
  ["a user's screens", 'user'],
  ["an administrator's screens", 'admin'],
];

/** Each area's main screens: what every check of them all (axe, the screenshot tour) goes through. */
export const MAIN_SCREENS: Record<Area, string[]> = {
  visitor: ['/', '/services', '/about-us', '/contact-us', '/auth/login', '/auth/register', '/forgot-password'],
  user: ['/user/dashboard', '/user/services', '/user/create-order', '/user/orders', '/user/transactions', '/user/add-fund', '/user/profile', '/user/api'],
  admin: ['/admin/dashboard', '/admin/users', '/admin/services', '/admin/orders', '/admin/transactions', '/admin/payment-settings', '/admin/site-settings'],
};

/** A page of its own for the area: a visitor's, a new user's or the administrator's, signed in. */
async function pageIn(browser: Browser, area: Area, viewport: typeof DESKTOP) {
  if (area === 'visitor') return openPage(browser, viewport);
  if (area === 'user') return newUserSignedIn(browser, 'Screen Visitor', viewport);
  return signedInPage(browser, inject('e2eAdmin'), area, viewport);
}

/** One test for each area's main screens at phone and at desktop width: `check` is given the area's page and its paths. */
export function eachAreaAtBothWidths(browser: () => Browser, screens: Record<Area, string[]>, check: (page: Page, paths: string[]) => Promise<void>) {
  describe.each([
    ['phone', PHONE],
    ['desktop', DESKTOP],
  ])('on a %s', (_width, viewport) => {
    it.each(AREAS)('%s', async (_screens, area) => {
      const { context, page } = await pageIn(browser(), area, viewport);
      await check(page, screens[area]);
      await context.close();
    });
  });
}

/** Opens Add fund and types the amount to deposit, ready for 'Proceed to payment'. */
export async function fillDeposit(page: Page, amount: string): Promise<void> {
  await page.goto('/user/add-fund');
  await page
    .getByLabel(/amount/i)
    .first()
    .fill(amount);
}

/** Opens the order form and fills it for Instagram Followers: the service searched for and picked, a link and a quantity. */
export async function fillFollowersOrder(page: Page, link: string, quantity = '100'): Promise<void> {
  await page.goto('/user/create-order');
  await page.getByPlaceholder('Search services by name or ID').fill('Instagram Followers');
  // Search is debounced: pick from the filtered list, not the one still on screen.
  await page
    .getByRole('listbox', { name: 'Services' })
    .getByRole('option', { name: /Instagram Followers/ })
    .first()
    .click();
  await page.getByLabel('Link').fill(link);
  await page.getByLabel('Quantity').fill(quantity);
}

/** Waits for a toast with this text; toasts show one at a time, so one can wait behind others. */
export async function expectToast(page: Page, text: string, timeout = 10_000): Promise<void> {
  await page.locator('.Toastify__toast', { hasText: text }).first().waitFor({ state: 'visible', timeout });
}

/** One Chromium for the file's tests: launched before them, closed after. Call at the top of a file. */
export function sharedBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}
