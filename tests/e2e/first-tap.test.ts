// A first tap counts on a cheap phone (issue 28, part 4): the signed-in pages paint from pre-rendered
// markup that stays inert until the SPA's code has arrived and the session check is done; a tap on the
// account menu meanwhile is kept and opens the menu once it can. A visitor's page is live markup that
// does nothing until React has hydrated it: a tap on its menu button meanwhile is kept and tapped again
// as React takes the page. Under a 6x CPU slowdown at 390 px.
// Also the top bar at 390 px with a seven-figure balance: the logo keeps its size and the logo's link, the
// currency switcher and the add-funds, bell and tickets buttons are 44 px touch targets in a 64 px bar.
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, newUserSignedIn, openPage, sharedBrowser, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const browser = sharedBrowser();
let adminToken: string;

beforeAll(async () => {
  adminToken = await signInByApi(admin.email, admin.password);
});

/** A promise the test resolves itself: the page's code is held back until the tap, as a slow link does. */
function heldUntilReleased() {
  let release: () => void = () => undefined;
  const promise = new Promise<void>((resolve) => {
    release = resolve;
  });
  return { promise, release };
}

describe('a first tap on a cheap phone', () => {
  it("opens a visitor's side menu when tapped before React has taken the page, under a 6x CPU slowdown", async () => {
    const { context, page } = await openPage(browser(), PHONE);
    try {
      // The page's code is held back until after the tap, so the tap lands on markup React has not taken.
      const { promise: codeHeld, release: releaseCode } = heldUntilReleased();
      await page.route('**/assets/*.js', async (route) => {
        await codeHeld;
        await route.continue();
      });
      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      await page.goto('/about-us', { waitUntil: 'commit' });
      const menuButton = page.getByRole('button', { name: 'Open menu' });
      await menuButton.click();
      expect(await page.evaluate(() => document.getElementById('root')?.hasAttribute('data-taken'))).toBe(false);
      releaseCode();
      await page.locator('#mobile-menu').getByRole('link', { name: 'Home', exact: true }).waitFor({ timeout: 30_000 });
      expect(await page.locator('[aria-controls="mobile-menu"]').getAttribute('aria-expanded')).toBe('true');
      // Once: the kept tap opened the menu and did not toggle it shut again.
      expect(await page.evaluate(() => document.querySelector('[data-kept-tap]'))).toBeNull();
    } finally {
      await context.close();
    }
  }, 120_000);

  it('follows a link of the signed-in page tapped before the session check let the person in', async () => {
    const { context, page } = await newUserSignedIn(browser(), 'Tayo Firstlink', PHONE);
    try {
      const { promise: codeHeld, release: releaseCode } = heldUntilReleased();
      await page.route('**/assets/*.js', async (route) => {
        await codeHeld;
        await route.continue();
      });
      await page.goto('/user/orders', { waitUntil: 'commit' });
      const addFund = page.getByRole('link', { name: 'Add fund' });
      await addFund.waitFor();
      const box = await addFund.boundingBox();
      expect(box).not.toBeNull();
      // The pre-rendered page is inert: the tap falls through it, as on a phone before the code has run.
      await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
      expect(await page.evaluate(() => document.querySelector('#root [inert]') !== null)).toBe(true);
      releaseCode();
      await page.waitForURL(/\/user\/add-fund$/, { timeout: 30_000 });
      await page.getByRole('heading', { level: 1 }).first().waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);

  it('opens the account menu when tapped before its code has arrived, under a 6x CPU slowdown', async () => {
    const { user, context, page } = await newUserSignedIn(browser(), 'Tayo Firsttap', PHONE);
    try {
      const credit = await api('user/admin-credit-user-wallet', {
        token: adminToken,
        body: { amount: '1234567.89', reference: unique('e2e-first-tap-'), userId: user.id },
      });
      expect(credit.status, JSON.stringify(credit.body)).toBe(200);

      const cdp = await page.context().newCDPSession(page);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 6 });
      // A fresh load from the pre-rendered page, tapped as soon as the button is painted: no waiting for the page to take it.
      await page.goto('/user/orders', { waitUntil: 'commit' });
      const menuButton = page.getByRole('button', { name: 'Account menu' });
      await menuButton.waitFor();
      const box = await menuButton.boundingBox();
      expect(box).not.toBeNull();
      const stillInert = await page.evaluate(() => document.querySelector('#root [inert]') !== null);
      await page.mouse.click(box!.x + box!.width / 2, box!.y + box!.height / 2);
      await page.getByRole('menu', { name: 'Account menu, Tayo Firsttap' }).waitFor({ timeout: 30_000 });
      await page.getByRole('menuitem', { name: 'Logout' }).waitFor();
      // The tap landed on the page before it could take it, which is what this test is for.
      expect(stillInert).toBe(true);
      await cdp.send('Emulation.setCPUThrottlingRate', { rate: 1 });
      await page.keyboard.press('Escape');
      await page.getByRole('menu').waitFor({ state: 'detached' });

      // The top bar at 390 px with a seven-figure balance.
      await page.getByText('NGN 1,234,567.89').waitFor();
      await screenshot(page, 'header-seven-figures-phone');
      const header = page.locator('header').first();
      const logo = header.getByRole('link', { name: /home$/ }).locator('img');
      const logoBox = await logo.boundingBox();
      expect(logoBox?.width).toBeGreaterThanOrEqual(32);
      const currency = await header.getByLabel('Display currency').boundingBox();
      expect(logoBox!.x + logoBox!.width, 'the logo ends before the currency switcher starts').toBeLessThanOrEqual(currency!.x);
      expect((await header.boundingBox())?.height, 'the bar is no taller for its touch targets').toBeLessThanOrEqual(65);
      for (const target of [
        header.getByRole('link', { name: /home$/ }),
        header.getByLabel('Display currency'),
        header.getByRole('link', { name: 'Add fund' }),
        header.getByRole('button', { name: /^Notifications/ }),
        header.getByRole('link', { name: /^Support tickets/ }),
        header.getByRole('button', { name: /^Account menu/ }),
      ]) {
        const size = await target.boundingBox();
        expect(size, String(target)).not.toBeNull();
        expect(size!.width, String(target)).toBeGreaterThanOrEqual(44);
        expect(size!.height, String(target)).toBeGreaterThanOrEqual(44);
        // Inside the screen, not pushed off its edge.
        expect(size!.x + size!.width, String(target)).toBeLessThanOrEqual(PHONE.width);
      }
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
    } finally {
      await context.close();
    }
  }, 120_000);
});
