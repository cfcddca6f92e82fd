// A new customer's address, end to end in Chromium at phone width, as someone trying the shop would:
// register through the form, sign in, see the banner asking for confirmation and the API page saying
// a key needs it, ask for a new link, open it from the sandbox mailbox, and then make a key that answers.
// The banner comes with the session check's answer, after the page has painted: it moves nothing already on
// screen (issue 28), and the page still scrolls clear of it.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, openPage, sharedBrowser, shopUrl, signIn, unique } from './shop';

const browser = sharedBrowser();

/** The newest confirmation link the sandbox mailbox holds for `email`, as its owner would click it. */
async function newestConfirmationLink(email: string): Promise<string | undefined> {
  const inbox = (await (await fetch(`${inject('e2eMailboxUrl')}/__messages?to=${encodeURIComponent(email)}`)).json()) as { messages: Array<{ text: string }> };
  return inbox.messages.map((message) => /\S+\/verify-email\?token=\S+/.exec(message.text)?.[0]).findLast((link) => link !== undefined);
}

async function register(page: Page, account: { fullName: string; email: string; password: string }) {
  await page.goto('/auth/register');
  await page.getByLabel('Full Name').fill(account.fullName);
  await page.getByLabel('Email Address').fill(account.email);
  await page.getByLabel('Password', { exact: true }).fill(account.password);
  await page.getByLabel('Confirm Password').fill(account.password);
  await page.getByRole('button', { name: 'Sign Up' }).click();
  await page.waitForURL('**/auth/login');
}

describe('a new customer’s address', () => {
  it('is confirmed from the mailbox before the first API key, which then answers', async () => {
    const { context, page } = await openPage(browser(), PHONE);
    const account = { fullName: 'Ngozi Eze', email: `${unique('e2e-verify')}@example.com`, password: 'velvet-okra-lantern-42' };
    await register(page, account);
    const firstLink = await newestConfirmationLink(account.email);
    expect(firstLink, 'registration emails a confirmation link').toBeTruthy();
    await signIn(page, account, 'user');

    const banner = page.getByRole('region', { name: 'Confirm your email address' });
    await banner.waitFor({ state: 'visible' });
    expect(await banner.textContent()).toContain(`Confirm your email address: we sent a link to ${account.email}.`);
    await page.goto('/user/api');
    await page.getByRole('alert', { name: 'Confirm your email address to create API keys' }).waitFor({ state: 'visible' });
    expect(await page.getByRole('button', { name: 'Create key' }).isDisabled()).toBe(true);
    await screenshot(page, 'api-page-unconfirmed');

    await banner.getByRole('button', { name: 'Send a new link' }).click();
    await expect.poll(() => banner.getByRole('status').textContent()).toBe(`We emailed a new confirmation link to ${account.email}.`);
    await expect.poll(() => newestConfirmationLink(account.email)).not.toBe(firstLink);
    const link = (await newestConfirmationLink(account.email)) ?? '';
    expect(new URL(link).origin).toBe(shopUrl);

    await page.goto(link);
    await page.getByRole('heading', { name: 'Email address confirmed' }).waitFor({ state: 'visible' });
    await screenshot(page, 'email-confirmed');
    await page.getByRole('link', { name: 'Continue to your dashboard' }).click();
    await page.waitForURL(/\/user(\/|$)/);
    await page.goto('/user/api');
    await page.getByRole('heading', { name: 'Your API keys' }).waitFor({ state: 'visible' });
    // The banner's chance comes with the session check's answer: the page is busy until then.
    await expect.poll(() => page.locator('[aria-busy="true"]').count()).toBe(0);
    expect(await banner.count()).toBe(0);

    await page.getByLabel('Key name').fill('My panel');
    await page.getByRole('button', { name: 'Create key' }).click();
    const key = await page.getByRole('dialog', { name: 'Your new API key' }).getByLabel('My panel').inputValue();
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    const balance = (await (await fetch(`${shopUrl}/api/v2?key=${key}&action=balance`)).json()) as Record<string, unknown>;
    expect(balance).toEqual(expect.objectContaining({ balance: '0.00', currency: 'NGN' }));
    await context.close();
  });

  it('appears over the bottom of a signed-in page without moving the page, at 390 px', async () => {
    const account = { fullName: 'Tunde Still', email: `${unique('e2e-unmoved')}@example.com`, password: 'quiet-baobab-ledger-17' };
    expect((await api('auth/register', { body: { ...account, userType: 2 } })).status).toBe(201);
    const { context, page } = await openPage(browser(), PHONE);
    try {
      await signIn(page, account, 'user');
      // Opened afresh (a bookmark, a reload), the page paints before the session check answers; that answer is held back
      // until the page's top has been measured.
      let release!: () => void;
      const held = new Promise<void>((resolve) => (release = resolve));
      let asked!: () => void;
      const checking = new Promise<void>((resolve) => (asked = resolve));
      await page.route(/\/api\/v1\/user\/getCurrentProfile$/, async (route) => {
        asked();
        await held;
        await route.continue();
      });
      await page.goto('/user/orders');
      const main = page.locator('#user-main');
      await main.waitFor({ state: 'visible' });
      await checking;
      const banner = page.getByRole('region', { name: 'Confirm your email address' });
      expect(await banner.count(), 'no banner before the session check answers').toBe(0);
      const before = (await main.boundingBox())!;

      release();
      await banner.waitFor({ state: 'visible' });
      const after = (await main.boundingBox())!;
      expect(after.y, "the page's top stays where it was painted").toBe(before.y);

      // On screen, its button a 44 px target, and the end of the page scrolls clear of it.
      const box = (await banner.boundingBox())!;
      expect(box.y + box.height).toBeLessThanOrEqual(PHONE.height);
      expect((await banner.getByRole('button', { name: 'Send a new link' }).boundingBox())!.height).toBeGreaterThanOrEqual(44);
      await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
      const shell = main.locator('..');
      await expect
        .poll(
          async () => {
            const [end, top] = await Promise.all([shell.boundingBox(), banner.boundingBox()]);
            return end!.y + end!.height <= top!.y;
          },
          { message: 'the whole shell scrolls clear of the banner' },
        )
        .toBe(true);
      await screenshot(page, 'unconfirmed-banner-docked');
    } finally {
      await context.close();
    }
  });
});
