// What people type is shown as text, never as markup: a customer whose full name is HTML, an order
// link with HTML in it, an admin credit reference and a service name with HTML appear as exactly
// those characters in the administrator's lists and dialogs and on the public services page, with
// no element made from them and no script run (no browser dialog ever opens).
import type { Page } from 'playwright-core';
import { describe, expect, inject, it } from 'vitest';
import { DESKTOP, PHONE } from '../support/browser';
import { api, expectToast, newUser, openPage, sharedBrowser, shopUrl, signIn, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const NAME = '<img src=x onerror=alert(1)><b>Bold</b>';
const browser = sharedBrowser();

/** A signed-in administrator's page that records every browser dialog (alert, confirm) and script error. */
async function watchedAdminPage() {
  const { context, page } = await openPage(browser(), DESKTOP);
  const dialogs: string[] = [];
  const scriptErrors: string[] = [];
  page.on('dialog', (dialog) => {
    dialogs.push(dialog.message());
    void dialog.dismiss();
  });
  page.on('pageerror', (error) => scriptErrors.push(error.message));
  await signIn(page, admin, 'admin');
  return { context, page, dialogs, scriptErrors };
}

/** Nothing on the page was built from the markup people typed. */
async function expectNoInjectedElements(page: Page, where: string) {
  const injected = await page.evaluate(() => ({
    images: document.querySelectorAll('img[src="x"]').length,
    bold: [...document.querySelectorAll('b')].filter((b) => b.textContent === 'Bold' || b.textContent === 'Link').length,
  }));
  expect(injected, where).toEqual({ images: 0, bold: 0 });
}

/** The open sweetalert2 confirmation: its title's characters, checked, then answered Yes. */
async function confirmDialogTitled(page: Page, title: string, yes: string) {
  const popup = page.locator('.swal2-popup');
  await popup.waitFor();
  expect(await popup.locator('.swal2-title').textContent()).toBe(title);
  await expectNoInjectedElements(page, title);
  await popup.getByRole('button', { name: yes }).click();
  // Closing, or replaced by the next one (a success message): either way this one is no longer shown.
  await page.locator('.swal2-popup.swal2-show .swal2-title').filter({ hasText: title }).waitFor({ state: 'detached' });
}

describe('what people type is text', () => {
  it('shows a customer named with HTML, their order link and a credit reference as typed in every admin list and dialog', async () => {
    const customer = await newUser(NAME);
    const reference = `Bank <b>Bold</b> ${unique('ref')}`;
    const link = `https://www.instagram.com/p/${unique('post')}<b>Link</b><img/src=x/onerror=alert(2)>`;
    const { context, page, dialogs, scriptErrors } = await watchedAdminPage();
    const usersTable = page.getByRole('table', { name: 'Users' });

    // Users list, then suspend and reactivate through their confirmations.
    await page.goto(`/admin/users?search=${encodeURIComponent(customer.email)}`);
    const listed = usersTable.getByText(NAME, { exact: true });
    await listed.waitFor();
    expect(await listed.getAttribute('title')).toBe(NAME);
    await expectNoInjectedElements(page, 'users list');
    await usersTable.getByRole('button', { name: `Suspend ${NAME}` }).click();
    await confirmDialogTitled(page, `Suspend ${NAME}?`, 'Yes, suspend');
    await expectToast(page, 'User suspended');
    await usersTable.getByRole('button', { name: `Reactivate ${NAME}` }).click();
    await confirmDialogTitled(page, `Reactivate ${NAME}?`, 'Yes, reactivate');
    await expectToast(page, 'User reactivated');

    // The user's page and the credit dialog.
    await usersTable.getByRole('button', { name: `Manage ${NAME}` }).click();
    await page.waitForURL('**/admin/manage-user');
    expect(await page.getByRole('heading', { level: 1, name: NAME, exact: true }).textContent()).toBe(NAME);
    await page.getByRole('button', { name: 'Add Funds' }).first().click();
    const credit = page.getByRole('dialog', { name: 'Add Funds' });
    expect(await credit.locator('p').first().textContent()).toBe(`Credit ${NAME}'s wallet by hand.`);
    await expectNoInjectedElements(page, 'credit dialog');
    await credit.getByLabel('Amount').fill('50000');
    await credit.getByLabel('Reference').fill(reference);
    await credit.getByRole('button', { name: 'Submit' }).click();
    await confirmDialogTitled(page, 'Are you sure?', 'Yes');
    await page.locator('.swal2-popup', { hasText: 'Added successfully!' }).waitFor();
    await page.locator('.swal2-confirm').click();
    await expect.poll(() => credit.count()).toBe(0);

    // An order whose link carries markup, placed by the customer (signed in again: suspending ended their sessions).
    const token = await signInByApi(customer.email, customer.password);
    const likes = await api<{ data: Array<{ id: number; type: string; platform: string; min: number; name: string }> }>('services?search=Likes&limit=100');
    const service = likes.body.data.find((s) => s.platform === 'Instagram' && s.type === 'Default')!;
    const placed = await api<{ data: { id: number } }>('user/orders', { token, body: { serviceId: service.id, link, quantity: Math.max(service.min, 100) } });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);

    await page.reload();
    await page.getByRole('heading', { name: NAME }).waitFor();
    const fullName = page.getByRole('tabpanel', { name: 'Overview' }).getByText('Full Name', { exact: true });
    expect(await fullName.evaluate((label) => label.nextElementSibling?.textContent)).toBe(NAME);
    await page.getByRole('tab', { name: 'Orders' }).click();
    const userOrders = page.getByRole('tabpanel', { name: 'Orders' }).getByRole('table', { name: 'Orders' });
    expect(await userOrders.getByRole('link', { name: link, exact: true }).first().textContent()).toBe(link);
    await page.getByRole('tab', { name: 'Wallet' }).click();
    await page.getByRole('tabpanel', { name: 'Wallet' }).getByRole('table', { name: 'Transaction History' }).waitFor();
    await expectNoInjectedElements(page, 'user detail');

    // The orders list: the customer's name and the link, as typed.
    await page.goto(`/admin/orders?userId=${customer.id}`);
    const ordersTable = page.getByRole('table', { name: 'Orders' });
    await ordersTable.getByText(NAME, { exact: true }).waitFor();
    expect(await ordersTable.getByRole('link', { name: link, exact: true }).textContent()).toBe(link);
    await expectNoInjectedElements(page, 'orders list');

    // The transactions list: the credit's reference, as typed.
    await page.goto(`/admin/transactions?userId=${customer.id}`);
    await page.getByRole('table', { name: 'Transactions' }).getByText(`Ref ${reference}`, { exact: true }).waitFor();
    await expectNoInjectedElements(page, 'transactions list');

    // Promote to administrator, then remove: both confirmations name them as typed.
    await page.goto('/admin/administrators');
    await page.getByRole('button', { name: 'Promote a user' }).click();
    const promote = page.getByRole('dialog', { name: 'Promote a user' });
    await promote.getByLabel('Search users').fill(customer.email);
    await promote.getByText(NAME, { exact: true }).waitFor();
    await expectNoInjectedElements(page, 'promote dialog');
    await promote.getByRole('button', { name: `Promote ${NAME}` }).click();
    await confirmDialogTitled(page, `Make ${NAME} an administrator?`, 'Yes, promote');
    await expectToast(page, 'User promoted to administrator');
    const admins = page.getByRole('table', { name: 'Administrators' });
    await admins.getByText(NAME, { exact: true }).waitFor();
    await admins.getByRole('button', { name: `Remove ${NAME}` }).click();
    await confirmDialogTitled(page, `Remove ${NAME}?`, 'Yes, remove');
    await expectToast(page, 'Administrator removed');

    expect(dialogs).toEqual([]);
    expect(scriptErrors).toEqual([]);
    await context.close();
  });

  it('shows a service name an administrator wrote with HTML as text on the public services page', async () => {
    const adminToken = await signInByApi(admin.email, admin.password);
    const listed = await api<{ data: Array<{ id: number; name: string }> }>('services?search=Views&limit=100');
    const service = listed.body.data[0];
    const marker = unique('Marked');
    const markedName = `${marker} <b>Bold</b><img src=x onerror=alert(3)>`;
    expect((await api(`admin/services/${service.id}`, { method: 'PUT', token: adminToken, body: { name: markedName } })).status).toBe(200);
    try {
      const { context, page } = await openPage(browser(), DESKTOP);
      const dialogs: string[] = [];
      page.on('dialog', (dialog) => {
        dialogs.push(dialog.message());
        void dialog.dismiss();
      });
      await page.goto('/services');
      await page.getByLabel('Search services').fill(marker);
      await page.getByText(markedName, { exact: true }).first().waitFor();
      await expectNoInjectedElements(page, 'public services');
      expect(dialogs).toEqual([]);
      await context.close();
    } finally {
      expect((await api(`admin/services/${service.id}`, { method: 'PUT', token: adminToken, body: { name: service.name } })).status).toBe(200);
    }
  });
});

describe('what an attacker tries from the outside', () => {
  it('refuses a reseller order with a guessed key and "password" as a password', async () => {
    const { context, page } = await openPage(browser(), PHONE);
    await page.goto('/auth/register');
    const email = `${unique('weak')}@example.com`;
    await page.getByLabel('Full Name').fill('Chioma Okafor');
    await page.getByLabel('Email Address').fill(email);
    await page.getByLabel('Password', { exact: true }).fill('password');
    await page.getByLabel('Confirm Password').fill('password');
    await page.getByRole('button', { name: 'Sign Up' }).click();
    // Under the field it is about (a toast says it too).
    await page.getByRole('form', { name: 'Create account' }).locator('.field-error', { hasText: 'too common or easy to guess' }).waitFor();
    expect(page.url()).toContain('/auth/register');
    expect((await api('auth/login', { body: { email, password: 'password' } })).status).toBe(401);

    // A guessed key, even in a GET address as bots send orders, places nothing and is told so in the protocol's words.
    const answer = await page.evaluate(async (base) => {
      const response = await fetch(`${base}/api/v2?key=any-key&action=add&service=1&link=https://x.test/a&quantity=100`);
      return { status: response.status, body: (await response.json()) as { error?: string } };
    }, shopUrl);
    expect(answer).toEqual({ status: 200, body: { error: 'Invalid API key' } });
    await context.close();
  });
});
