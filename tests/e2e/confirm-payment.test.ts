// The confirmation page tells the truth once its stored payload is gone: after a sandbox payment,
// reloading the page, or opening the provider's return address in another tab, shows the wallet
// credited (never "Payment Failed!", which sends a charged customer to pay again), and the page
// with nothing to confirm says so.
import { describe, expect, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, fillDeposit, newUserSignedIn, sharedBrowser } from './shop';

const browser = sharedBrowser();

describe('the payment confirmation page', () => {
  it('shows a paid deposit credited after a reload and in another tab, and says when there is nothing to confirm', async () => {
    const { user, context, page } = await newUserSignedIn(browser(), 'Tunde Bakare', PHONE);

    await fillDeposit(page, '1500');
    await page.getByRole('button', { name: 'Proceed to payment' }).click();
    await page.waitForURL(/\/checkout\//);
    await page.getByRole('button', { name: /^Pay/ }).click();
    await page.waitForURL('**/user/confirm-payment**');
    const returnAddress = page.url();
    expect(new URL(returnAddress).searchParams.get('reference')).toMatch(/^dep-/);
    await expect.poll(() => page.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await page.waitForURL('**/user/transactions', { timeout: 10_000 });
    expect(await page.evaluate(() => sessionStorage.getItem('payload'))).toBeNull();

    // Back on the return address with the payload gone, as a reload or the browser's Back does.
    await page.goto(returnAddress);
    await expect.poll(() => page.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await page.getByText('Payment Failed!').count()).toBe(0);
    await screenshot(page, 'confirm-payment-reloaded');

    // The provider's return opened in another tab: no session storage there at all.
    const otherTab = await context.newPage();
    await otherTab.goto(returnAddress);
    await expect.poll(() => otherTab.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    expect(await otherTab.getByText('Payment Failed!').count()).toBe(0);
    expect((await api<{ walletBalance: number }>('user/getWalletBalance', { token: user.token })).body.walletBalance).toBe(1500);

    await otherTab.goto('/user/confirm-payment');
    await expect.poll(() => otherTab.getByRole('heading', { name: 'Nothing to confirm here' }).count(), { timeout: 20_000 }).toBe(1);
    expect(await otherTab.getByText('Payment Failed!').count()).toBe(0);
    await screenshot(otherTab, 'confirm-payment-nothing');
    await otherTab.getByRole('link', { name: 'Go to Transactions' }).click();
    await otherTab.waitForURL('**/user/transactions');
    await context.close();
  });
});
