// What the screen shows fits where it is shown (issue 28): at 390 px the services hero's three buttons stay on
// one row of 44 px targets and the scroll-to-top button stands above the test-payments banner, never on it; at
// 1366 px the dashboard's Deposits figure keeps its currency code on its line and each recent change shows its
// actor and time whole.
import type { Locator } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from '../support/browser';
import { api, newUser, newUserSignedIn, sharedBrowser, signedInPage, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const browser = sharedBrowser();

const boxOf = async (locator: Locator) => {
  const box = await locator.boundingBox();
  expect(box, String(locator)).not.toBeNull();
  return box!;
};

/** Whether an element's text runs on one line: no taller than one line of its own type. */
const isOneLine = (locator: Locator) =>
  locator.evaluate((element) => {
    const { lineHeight, fontSize } = getComputedStyle(element);
    const line = lineHeight === 'normal' ? Number.parseFloat(fontSize) * 1.3 : Number.parseFloat(lineHeight);
    return element.getBoundingClientRect().height < line * 1.5;
  });

describe('fits at 390 px', () => {
  it('keeps the services hero to one row of 44 px buttons, and the scroll-to-top button off the test-payments banner', async () => {
    const { context, page } = await newUserSignedIn(browser(), 'Ife Fits', PHONE);
    try {
      await page.goto('/user/services');
      const hero = ['New order', 'Add funds', 'Dashboard'].map((name) => page.getByRole('main').getByRole('link', { name, exact: true }).first());
      const boxes = await Promise.all(hero.map(boxOf));
      for (const [index, box] of boxes.entries()) {
        expect(box.height, String(hero[index])).toBeGreaterThanOrEqual(44);
        expect(box.y, 'on the row of the first button').toBe(boxes[0].y);
        // Polled: measured while the page still settles (its fonts, a re-render), a label can read taller for a moment.
        await expect.poll(() => isOneLine(hero[index].locator('span')), { message: `${String(hero[index])} on one line`, timeout: 20_000 }).toBe(true);
      }

      // Scrolled once the list's rows are here: before, the page can be too short to scroll past 300 px, and
      // a scroll that lands short shows no button (a clean-clone run failed on exactly that).
      await page.getByRole('list', { name: 'Services' }).getByRole('article').first().waitFor();
      await expect
        .poll(
          () =>
            page.evaluate(() => {
              window.scrollTo(0, 1200);
              return window.scrollY;
            }),
          { message: 'scrolled past 300 px', timeout: 20_000 },
        )
        .toBeGreaterThan(300);
      const toTop = page.getByRole('button', { name: 'Scroll to top' });
      await toTop.waitFor();
      const banner = await boxOf(page.getByRole('status', { name: 'Test payments' }));
      const button = await boxOf(toTop);
      expect(button.y + button.height, 'the button ends above the banner').toBeLessThanOrEqual(banner.y);
      expect(button.height).toBeGreaterThanOrEqual(44);
      await screenshot(page, 'scroll-to-top-above-banner-phone');
    } finally {
      await context.close();
    }
  }, 60_000);
});

describe('fits at 1366 px', () => {
  it("keeps the Deposits figure on one line, and shows each recent change's actor and time whole", async () => {
    // A seven-figure deposit total, so the figure is long.
    const user = await newUser('Big Depositor');
    const token = await signInByApi(admin.email, admin.password);
    const credit = await api('user/admin-credit-user-wallet', {
      token,
      body: { amount: '2345678.90', reference: unique('e2e-fits-'), userId: user.id },
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);

    const { context, page } = await signedInPage(browser(), admin, 'admin', DESKTOP);
    try {
      await page.goto('/admin');
      const deposits = page.locator('.card', { has: page.getByText('Deposits', { exact: true }) }).first();
      const figure = deposits.getByText(/^NGN [\d,]+\.\d\d$/);
      await figure.waitFor();
      expect(await isOneLine(figure), 'the amount and its currency code on one line').toBe(true);
      const card = await boxOf(deposits);
      const figureBox = await boxOf(figure);
      expect(figureBox.x + figureBox.width, 'inside its card').toBeLessThanOrEqual(card.x + card.width);

      const recent = page.locator('li', { has: page.getByRole('link', { name: /^Credited NGN 2,345,678\.90 to Big Depositor/ }) }).first();
      await recent.scrollIntoViewIfNeeded();
      const time = recent.locator('time');
      const meta = recent.locator('p', { has: page.locator('time') });
      expect(await meta.evaluate((element) => element.scrollWidth <= element.clientWidth), 'nothing cut off').toBe(true);
      expect(await isOneLine(time), 'the time whole on its line').toBe(true);
      await screenshot(page, 'dashboard-figures-and-recent-changes-laptop');
    } finally {
      await context.close();
    }
  }, 60_000);
});
