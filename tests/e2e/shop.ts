// What the two-factor and Flutterwave browser tests share: calls to the shop's API as a script
// would make them, browsers each coming from an address of their own (sign-ins are rate limited
// per address), signing in and out through the SPA.
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { afterAll, beforeAll, expect, inject } from 'vitest';
import { DESKTOP, launchBrowser, newPage } from '../support/browser';

export const shopUrl = inject('shopUrl');

export const unique = (prefix: string) => `${prefix}${Date.now().toString(36)}${Math.random().toString(36).slice(2, 6)}`;
const uniqueIp = () => `10.${[0, 0, 0].map(() => Math.floor(Math.random() * 250) + 1).join('.')}`;

export async function api<T = any>(path: string, options: { method?: string; body?: unknown; token?: string } = {}): Promise<{ status: number; body: T }> {
  const headers: Record<string, string> = { 'cf-connecting-ip': uniqueIp() };
  if (options.body !== undefined) headers['content-type'] = 'application/json';
  if (options.token) headers.authorization = `Bearer ${options.token}`;
  const response = await fetch(`${shopUrl}/api/v1/${path}`, { method: options.method ?? (options.body === undefined ? 'GET' : 'POST'), headers, body: options.body === undefined ? undefined : JSON.stringify(options.body) });
  return { status: response.status, body: (await response.json()) as T };
}

/** A user registered and signed in through the API. */
export async function newUser(fullName: string) {
  const email = `${unique('e2e-user')}@example.com`;
  const password = 'user-password-1';
  expect((await api('auth/register', { body: { fullName, email, password, userType: 2 } })).status).toBe(201);
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

/** One Chromium for the file's tests: launched before them, closed after. Call at the top of a file. */
export function useBrowser(): () => Browser {
  let browser: Browser | undefined;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });
  return () => browser!;
}
