// The balance in the header follows the money without a reload, on a phone: a customer watching
// their orders sees an order canceled by the provider and its refund reach the header, then an
// administrator's credit (made by API, elsewhere) arrive while they just keep the page open.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, newUser, openPage, sharedBrowser, signIn, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const smmProviderUrl = inject('e2eSmmProviderUrl');
const browser = sharedBrowser();

/** The amount the header shows after 'Your Balance:', e.g. 'NGN 9,600.00'. */
async function headerBalance(page: Page): Promise<string> {
  return (
    (await page.locator('header').getByText('Your Balance:').locator('xpath=..').textContent())?.replace('Your Balance:', '').replace(/\s+/g, ' ').trim() ?? ''
  );
}

const ngn = (naira: number) => `NGN ${naira.toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

async function walletBalance(token: string): Promise<number> {
  return (await api<{ walletBalance: number }>('user/getWalletBalance', { token })).body.walletBalance;
}

/** The sandbox panel's copy of the order placed with this link, once the shop has sent it. */
async function providerOrderFor(link: string): Promise<{ id: number; quantity: number }> {
  let found: { id: number; quantity: number } | undefined;
  await expect
    .poll(
      async () => {
        const { orders } = (await (await fetch(`${smmProviderUrl}/__orders`)).json()) as { orders: Array<{ id: number; link: string; quantity: number }> };
        found = orders.find((o) => o.link === link);
        return found !== undefined;
      },
      { timeout: 30_000, interval: 250 },
    )
    .toBe(true);
  return found!;
}

describe('the header balance on a phone', () => {
  it("rises after a refund seen on the orders page and after an administrator's credit, without a reload", { timeout: 200_000 }, async () => {
    const adminToken = await signInByApi(admin.email, admin.password);
    const customer = await newUser('Ngozi Fresh');
    const credited = await api('user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: 10_000, reference: unique('Opening '), userId: customer.id },
    });
    expect(credited.status, JSON.stringify(credited.body)).toBe(200);
    const likes = await api<{ data: Array<{ id: number; type: string; platform: string; min: number }> }>('services?search=Likes&limit=100');
    const service = likes.body.data.find((s) => s.platform === 'Instagram' && s.type === 'Default')!;
    const link = `https://www.instagram.com/p/${unique('fresh')}`;
    const placed = await api<{ data: { id: number; charge: string } }>('user/orders', {
      token: customer.token,
      body: { serviceId: service.id, link, quantity: Math.max(service.min, 100) },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    const afterOrder = 10_000 - Number(placed.body.data.charge);
    expect(await walletBalance(customer.token)).toBe(afterOrder);

    const { context, page } = await openPage(browser(), PHONE);
    await page.addInitScript(() => window.localStorage.setItem('CURRENCY', 'NGN'));
    await signIn(page, customer, 'user');
    await page.goto('/user/orders');
    await expect.poll(() => headerBalance(page), { timeout: 15_000 }).toBe(ngn(afterOrder));
    let reloaded = false;
    page.on('load', () => (reloaded = true));

    // The provider cancels the order; the shop's scheduled sync (every 15 s) refunds it in full.
    const providerOrder = await providerOrderFor(link);
    const pinned = await fetch(`${smmProviderUrl}/__orders/${providerOrder.id}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ status: 'Canceled', remains: providerOrder.quantity }),
    });
    expect(pinned.status).toBe(200);
    await expect.poll(() => walletBalance(customer.token), { timeout: 60_000, interval: 500 }).toBe(10_000);

    // The orders page re-reads open orders on its own; the moment it shows the refund, the header follows.
    await page.getByText('Refunded in full: nothing was delivered').filter({ visible: true }).first().waitFor({ timeout: 60_000 });
    await expect.poll(() => headerBalance(page), { timeout: 10_000 }).toBe(ngn(10_000));
    await screenshot(page, 'fresh-balance-refund');

    // An administrator credits the wallet elsewhere; the customer only keeps the page open.
    const topUp = await api('user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: 2_500, reference: unique('Goodwill '), userId: customer.id },
    });
    expect(topUp.status, JSON.stringify(topUp.body)).toBe(200);
    await expect.poll(() => headerBalance(page), { timeout: 90_000, interval: 1_000 }).toBe(ngn(12_500));
    expect(reloaded).toBe(false);
    await context.close();
  });
});
