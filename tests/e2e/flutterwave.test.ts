// Funding a wallet through Flutterwave at phone width, as on `npm start`: the administrator chooses
// Flutterwave in Payment Settings (its test keys come from the stack's secrets), a user pays on the
// Flutterwave sandbox page and is confirmed, and Flutterwave's webhook reached the shop once.
// The shop is in test mode, and every page and the dashboard say so.
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, fillDeposit, newUserSignedIn, sharedBrowser, signedInPage, signInByApi } from './shop';

const admin = inject('e2eAdmin');
const flutterwaveUrl = inject('e2eFlutterwaveUrl');
const browser = sharedBrowser();
let adminToken: string;

async function choosePaymentProvider(provider: 'paystack' | 'flutterwave') {
  const current = await api<{ data: { mode: string; minDeposit: number; maxDeposit: number } }>('admin/settings/payment', { token: adminToken });
  const { mode, minDeposit, maxDeposit } = current.body.data;
  expect((await api('admin/settings/payment', { method: 'PUT', token: adminToken, body: { provider, mode, minDeposit, maxDeposit } })).status).toBe(200);
}

beforeAll(async () => {
  adminToken = await signInByApi(admin.email, admin.password);
});
afterAll(async () => {
  // The other browser tests pay with Paystack.
  if (adminToken) await choosePaymentProvider('paystack');
});

describe('Flutterwave on the local stack', () => {
  it('is chosen by the administrator and funds a wallet through its sandbox page', async () => {
    const adminBrowser = await signedInPage(browser(), admin, 'admin', PHONE);
    await adminBrowser.page.getByRole('note', { name: 'Test payments' }).waitFor({ state: 'visible' });
    await adminBrowser.page.goto('/admin/payment-settings');
    await adminBrowser.page.getByText('Flutterwave', { exact: true }).click();
    await expect.poll(() => adminBrowser.page.getByText('From deployment secrets').count()).toBe(2);
    await adminBrowser.page.getByRole('button', { name: 'Save settings' }).click();
    await adminBrowser.page.getByRole('button', { name: 'Yes, save' }).click();
    await expect
      .poll(async () => (await api<{ data: { provider: string } }>('admin/settings/payment', { token: adminToken })).body.data.provider)
      .toBe('flutterwave');
    await screenshot(adminBrowser.page, 'payment-settings-flutterwave');
    await adminBrowser.context.close();

    const { user, context, page } = await newUserSignedIn(browser(), 'Kemi Balogun', PHONE);
    await page.getByRole('status', { name: 'Test payments' }).waitFor({ state: 'visible' });
    await fillDeposit(page, '2500');
    await page.getByRole('button', { name: 'Proceed to payment' }).click();
    await page.waitForURL(`${flutterwaveUrl}/v3/hosted/pay/**`);
    await expect.poll(() => page.getByText('Flutterwave sandbox').count()).toBeGreaterThan(0);
    await screenshot(page, 'flutterwave-checkout');
    await page.getByRole('button', { name: /^Pay NGN 2,500\.00$/ }).click();

    await page.waitForURL('**/user/confirm-payment**');
    const txRef = new URL(page.url()).searchParams.get('tx_ref');
    expect(new URL(page.url()).searchParams.get('status')).toBe('successful');
    await expect.poll(() => page.getByText('Wallet Credited Successfully!').count(), { timeout: 20_000 }).toBeGreaterThan(0);
    await screenshot(page, 'flutterwave-confirmed');
    await page.waitForURL('**/user/transactions', { timeout: 10_000 });
    expect((await api<{ walletBalance: number }>('user/getWalletBalance', { token: user.token })).body.walletBalance).toBe(2500);

    // Flutterwave told the shop too, once, and the shop took it.
    const { webhooks } = (await (await fetch(`${flutterwaveUrl}/__webhooks`)).json()) as {
      webhooks: Array<{ reference: string; deliveries: Array<{ status: number | null }> }>;
    };
    const delivered = webhooks.filter((hook) => hook.reference === txRef);
    expect(delivered.map((hook) => hook.deliveries.map((delivery) => delivery.status))).toEqual([[200]]);
    const reconciliation = await api<{ data: { ok: boolean } }>('admin/reconciliation', { token: adminToken });
    expect(reconciliation.body.data.ok, JSON.stringify(reconciliation.body.data)).toBe(true);
    await context.close();
  });
});
