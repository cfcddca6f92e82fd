// Favourites in Chromium at phone width: a customer stars a service in Services, orders it, opens
// Favorites from the account menu and taps Order again, which opens the order form filled with the
// link and quantity of that last order.
import { describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, newUser, sharedBrowser, signedInPage, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const browser = sharedBrowser();

describe('favourite services', () => {
  it('are starred in Services, found from the account menu, and ordered again with the last link and quantity', async () => {
    const listed = await api<{ data: Array<{ id: number; name: string; type: string; min: number }> }>('services?search=Instagram%20Likes&limit=50');
    const service = listed.body.data.find((candidate) => candidate.type === 'Default')!;
    expect(service, 'a Default Instagram Likes service on sale').toBeTruthy();
    const customer = await newUser('Tobi Favourite');
    const adminToken = await signInByApi(admin.email, admin.password);
    const credit = await api('user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: '100000', reference: unique('e2e-fav-'), userId: customer.id },
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);

    const { context, page } = await signedInPage(browser(), customer, 'user', PHONE);
    try {
      await page.goto(`/user/services`);
      await page.getByRole('searchbox').first().fill(service.name);
      const star = page.getByRole('button', { name: `Add ${service.name} to favorites` }).first();
      await star.click();
      await expect
        .poll(() =>
          page
            .getByRole('button', { name: `Remove ${service.name} from favorites` })
            .first()
            .getAttribute('aria-pressed'),
        )
        .toBe('true');

      const link = `https://www.instagram.com/p/${unique('fav')}`;
      const quantity = Math.max(service.min, 150);
      const placed = await api('user/orders', { token: customer.token, body: { serviceId: service.id, link, quantity } });
      expect(placed.status, JSON.stringify(placed.body)).toBe(201);

      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Favorites' }).click();
      await page.waitForURL(/\/user\/favorites$/);
      const again = page.getByRole('link', { name: `Order again: ${service.name}` });
      await again.waitFor();
      await screenshot(page, 'favorites-phone');
      // A long last link is cut short inside its card, never widening the page.
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);
      await again.click();
      await page.waitForURL(/\/user\/create-order\?/);
      await expect.poll(() => page.getByLabel('Link').inputValue()).toBe(link);
      expect(await page.getByLabel('Quantity').inputValue()).toBe(String(quantity));
      await screenshot(page, 'favorites-order-again');
    } finally {
      await context.close();
    }
  }, 120_000);
});
