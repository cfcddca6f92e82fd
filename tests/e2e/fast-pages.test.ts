// A phone on mobile data paints the public pages from the first response: the build pre-renders them
// (web/prerender.ts), the SPA takes the markup over without painting it again, a deep link served
// Home's page shows only its own screen, and nothing below a screen moves when its lazy chunk arrives.
import { createHash } from 'node:crypto';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { PHONE } from '../support/browser';
import { newUser, newUserSignedIn, openPage, sharedBrowser, shopUrl } from './shop';

const browser = sharedBrowser();

const PRE_RENDERED = [
  { path: '/', heading: 'Grow your social media the smart way' },
  { path: '/services', heading: 'Services' },
  { path: '/auth/login', heading: 'Welcome back' },
];

/** Keeps, on window.parsedRoot, what #root held once the HTML was parsed: before any module script ran. */
async function keepParsedRoot(page: Page) {
  await page.addInitScript(() => {
    document.addEventListener('readystatechange', () => {
      if (document.readyState !== 'interactive') return;
      const root = document.getElementById('root');
      Object.assign(window, {
        parsedRoot: { heading: root?.querySelector('h1') ?? null, page: root?.dataset.page ?? null, loading: Boolean(root?.querySelector('[role="status"]')) },
      });
    });
  });
}

/** What the first paint shows where the pre-rendered page is not the one to show. */
const parsedRoot = (page: Page) =>
  page.evaluate(() => {
    const {
      heading,
      page: prerendered,
      loading,
    } = (window as unknown as { parsedRoot: { heading: Element | null; page: string | null; loading: boolean } }).parsedRoot;
    return { heading: heading?.textContent ?? null, prerendered, loading };
  });
const LOADING = { heading: null, prerendered: null, loading: true };

describe('the pre-rendered public pages', () => {
  it.each(PRE_RENDERED)('$path arrives as HTML holding its heading, with an inline script the policy allows by its hash', async ({ path, heading }) => {
    const response = await fetch(`${shopUrl}${path}`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(new RegExp(`<h1[^>]*>${heading}</h1>`));
    const scripts = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)].map((match) => match[1]);
    expect(scripts).toHaveLength(1);
    const hash = createHash('sha256').update(scripts[0]).digest('base64');
    expect(response.headers.get('content-security-policy')).toContain(`'sha256-${hash}'`);
  });

  it('starts React and the query library from files that ask V8 to compile them as they arrive (off the main thread), and no other file', async () => {
    const html = await (await fetch(`${shopUrl}/`)).text();
    const files = JSON.parse(/var files=(\[[^\]]*\])/.exec(html)?.[1] ?? '[]') as string[];
    const firstLines = await Promise.all(files.map(async (file) => ({ file, line: (await (await fetch(`${shopUrl}${file}`)).text()).split('\n', 1)[0] })));
    const hinted = firstLines.filter(({ line }) => line === '//# allFunctionsCalledOnLoad').map(({ file }) => file.replace(/-[\w-]{8}\.js$/, ''));
    expect(hinted).toEqual(['/assets/react', '/assets/query']);
  });

  it.each(PRE_RENDERED)('$path is hydrated: the heading parsed from the HTML is the one the SPA then works with', async ({ path, heading }) => {
    const { context, page } = await openPage(browser(), PHONE);
    await keepParsedRoot(page);
    await page.goto(path);
    await page.getByRole('heading', { level: 1, name: heading }).waitFor();
    await page.waitForLoadState('networkidle');
    const sameHeading = await page.evaluate(
      () => document.querySelector('h1') === (window as unknown as { parsedRoot: { heading: Element | null } }).parsedRoot.heading,
    );
    expect(sameHeading).toBe(true);
    // React owns the markup: a link in it navigates inside the page, no new document.
    await page.evaluate(() => Object.assign(window, { sameDocument: true }));
    await page.getByRole('navigation', { name: 'Footer' }).getByRole('link', { name: 'About Us' }).click();
    await page.waitForURL((url) => url.pathname === '/about-us');
    expect(await page.evaluate(() => 'sameDocument' in window)).toBe(true);
    await context.close();
  });

  it("a path with no page of its own starts from the loading spinner, not Home's markup", async () => {
    const { context, page } = await openPage(browser(), PHONE);
    await keepParsedRoot(page);
    await page.goto('/no-such-page');
    await page.getByText('404 Not Found').first().waitFor();
    expect(await parsedRoot(page)).toEqual(LOADING);
    expect(await page.getByRole('heading', { name: PRE_RENDERED[0].heading }).count()).toBe(0);
    await context.close();
  });

  it("a signed-in person opening Home starts from the loading spinner, not the visitor's markup", async () => {
    const user = await newUser('Prerender Person');
    const { context, page } = await openPage(browser(), PHONE);
    await page.goto('/auth/login');
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/user'));
    await keepParsedRoot(page);
    await page.goto('/');
    await page.getByRole('link', { name: 'Go to Dashboard' }).first().waitFor({ state: 'attached' });
    expect(await parsedRoot(page)).toEqual(LOADING);
    await context.close();
  });
});

describe('the pre-rendered signed-in pages', () => {
  it('/user/create-order arrives as HTML holding its heading under the session-check spinner, the page inert', async () => {
    const html = await (await fetch(`${shopUrl}/user/create-order`)).text();
    expect(html).toContain('data-signed-in="true"');
    expect(html).toMatch(/<h1[^>]*>Place an order<\/h1>/);
    expect(html).toMatch(/<div class="contents" aria-busy="true" inert="">/);
  });

  it('a signed-in person paints the page from the HTML, then the SPA renders it for them and lets them use it', async () => {
    const { context, page } = await newUserSignedIn(browser(), 'Bookmark Person', PHONE);
    // The session check held back: the page the HTML painted stays up, busy, with its spinner.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/api\/v1\/user\/getCurrentProfile$/, async (route) => {
      await held;
      await route.continue();
    });
    await keepParsedRoot(page);
    await page.goto('/user/create-order');
    expect(await parsedRoot(page)).toEqual({ heading: 'Place an order', prerendered: '/user/create-order', loading: true });
    await page.locator('[aria-busy="true"]').getByRole('heading', { level: 1, name: 'Place an order' }).waitFor({ state: 'attached' });
    release();
    await page.locator('#root [aria-busy="false"]').waitFor({ state: 'attached' });
    await page.getByRole('heading', { level: 1, name: 'Place an order' }).waitFor();
    expect(
      await page
        .locator('#root [role="status"]')
        .filter({ hasText: /^Loading$/ })
        .count(),
    ).toBe(0);
    await context.close();
  });

  it('a visitor opening a signed-in page starts from the loading spinner and goes to sign in', async () => {
    const { context, page } = await openPage(browser(), PHONE);
    await keepParsedRoot(page);
    await page.goto('/user/create-order');
    await page.waitForURL((url) => url.pathname === '/auth/login');
    expect(await parsedRoot(page)).toEqual(LOADING);
    await context.close();
  });
});

describe('a pre-rendered form', () => {
  it('is disabled until the SPA has taken it over, then signs the person in', async () => {
    const user = await newUser('Early Typist');
    const { context, page } = await openPage(browser(), PHONE);
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    await page.route(/\/assets\/index-[^/]+\.js$/, async (route) => {
      await held;
      await route.continue();
    });
    await page.goto('/auth/login', { waitUntil: 'commit' });
    await page.getByRole('heading', { level: 1, name: 'Welcome back' }).waitFor();
    // Sent as a plain form it would go to /auth/login?email=...&password=..., and typed values would not reach the SPA.
    expect(await page.getByLabel('Email').isDisabled()).toBe(true);
    expect(await page.getByRole('button', { name: 'Sign In' }).isDisabled()).toBe(true);

    release();
    // Playwright's fill waits for the field to be enabled, as a person waits for it.
    await page.getByLabel('Email').fill(user.email);
    await page.getByLabel('Password', { exact: true }).fill(user.password);
    await page.getByRole('button', { name: 'Sign In' }).click();
    await page.waitForURL((url) => url.pathname.startsWith('/user'));
    expect(new URL(page.url()).search).toBe('');
    await context.close();
  });
});

describe('a lazy screen arriving', () => {
  it('leaves the loading spinner alone on screen until the page can paint whole, its footer below the fold', async () => {
    const { context, page } = await openPage(browser(), PHONE);
    // Hold the screen's chunk, and look at the page while it is held.
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    let asked!: () => void;
    const chunkAsked = new Promise<void>((resolve) => (asked = resolve));
    await page.route(/\/assets\/ForgotPasswordPage-[^/]+\.js$/, async (route) => {
      asked();
      await held;
      await route.continue();
    });
    await page.goto('/forgot-password');
    await chunkAsked;
    // The SPA is running (it asked for the chunk) and renders nothing yet: no layout that the screen could push.
    expect(await page.locator('#root [role="status"]').count()).toBe(1);
    expect(await page.getByRole('contentinfo').count()).toBe(0);
    release();
    await page.getByRole('heading', { level: 1 }).first().waitFor();
    const footer = await page.getByRole('contentinfo').boundingBox();
    expect(footer!.y).toBeGreaterThanOrEqual(PHONE.height);
    await context.close();
  });
});
