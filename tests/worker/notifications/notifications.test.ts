// Notifications through the real Worker, Postgres, the Paystack and SMM panel fakes and the
// sandbox mailbox: each event is told once (bell row and, after the email job, one outbox email)
// however often it is seen; a kind the user turned off is not emailed; the unsubscribe link turns
// its kind off and a forged one is refused; the low-balance alert fires once until a top-up.
import { env } from 'cloudflare:test';
import { and, eq, ne } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailOutbox, notifications, orderRefills } from '../../../drizzle/schema';
import { applyLedgerEntry } from '../../../worker/services/money/ledger';
import { checkLowBalances, sendNotificationEmails, unsubscribeToken } from '../../../worker/services/notifications/notification-emails';
import { BELL_LARGEST_COUNT } from '../../../worker/services/notifications/notifications';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { call, createAdmin, registerAndLogin, type TestAccount, withDb } from '../../support/api';
import { newLink, orderRow, placeSubmittedOrder } from '../fixtures/order-fixtures';
import { depositByCard } from '../fixtures/paystack-fixtures';
import { FAKE, newShop, newShopWithOrder } from '../fixtures/shop-fixtures';
import { fund, fundedUser } from '../fixtures/wallet-fixtures';

const rowsOf = (userId: number) => withDb((db) => db.select().from(notifications).where(eq(notifications.userId, userId)));
/** The notification emails sent to the address: the registration's confirmation link is about the account, not an event. */
const outboxOf = (email: string) =>
  withDb((db) =>
    db
      .select()
      .from(emailOutbox)
      .where(and(eq(emailOutbox.toAddress, email), ne(emailOutbox.subject, 'Confirm your email address'))),
  );
/** The email job, until nothing of this user's waits (other tests' notifications share the table). */
async function emailsGoOut(userId: number) {
  for (;;) {
    await withDb((db) => sendNotificationEmails(db, env));
    const pending = (await rowsOf(userId)).filter((row) => row.emailState === 'pending');
    if (pending.length === 0) return;
  }
}
const bell = async (account: TestAccount) =>
  (await call('user/notifications', { token: account.accessToken })).body.data as {
    unread: number;
    items: Array<{ id: number; kind: string; title: string; body: string; link: string; read: boolean }>;
  };

describe('a deposit credited', () => {
  it('is told once in the bell and by one email, however often it is confirmed, with a link that turns such emails off', async () => {
    const user = await registerAndLogin();
    const reference = await depositByCard(user, 2500);
    await Promise.all([
      call('user/verify-payment', { token: user.accessToken, body: { reference } }),
      call('user/verify-payment', { token: user.accessToken, body: { reference } }),
    ]);
    expect(await bell(user)).toMatchObject({
      unread: 1,
      items: [
        {
          kind: 'deposit_credited',
          title: 'Deposit credited',
          body: 'NGN\u00a02,500.00 from your card payment was added to your wallet.',
          link: '/user/transactions',
          read: false,
        },
      ],
    });

    await Promise.all([emailsGoOut(user.id), emailsGoOut(user.id)]);
    await emailsGoOut(user.id);
    const mail = await outboxOf(user.email);
    expect(mail).toHaveLength(1);
    expect(mail[0].subject).toBe('Deposit credited');
    const token = /unsubscribe\?token=([^\s]+)/.exec(mail[0].body)?.[1];
    expect(token).toBeTruthy();

    const off = await call('notifications/unsubscribe', { body: { token: decodeURIComponent(token!) } });
    expect(off.status, JSON.stringify(off.body)).toBe(200);
    expect(off.body.message).toBe('You will no longer get emails about deposits credited to your wallet.');
    expect((await call('user/notification-settings', { token: user.accessToken })).body.data.email.deposit_credited).toBe(false);

    await depositByCard(user, 1000);
    await emailsGoOut(user.id);
    expect(await outboxOf(user.email)).toHaveLength(1);
    expect((await rowsOf(user.id)).map((row) => row.emailState).sort()).toEqual(['sent', 'skipped']);
    expect((await bell(user)).unread).toBe(2);
    expect((await call('user/notifications/read', { token: user.accessToken, body: {} })).status).toBe(200);
    expect((await bell(user)).unread).toBe(0);
  });

  it('cannot be unsubscribed from with a forged or altered link', async () => {
    const [user, other] = await Promise.all([registerAndLogin(), registerAndLogin()]);
    const genuine = await unsubscribeToken(env, user.id, 'order_completed');
    const altered = genuine.replace(`${user.id}.`, `${other.id}.`);
    for (const token of [altered, `${user.id}.order_completed.00`, 'nonsense', genuine.replace('order_completed', 'low_balance')]) {
      const refused = await call('notifications/unsubscribe', { body: { token } });
      expect(refused.status, token).toBe(400);
      expect(refused.body.message).toBe('This unsubscribe link is not valid.');
    }
    expect((await call('user/notification-settings', { token: other.accessToken })).body.data.email.order_completed).toBe(true);
  });
});

describe('the bell', () => {
  it('counts unread notices to 100 at most (it writes "99+"), and exactly below that', async () => {
    const user = await registerAndLogin();
    const notices = (n: number, from: number) =>
      Array.from({ length: n }, (_, i) => ({
        userId: user.id,
        kind: 'ticket_answered' as const,
        eventKey: `bell-cap-${user.id}-${from + i}`,
        title: 'Support answered your ticket',
        body: 'Planted notice.',
        link: '/user/tickets',
      }));
    await withDb((db) => db.insert(notifications).values(notices(99, 0)));
    expect((await bell(user)).unread).toBe(99);
    await withDb((db) => db.insert(notifications).values(notices(31, 99)));
    const capped = await bell(user);
    expect(capped.unread).toBe(BELL_LARGEST_COUNT + 1);
    expect(capped.items.length).toBeGreaterThan(0);
    expect((await call('user/notifications/read', { token: user.accessToken, body: {} })).status).toBe(200);
    expect((await bell(user)).unread).toBe(0);
  });
});

describe('orders, refills and support answers', () => {
  it('tell a completed order and its refill once each, however many syncs see them', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers);
    const { providerOrderId } = await orderRow(order.id);
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Completed', remains: 0 });
    await Promise.all([withDb((db) => syncOrders(db, env)), withDb((db) => syncOrders(db, env))]);
    expect((await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken })).status).toBe(200);
    await shop.fake.post('/__control', { stepMs: 1 });
    for (;;) {
      await withDb((db) => syncOrders(db, env));
      const [refill] = await withDb((db) => db.select().from(orderRefills).where(eq(orderRefills.orderId, order.id)));
      if (refill.status === 'Completed') break;
    }
    await withDb((db) => syncOrders(db, env));
    const told = (await rowsOf(user.id)).map((row) => [row.kind, row.title]);
    expect(told.sort()).toEqual(
      [
        ['order_completed', `Order #${order.id} completed`],
        ['refill_completed', `Refill of order #${order.id} done`],
      ].sort(),
    );
    await emailsGoOut(user.id);
    expect((await outboxOf(user.email)).map((mail) => mail.subject).sort()).toEqual(
      [`Order #${order.id} completed`, `Refill of order #${order.id} done`].sort(),
    );
  });

  it('tell a canceled order with its refund, and a partial one with what came back', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(10_000_000n);
    const canceled = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 })).body.data;
    const partial = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 })).body.data;
    await shop.fake.post(`/__orders/${(await orderRow(canceled.id)).providerOrderId}`, { status: 'Cancelled', remains: 1000 });
    await shop.fake.post(`/__orders/${(await orderRow(partial.id)).providerOrderId}`, { status: 'Partial', remains: 500 });
    await withDb((db) => syncOrders(db, env));
    const byKind = Object.fromEntries((await rowsOf(user.id)).map((row) => [row.kind, row]));
    expect(byKind.order_canceled.body).toMatch(
      new RegExp(`was canceled.*NGN\u00a0${canceled.charge.replace(/\B(?=(\d{3})+(?!\d))/g, ',')} was refunded to your wallet\\.$`),
    );
    // The refund short of the charge comes with what it pays back: the part not delivered.
    expect(byKind.order_partial.body).toMatch(
      /was only partly delivered\. 500 of 1,000 were delivered, so NGN\u00a0[\d,]+\.\d{2} for the 500 not delivered was refunded to your wallet\.$/,
    );
  });

  it('tell each answer from support once, and nothing when the user turned it off by email', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const opened = await call('user/tickets', { token: user.accessToken, body: { subject: 'Where is my order?', kind: 'other', message: 'Please help.' } });
    const ticketId = opened.body.data.id;
    const settings = await call('user/notification-settings', {
      token: user.accessToken,
      method: 'PUT',
      body: { email: { ticket_answered: false }, lowBalance: null },
    });
    expect(settings.status, JSON.stringify(settings.body)).toBe(200);
    expect(settings.body.data.email).toMatchObject({ ticket_answered: false, deposit_credited: true });
    await call(`admin/tickets/${ticketId}/messages`, { token: admin.accessToken, body: { message: 'On its way.' } });
    await call(`admin/tickets/${ticketId}/messages`, { token: admin.accessToken, body: { message: 'Done now.' } });
    const answers = (await rowsOf(user.id)).filter((row) => row.kind === 'ticket_answered');
    expect(answers).toHaveLength(2);
    expect(answers[0]).toMatchObject({ link: `/user/tickets/${ticketId}`, title: 'Support answered your ticket' });
    await emailsGoOut(user.id);
    expect(await outboxOf(user.email)).toEqual([]);
  });
});

describe('the low-balance alert', () => {
  it('fires once when the balance is under the amount set, and again only after a top-up above it', async () => {
    const user = await registerAndLogin();
    await fund(user.id, 50_000n);
    const refused = await call('user/notification-settings', { token: user.accessToken, method: 'PUT', body: { email: {}, lowBalance: '-5' } });
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe('Low balance alert must be an amount in naira, like 1000');
    expect(
      (await call('user/notification-settings', { token: user.accessToken, method: 'PUT', body: { email: {}, lowBalance: '1000' } })).body.data.lowBalance,
    ).toBe('1000.00');

    await withDb((db) => checkLowBalances(db));
    await withDb((db) => checkLowBalances(db));
    const alerts = async () => (await rowsOf(user.id)).filter((row) => row.kind === 'low_balance');
    expect(await alerts()).toEqual([
      expect.objectContaining({
        body: 'Your wallet has NGN\u00a0500.00, below the NGN\u00a01,000.00 you set. Add funds to keep ordering.',
        link: '/user/add-fund',
      }),
    ]);

    await fund(user.id, 100_000n);
    await withDb((db) => checkLowBalances(db));
    expect(await alerts()).toHaveLength(1);
    // Spent down again (through the ledger, as an order would): the alert is armed again and fires once more.
    await withDb((db) =>
      applyLedgerEntry(db, {
        userId: user.id,
        direction: 'debit',
        amountKobo: 120_000n,
        source: 'admin_debit',
        sourceRef: `low-${user.id}`,
        description: 'test spend',
      }),
    );
    await withDb((db) => checkLowBalances(db));
    await withDb((db) => checkLowBalances(db));
    expect(await alerts()).toHaveLength(2);
  });
});
