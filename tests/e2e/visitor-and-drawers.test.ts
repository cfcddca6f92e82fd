// What a visitor's browser and a phone's keyboard meet: no failing request or console error on the
// public pages, real robots.txt and sitemap.xml, and side drawers that, closed, are out of the Tab
// order and the accessibility tree, and, opened, take the focus and give it back on Escape.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { PHONE } from '../support/browser';
import { openPage, sharedBrowser, shopUrl, submitLogin } from './shop';

const browser = sharedBrowser();
const admin = inject('e2eAdmin');

// The public pages of spec section 2 worth a search engine's visit.
const SITEMAP_PAGES = ['/', '/services', '/about-us', '/contact-us', '/auth/login', '/auth/register'];

describe('a visitor', () => {
  it('sees no console error and no failing request on /, /services and /auth/login', async () => {
    const { context, page } = await openPage(browser(), PHONE);
    const problems: string[] = [];
    page.on('console', (message) => {
      if (message.type() === 'error') problems.push(`console: ${message.text()}`);
    });
    page.on('pageerror', (error) => problems.push(`script: ${error.message}`));
    // A request the page itself cancels (a query dropped as its screen unmounts) is no failure and logs nothing.
    page.on('requestfailed', (request) => {
      if (request.failure()?.errorText !== 'net::ERR_ABORTED') problems.push(`failed: ${request.url()} ${request.failure()?.errorText}`);
    });
    page.on('response', (response) => {
      if (response.status() >= 400) problems.push(`${response.status()}: ${response.url()}`);
    });
    for (const path of ['/', '/services', '/auth/login']) {
      await page.goto(path);
      await page.waitForLoadState('networkidle');
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    }
    expect(problems).toEqual([]);
    await context.close();
  });
});

describe('crawlers', () => {
  it('read a robots.txt that keeps them out of the admin area and the API and names the sitemap', async () => {
    const response = await fetch(`${shopUrl}/robots.txt`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/plain/);
    const lines = (await response.text()).split('\n');
    expect(lines).toContain('User-agent: *');
    expect(lines).toEqual(expect.arrayContaining(['Disallow: /admin', 'Disallow: /api']));
    expect(lines).toContain(`Sitemap: ${shopUrl}/sitemap.xml`);
  });

  it('read a sitemap.xml listing every public page by its absolute address', async () => {
    const response = await fetch(`${shopUrl}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^application\/xml/);
    const xml = await response.text();
    expect(xml).toMatch(/^<\?xml version="1.0" encoding="UTF-8"\?>\n<urlset xmlns="http:\/\/www.sitemaps.org\/schemas\/sitemap\/0.9">/);
    const listed = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(listed).toEqual(SITEMAP_PAGES.map((path) => `${shopUrl}${path}`));
  });
});

/** Whether the focused element is inside the element with this id. */
const focusIsIn = (page: Page, id: string) => page.evaluate((drawerId) => Boolean(document.getElementById(drawerId)?.contains(document.activeElement)), id);
const focusedText = (page: Page) =>
  page.evaluate(() => (document.activeElement as HTMLElement | null)?.getAttribute('aria-label') ?? document.activeElement?.textContent?.trim() ?? '');

/** Tabs through the whole page from the top until the focus wraps back to the document; the drawer is never reached. */
async function tabThroughPage(page: Page, drawerId: string) {
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const seen: string[] = [];
  for (let stop = 0; stop < 200; stop += 1) {
    await page.keyboard.press('Tab');
    if (await page.evaluate(() => document.activeElement === document.body)) break;
    expect(await focusIsIn(page, drawerId), `Tab stop ${stop} (${seen.at(-1)} then ${await focusedText(page)})`).toBe(false);
    seen.push(await focusedText(page));
  }
  expect(seen.length).toBeGreaterThan(2);
}

async function expectDrawerKeyboardFlow(page: Page, drawerId: string, menuButton: string) {
  const drawer = page.locator(`#${drawerId}`);
  await tabThroughPage(page, drawerId);
  // Closed, none of its links is in the accessibility tree (role queries skip what screen readers cannot see).
  expect(await drawer.getByRole('link').count()).toBe(0);

  // A tap before the page's code has run is kept and acted on once it has (first-tap.test.ts): on a busy machine, seconds later.
  await page.getByRole('button', { name: menuButton }).click();
  await expect.poll(() => focusIsIn(page, drawerId), { timeout: 30_000 }).toBe(true);
  await page.keyboard.press('Tab');
  expect(await focusIsIn(page, drawerId)).toBe(true);
  expect(await drawer.getByRole('link').count()).toBeGreaterThan(2);

  await page.keyboard.press('Escape');
  await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-controls'))).toBe(drawerId);
  expect(await page.getByRole('button', { name: menuButton }).getAttribute('aria-expanded')).toBe('false');
  await expect.poll(() => drawer.evaluate((element) => getComputedStyle(element).visibility)).toBe('hidden');
  expect(await drawer.getByRole('link').count()).toBe(0);
  await tabThroughPage(page, drawerId);
}

describe('on a 390 px phone', () => {
  it("the public menu drawer, closed, is out of the keyboard's reach; opened, it takes the focus; Escape gives it back", async () => {
    const { context, page } = await openPage(browser(), PHONE);
    await page.goto('/about-us');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expectDrawerKeyboardFlow(page, 'mobile-menu', 'Open menu');
    await context.close();
  });

  it("the admin sidebar drawer, closed, is out of the keyboard's reach; opened, it takes the focus; Escape gives it back", async () => {
    const { context, page } = await openPage(browser(), PHONE);
    await submitLogin(page, admin.email, admin.password);
    await page.waitForURL(/\/admin(\/|$)/);
    await page.goto('/admin/site-settings');
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    await expectDrawerKeyboardFlow(page, 'admin-sidebar', 'Open menu');
    await context.close();
  });
});
