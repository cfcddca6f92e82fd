// Support tickets at phone width, as on `npm start`: a user opens a ticket about one of their orders,
// an administrator sees it in the sidebar's count, looks at the order in one click and answers, the
// user sees the unread badge in the top bar and replies, and the administrator closes the ticket.
import type { Page } from 'playwright-core';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { DESKTOP, PHONE, screenshot } from '../support/browser';
import { api, expectToast, newUser, sharedBrowser, signedInPage, signInByApi, unique } from './shop';

const admin = inject('e2eAdmin');
const browser = sharedBrowser();
let adminToken: string;

beforeAll(async () => {
  adminToken = await signInByApi(admin.email, admin.password);
});

/** The screen fits its width (nothing makes the page scroll sideways); its screenshot is kept to look at. */
async function expectFits(page: Page, name: string): Promise<void> {
  expect(await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth)).toBeLessThanOrEqual(0);
  await screenshot(page, name);
}

/** Sends a reply on the ticket open on this page, and waits for the thread to show it as `shownAs`. */
async function reply(page: Page, text: string, shownAs: string): Promise<void> {
  await page.getByLabel('Your reply').fill(text);
  await page.getByRole('button', { name: 'Send reply' }).click();
  await expectToast(page, 'Reply sent');
  await page.getByText(shownAs, { exact: true }).waitFor();
}

/** A user with a funded wallet and one order placed through the API. */
async function userWithOrder() {
  const user = await newUser('Tunde Support');
  const credit = await api('user/admin-credit-user-wallet', { token: adminToken, body: { amount: '5000', reference: unique('e2e-ticket-'), userId: user.id } });
  expect(credit.status, JSON.stringify(credit.body)).toBe(200);
  const services = await api<{ data: Array<{ id: number; type: string; min: number }> }>('services?search=Instagram&limit=100');
  const service = services.body.data.find((s) => s.type === 'Default')!;
  const placed = await api<{ data: { id: number } }>('user/orders', {
    token: user.token,
    body: { serviceId: service.id, link: 'https://www.instagram.com/e2e.ticket.test', quantity: Math.max(service.min, 100) },
  });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  return { user, orderId: placed.body.data.id };
}

describe('a support ticket at phone width', () => {
  it('is opened about an order, answered, replied to after the unread badge, and closed', async () => {
    const { user, orderId } = await userWithOrder();
    const subject = unique('Order not moving ');

    // The user opens it from the top bar, about their order.
    const customer = await signedInPage(browser(), user, 'user', PHONE);
    await customer.page.getByRole('link', { name: 'Support tickets', exact: true }).click();
    await customer.page.getByText('No tickets yet').waitFor();
    await customer.page.getByRole('link', { name: 'New ticket' }).first().click();
    await customer.page.getByLabel('Subject').fill(subject);
    await customer.page.getByLabel('About').selectOption('order');
    await customer.page.getByLabel('Order', { exact: true }).selectOption(String(orderId));
    await customer.page.getByLabel('Message').fill('It has been pending for a day.\n<b>Please</b> check.');
    await expectFits(customer.page, 'ticket-new');
    await customer.page.getByRole('button', { name: 'Open ticket' }).click();
    await customer.page.waitForURL(/\/user\/tickets\/\d+$/);
    const ticketId = Number(customer.page.url().split('/').pop());
    await customer.page.getByText(`Order #${orderId}`, { exact: true }).waitFor();
    await customer.page.getByText('Open', { exact: true }).waitFor();
    // Markup stays the text it was typed, line break and all.
    await customer.page.getByText('<b>Please</b> check.').waitFor();
    expect(await customer.page.locator('main b').count()).toBe(0);

    // The administrator sees the sidebar's count, finds the ticket, looks at the order and answers.
    const desk = await signedInPage(browser(), admin, 'admin', PHONE);
    await desk.page.getByRole('button', { name: 'Open menu' }).click();
    const sidebar = desk.page.getByRole('complementary', { name: 'Admin navigation' });
    await sidebar.locator('#admin-tickets-unread').waitFor();
    await screenshot(desk.page, 'ticket-admin-sidebar');
    await sidebar.getByRole('link', { name: 'Tickets' }).click();
    await desk.page.waitForURL('**/admin/tickets');
    await desk.page.getByPlaceholder('Subject, user name or email').fill(user.email);
    await desk.page.waitForURL(/search=/);
    await desk.page.getByRole('link', { name: `Open ticket ${ticketId}` }).click();
    await desk.page.waitForURL(`**/admin/tickets/${ticketId}`);
    await desk.page.getByRole('heading', { name: subject }).waitFor();
    await desk.page.getByRole('button', { name: `Open order #${orderId}` }).click();
    const orderDialog = desk.page.getByRole('dialog', { name: `Order #${orderId}` });
    await orderDialog.getByText('https://www.instagram.com/e2e.ticket.test').first().waitFor();
    await desk.page.keyboard.press('Escape');
    await expect.poll(() => orderDialog.count()).toBe(0);
    await reply(desk.page, 'We have pushed it to the provider again; it starts within the hour.', 'Answered');
    await expectFits(desk.page, 'ticket-admin-thread');

    // The user sees the unread badge, reads the answer (the badge goes) and replies.
    await customer.page.goto('/user/orders');
    const unreadLink = customer.page.getByRole('link', { name: 'Support tickets, 1 unread' });
    await unreadLink.waitFor();
    await expectFits(customer.page, 'ticket-unread-badge');
    await unreadLink.click();
    await customer.page.getByRole('link', { name: new RegExp(subject) }).click();
    await customer.page.getByText('We have pushed it to the provider again; it starts within the hour.').waitFor();
    await customer.page.getByRole('link', { name: 'Support tickets', exact: true }).waitFor();
    await reply(customer.page, 'Thank you, it started.', 'Customer reply');
    await expectFits(customer.page, 'ticket-user-thread');

    // The administrator sees the reply and closes the ticket; the user can no longer write to it.
    await desk.page.reload();
    await desk.page.getByText('Thank you, it started.').waitFor();
    await desk.page.getByRole('button', { name: 'Close ticket' }).click();
    await expectToast(desk.page, 'Ticket closed');
    await desk.page.getByText('Closed', { exact: true }).waitFor();
    expect((await api<{ data: { status: string } }>(`user/tickets/${ticketId}`, { token: user.token })).body.data.status).toBe('Closed');
    await customer.page.reload();
    await customer.page.getByText('This ticket is closed. Still need help? Open a new ticket.').waitFor();
    expect(await customer.page.getByLabel('Your reply').count()).toBe(0);

    // The same screens fit a laptop beside the sidebar.
    await desk.page.setViewportSize(DESKTOP);
    await expectFits(desk.page, 'ticket-admin-thread');
    await desk.page.goto(`/admin/tickets?userId=${user.id}`);
    await desk.page.getByRole('table', { name: 'Tickets' }).getByText(subject).waitFor();
    await expectFits(desk.page, 'ticket-admin-list');
    await customer.page.setViewportSize(DESKTOP);
    await expectFits(customer.page, 'ticket-user-closed');
    await desk.context.close();
    await customer.context.close();
    // Two browsers through a whole conversation: longer than one screen's test.
  }, 180_000);
});
