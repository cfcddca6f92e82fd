// Settings and the bell in Chromium at phone width: a customer opens Settings from the account
// menu, turns off the emails about completed orders, saves, and still finds it off after a reload;
// an answer from support shows under the bell with the unread count, and opens the ticket.
import { describe, expect, inject, it } from 'vitest';
import { PHONE, screenshot } from '../support/browser';
import { api, newUserSignedIn, sharedBrowser, signInByApi } from './shop';

const admin = inject('e2eAdmin');
const browser = sharedBrowser();

describe('settings and the bell', () => {
  it('keep an email turned off across a reload, and show an answer from support as unread', async () => {
    const { user: customer, context, page } = await newUserSignedIn(browser(), 'Kemi Settings', PHONE);
    try {
      await page.getByRole('button', { name: 'Account menu' }).click();
      await page.getByRole('menuitem', { name: 'Settings' }).click();
      await page.waitForURL(/\/user\/settings$/);
      const completed = page.getByRole('switch', { name: 'Orders completed' });
      await expect.poll(() => completed.getAttribute('aria-checked')).toBe('true');
      await completed.click();
      await page.getByLabel('Alert me when my balance is under (NGN)').fill('500');
      await page.getByRole('button', { name: 'Save settings' }).click();
      await page.getByText('Settings saved').waitFor();
      await screenshot(page, 'settings-phone');
      expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(PHONE.width);

      await page.reload();
      await expect.poll(() => page.getByRole('switch', { name: 'Orders completed' }).getAttribute('aria-checked')).toBe('false');
      expect(await page.getByRole('switch', { name: 'Deposits credited to your wallet' }).getAttribute('aria-checked')).toBe('true');
      expect(await page.getByLabel('Alert me when my balance is under (NGN)').inputValue()).toBe('500.00');

      const ticket = await api<{ data: { id: number } }>('user/tickets', {
        token: customer.token,
        body: { subject: 'Where is my order?', kind: 'other', message: 'Please check.' },
      });
      expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
      const adminToken = await signInByApi(admin.email, admin.password);
      expect((await api(`admin/tickets/${ticket.body.data.id}/messages`, { token: adminToken, body: { message: 'It is on its way.' } })).status).toBe(200);

      // The bell looks again when the page gets focus back, as when the customer returns to the tab. The cron may
      // also have told this customer, whose balance is under the 500 set above, that it is low: one or two unread.
      await page.goto('/user/orders');
      const bell = page.getByRole('button', { name: /^Notifications, [12] unread$/ });
      await bell.waitFor();
      await bell.click();
      const panel = page.getByRole('region', { name: 'Notifications' });
      await panel.getByText('Support answered your ticket').waitFor();
      await screenshot(page, 'bell-phone');
      await panel.getByRole('button', { name: 'Mark all as read' }).click();
      await page.getByRole('button', { name: 'Notifications', exact: true }).waitFor();
    } finally {
      await context.close();
    }
  }, 120_000);
});
