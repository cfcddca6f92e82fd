// Funding by bank transfer in Chromium at phone width: a customer gets their account number on
// Add fund, sends a transfer to it from the Paystack sandbox's transfer page (as from a bank app),
// and sees it credited once, named as a bank transfer.
import { describe, expect, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, newUserSignedIn, sharedBrowser } from './shop';

const browser = sharedBrowser();

describe('funding by bank transfer', () => {
  it('gives an account number on Add fund and credits a transfer to it once', async () => {
    const { user: customer, context, page } = await newUserSignedIn(browser(), 'Sade Transfer', PHONE);
    try {
      await page.goto('/user/add-fund');
      const card = page.getByRole('region', { name: 'Pay by bank transfer' });
      await card.getByRole('button', { name: 'Get my account number' }).click();
      const number = card.getByText(/^\d{10}$/);
      await number.waitFor();
      const accountNumber = (await number.textContent())!.trim();
      await screenshot(page, 'bank-transfer-account');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

      const sandboxLink = card.getByRole('link', { name: 'Send a test transfer' });
      const sandbox = await context.newPage();
      await sandbox.goto((await sandboxLink.getAttribute('href'))!);
      await sandbox.getByLabel('Account number', { exact: true }).fill(accountNumber);
      await sandbox.getByLabel('Amount (NGN)').fill('2500');
      await sandbox.getByRole('button', { name: 'Send transfer' }).click();
      await sandbox.getByText(`Sent NGN 2,500.00 to ${accountNumber}`).waitFor();
      await sandbox.close();

      await expect
        .poll(async () => (await api<{ walletBalance: number }>('user/getWalletBalance', { token: customer.token })).body.walletBalance, { timeout: 30_000 })
        .toBe(2500);
      await page.goto('/user/transactions');
      await page.getByText('Deposit by bank transfer (Paystack)').filter({ visible: true }).first().waitFor();
      const ledger = await api<{ data: Array<{ description: string }> }>('user/transactions', { token: customer.token });
      expect(ledger.body.data.filter((row) => row.description === 'Deposit by bank transfer (Paystack)')).toHaveLength(1);
    } finally {
      await context.close();
    }
  }, 120_000);
});
