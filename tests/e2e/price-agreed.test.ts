// The price agreed, in Chromium at phone width: a customer notes the charge on the order form, an
// administrator raises the service's markup meanwhile, and placing the order shows the new price
// and asks to confirm it; nothing is charged until the customer confirms, and then the new price is.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, newUser, sharedBrowser, signedInPage, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const browser = sharedBrowser();
let adminToken: string;

beforeAll(async () => {
  adminToken = await signInByApi(admin.email, admin.password);
});

/** Text as people read it: Intl writes a no-break space after the currency code. */
const readable = (text: string | null) => (text ?? '').replace(/\s+/g, ' ').trim();

async function walletOf(token: string) {
  const balance = await api<{ walletBalance: number }>('user/getWalletBalance', { token });
  const orders = await api<{ total: number; data: Array<{ charge: string }> }>('user/orders', { token });
  return { balance: balance.body.walletBalance, orders: orders.body.total, charges: orders.body.data.map((order) => order.charge) };
}

const chargeShown = async (page: Page) => readable(await page.locator('form output').first().textContent());

describe('the price agreed on the order form', () => {
  it('shows the new price after the markup rose, charges nothing until the customer confirms, then charges the new price', async () => {
    const listed = await api<{ data: Array<{ id: number; name: string; type: string }> }>('services?search=Instagram%20Followers&limit=50');
    const service = listed.body.data.find((candidate) => candidate.type === 'Default')!;
    expect(service, 'a Default Instagram Followers service on sale').toBeTruthy();
    const detail = await api<{ data: { markupPercent: string | null; effectiveMarkupPercent: string } }>(`admin/services/${service.id}`, { token: adminToken });
    expect(detail.status).toBe(200);

    const customer = await newUser('Ngozi Price');
    const credit = await api('user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: '200000', reference: unique('e2e-price-'), userId: customer.id },
    });
    expect(credit.status, JSON.stringify(credit.body)).toBe(200);
    const before = await walletOf(customer.token);

    const { context, page } = await signedInPage(browser(), customer, 'user', PHONE);
    try {
      await page.goto(`/user/create-order?service=${service.id}`);
      await page.getByLabel('Link').fill('https://www.instagram.com/e2e.price.agreed');
      await page.getByLabel('Quantity').fill('1000');
      await expect.poll(() => chargeShown(page)).toMatch(/^NGN [\d,]+\.\d{2}$/);
      const shown = await chargeShown(page);

      // Meanwhile an administrator raises the markup.
      const raised = await api(`admin/services/${service.id}`, {
        method: 'PUT',
        token: adminToken,
        body: { markupPercent: Number(detail.body.data.effectiveMarkupPercent) + 25 },
      });
      expect(raised.status, JSON.stringify(raised.body)).toBe(200);

      await page.getByRole('button', { name: 'Place order' }).click();
      const notice = page.getByRole('alert').filter({ hasText: 'The price changed from' });
      await notice.waitFor({ timeout: 15_000 });
      const said = readable(await notice.locator('p').textContent());
      const match =
        /^The price changed from (NGN [\d,]+\.\d{2}) to (NGN [\d,]+\.\d{2})\. Nothing was charged\. Check the new price and confirm to place the order\.$/.exec(
          said,
        );
      expect(match, said).not.toBeNull();
      const [, from, to] = match!;
      expect(from).toBe(shown);
      expect(to).not.toBe(shown);
      await screenshot(page, 'price-changed');
      // Nothing charged, nothing placed.
      expect(await walletOf(customer.token)).toEqual(before);

      await page.getByRole('button', { name: /^Confirm and pay / }).click();
      await page
        .getByRole('status')
        .filter({ hasText: /Order #\d+ placed for/ })
        .waitFor({ timeout: 15_000 });
      const newCharge = to.replace(/^NGN /, '').replaceAll(',', '');
      const after = await walletOf(customer.token);
      expect(after.orders).toBe(1);
      expect(after.charges).toEqual([newCharge]);
      expect(Math.round(after.balance * 100)).toBe(Math.round(before.balance * 100) - Math.round(Number(newCharge) * 100));
    } finally {
      await context.close();
      await api(`admin/services/${service.id}`, { method: 'PUT', token: adminToken, body: { markupPercent: detail.body.data.markupPercent } });
    }
  });
});
