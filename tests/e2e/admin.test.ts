// The administrator's day, end to end in Chromium against the stack `npm start` runs: crediting a
// wallet through the confirmation dialog (once per reference), the user-detail tabs of the spec,
// a markup change reaching the public price, suspending a user, and the sidebar at 767/768 px.
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from '../support/browser';
import { api, expectToast, newUser, newUserSignedIn, sharedBrowser, signedInPage, submitLogin, unique } from './shop';

const admin = inject('e2eAdmin');
const REFERENCE_USED = 'This reference has already been used. Please use a new reference.';
const browser = sharedBrowser();

/** A signed-in administrator's browser. */
const adminPage = (viewport = DESKTOP) => signedInPage(browser(), admin, 'admin', viewport);

const tokenOf = (page: Page) => page.evaluate(() => localStorage.getItem('TOKEN'));

async function openUser(page: Page, user: { email: string; fullName: string }) {
  await page.goto('/admin/users');
  await page.getByPlaceholder('Search by name, email or username').fill(user.email);
  // The search settles into the URL after a pause, as a person's would.
  await page.waitForURL(/search=/);
  // The table on desktops, the cards on phones: the visible one is clicked.
  await page.getByRole('button', { name: `Manage ${user.fullName}` }).click();
  await page.waitForURL('**/admin/manage-user');
}

async function creditThroughDialog(page: Page, amount: string, reference: string) {
  await page.getByRole('button', { name: 'Add Funds' }).first().click();
  const dialog = page.getByRole('dialog', { name: 'Add Funds' });
  await dialog.getByLabel('Amount').fill(amount);
  await dialog.getByLabel('Reference').fill(reference);
  await dialog.getByRole('button', { name: 'Submit' }).click();
  await page.getByText('Are you sure?').waitFor();
  await page.getByText('You want to proceed with this action?').waitFor();
  await page.getByRole('button', { name: 'Yes' }).click();
}

const walletBalance = async (token: string) => (await api<{ walletBalance: number }>('user/getWalletBalance', { token })).body.walletBalance;

describe('an administrator', () => {
  it('credits a wallet once per reference through the confirmation dialog, and sees the wallet and orders tabs of the spec', async () => {
    const user = await newUser('Amaka Credit');
    const { context, page } = await adminPage(DESKTOP);
    await openUser(page, user);
    await page.getByRole('heading', { name: 'Amaka Credit' }).waitFor();

    const reference = unique('Bank transfer ');
    await creditThroughDialog(page, '5,000', reference);
    await page.getByText('Added successfully!').waitFor();
    await page.locator('.swal2-confirm').click();
    await expect.poll(() => page.getByRole('dialog', { name: 'Add Funds' }).count()).toBe(0);
    await expect.poll(() => page.getByRole('region', { name: 'Wallet summary' }).textContent()).toMatch(/Available Balance.*5,000\.00/);
    expect(await walletBalance(user.token)).toBe(5000);

    // The same reference again: the server refuses it and nothing moves.
    await creditThroughDialog(page, '5,000', reference);
    await expectToast(page, REFERENCE_USED);
    await page.getByRole('dialog', { name: 'Add Funds' }).getByRole('button', { name: 'Cancel' }).click();
    expect(await walletBalance(user.token)).toBe(5000);

    // An order with a long service name, placed by the user.
    const services = await api<{ data: Array<{ id: number; name: string; type: string; min: number; platform: string }> }>(
      'services?search=Instagram&limit=100',
    );
    const service = services.body.data.find((s) => s.type === 'Default' && s.name.length > 30)!;
    const placed = await api('user/orders', {
      token: user.token,
      body: { serviceId: service.id, link: 'https://www.instagram.com/e2e.admin.test', quantity: Math.max(service.min, 100) },
    });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    await page.reload();
    await page.getByRole('heading', { name: 'Amaka Credit' }).waitFor();
    await screenshot(page, 'admin-manage-user-overview');

    await page.getByRole('tab', { name: 'Wallet' }).click();
    const wallet = page.getByRole('tabpanel', { name: 'Wallet' });
    await wallet.getByRole('table', { name: 'Transaction History' }).waitFor();
    expect(await wallet.getByRole('columnheader').allTextContents()).toEqual(['ID', 'Type', 'Amount', 'Date']);
    for (const card of ['Available Balance', 'Total Deposits', 'Total Spent']) expect(await wallet.getByText(card).count()).toBeGreaterThan(0);
    expect(await wallet.getByRole('button', { name: 'Add Funds' }).count()).toBe(1);
    const deposit = wallet.getByRole('table').getByText(/^\+NGN.5,000\.00$/);
    expect(await deposit.getAttribute('class')).toContain('text-emerald-700');
    const spend = wallet.getByRole('table').getByText(/^-NGN/).first();
    expect(await spend.getAttribute('class')).toContain('text-rose-700');
    await screenshot(page, 'admin-manage-user-wallet');

    await page.getByRole('tab', { name: 'Orders' }).click();
    const orders = page.getByRole('tabpanel', { name: 'Orders' });
    const table = orders.getByRole('table', { name: 'Orders' });
    await table.waitFor();
    expect(await table.getByRole('columnheader').allTextContents()).toEqual(['ID', 'Service', 'Link', 'Quantity', 'Price', 'Status', 'Date', 'Actions']);
    expect(await orders.textContent()).toMatch(/Total Orders\s*1/);
    expect(await orders.textContent()).toMatch(/Pending Orders/);
    expect(await orders.textContent()).toMatch(/Completed Orders/);
    expect(await table.getByText(`${service.name.slice(0, 30)}...`, { exact: true }).count()).toBe(1);
    await screenshot(page, 'admin-manage-user-orders');

    // The same order in the orders screen, with the actions its state allows.
    const orderId = (placed.body as { data: { id: number } }).data.id;
    await page.goto(`/admin/orders?userId=${user.id}`);
    await page.getByRole('button', { name: `Manage order ${orderId}` }).click();
    const orderDialog = page.getByRole('dialog', { name: `Order #${orderId}` });
    await orderDialog.getByRole('button', { name: 'Set status' }).waitFor();
    await screenshot(page, 'admin-order-dialog');
    await context.close();

    const phone = await adminPage(PHONE);
    await openUser(phone.page, user);
    await phone.page.getByRole('heading', { name: 'Amaka Credit' }).waitFor();
    await screenshot(phone.page, 'admin-manage-user-overview');
    await phone.context.close();
  });

  it('changes a markup and sees the public price change', async () => {
    const { context, page } = await adminPage(DESKTOP);
    const token = await tokenOf(page);
    const listed = await api<{ data: Array<{ id: number; name: string; rateKobo: string }> }>('services?search=Likes&limit=100');
    const before = listed.body.data[0];
    const detail = await api<{ data: { costKobo: string; effectiveMarkupPercent: string } }>(`admin/services/${before.id}`, { token });
    const markup = detail.body.data.effectiveMarkupPercent === '90.00' ? '95' : '90';

    await page.goto('/admin/services');
    await page.getByPlaceholder('Name or service ID').fill(String(before.id));
    await page.getByRole('button', { name: `Edit ${before.name}`, exact: true }).click();
    const dialog = page.getByRole('dialog', { name: 'Edit service' });
    await dialog.getByText('Markup over cost').click();
    await dialog.getByLabel('Markup (%)').fill(markup);
    await screenshot(page, 'admin-service-edit');
    await dialog.getByRole('button', { name: 'Save service' }).click();
    await expectToast(page, 'Service updated');

    // price = ceil(cost × (1 + markup)), as the public list now says.
    const cost = BigInt(detail.body.data.costKobo);
    const bps = BigInt(Number(markup) * 100);
    const expected = (cost * (10_000n + bps) + 9_999n) / 10_000n;
    const after = (await api<{ data: Array<{ id: number; rateKobo: string }> }>(`services?search=${before.id}`)).body.data.find((s) => s.id === before.id)!;
    expect(BigInt(after.rateKobo)).toBe(expected);
    expect(after.rateKobo).not.toBe(before.rateKobo);
    await screenshot(page, 'admin-services');
    await context.close();
  });

  it('suspends a user, who is logged out at once and cannot sign in again', async () => {
    const { user, ...visitor } = await newUserSignedIn(browser(), 'Tunde Suspend', DESKTOP);

    const { context, page } = await adminPage(DESKTOP);
    await page.goto('/admin/users');
    await page.getByPlaceholder('Search by name, email or username').fill(user.email);
    await page.waitForURL(/search=/);
    await page.getByRole('button', { name: 'Suspend Tunde Suspend' }).click();
    await page.getByRole('button', { name: 'Yes, suspend' }).click();
    await expectToast(page, 'User suspended');
    await page.locator('tbody').getByText('Suspended').waitFor();
    await screenshot(page, 'admin-users');

    await visitor.page.goto('/user/profile');
    await visitor.page.waitForURL('**/auth/login');
    await submitLogin(visitor.page, user.email, user.password);
    await expectToast(visitor.page, 'Your account is suspended. Contact support.');
    await visitor.context.close();
    await context.close();
  });

  it('has the sidebar of the spec: always shown from 768 px, a menu below that closes after a choice', async () => {
    const { context, page } = await adminPage({ width: 768, height: 900 });
    await page.goto('/admin/dashboard');
    // Closed below 768 px it is hidden from screen readers too, so the role query must look at hidden elements.
    const sidebar = page.getByRole('complementary', { name: 'Admin navigation', includeHidden: true });
    const menuButton = page.getByRole('button', { name: 'Open menu' });
    await sidebar.getByRole('link', { name: 'Dashboard' }).waitFor();
    expect(await sidebar.getByRole('link').allTextContents()).toEqual([
      'Dashboard',
      'Services',
      'Orders',
      'Tickets',
      'Payment Settings',
      'Reconciliation',
      'Users',
      'Referrals',
      'Administrators',
      'Audit Log',
      'Site Settings',
    ]);
    const onScreen = async () => ((await sidebar.boundingBox())?.x ?? -1) >= 0;
    expect(await onScreen()).toBe(true);
    expect(await menuButton.isVisible()).toBe(false);

    await page.setViewportSize({ width: 767, height: 900 });
    await expect.poll(onScreen).toBe(false);
    expect(await menuButton.isVisible()).toBe(true);
    await menuButton.click();
    await expect.poll(onScreen).toBe(true);
    await screenshot(page, 'admin-sidebar-open');
    await sidebar.getByRole('link', { name: 'Orders' }).click();
    await page.waitForURL('**/admin/orders');
    await expect.poll(onScreen).toBe(false);
    await context.close();
  });

  it('has every admin screen working on phones and desktops', async () => {
    for (const viewport of [DESKTOP, PHONE]) {
      const { context, page } = await adminPage(viewport);
      const screens: Array<[string, string, string]> = [
        ['/admin/dashboard', 'admin-dashboard', 'Provider balances'],
        ['/admin/users', 'admin-users-list', 'Users'],
        ['/admin/administrators', 'admin-administrators', 'Administrators'],
        ['/admin/services?tab=providers', 'admin-providers', 'Sandbox SMM Panel'],
        ['/admin/services?tab=pricing', 'admin-pricing', 'Pricing rules'],
        ['/admin/orders', 'admin-orders', 'Orders'],
        ['/admin/transactions', 'admin-transactions', 'Transactions'],
        ['/admin/payment-settings', 'admin-payment-settings', 'Deposit limits'],
        ['/admin/site-settings', 'admin-site-settings', 'Contact details'],
      ];
      for (const [path, name, text] of screens) {
        await page.goto(path);
        // The closed drawer's links carry the same words on phones, hidden: only what is on screen counts.
        await page.getByText(text, { exact: true }).filter({ visible: true }).first().waitFor();
        await page.waitForLoadState('networkidle');
        expect(
          await page
            .getByRole('alert')
            .filter({ hasText: /Try again/ })
            .count(),
          path,
        ).toBe(0);
        await screenshot(page, name);
      }
      await context.close();
    }
  });
});
