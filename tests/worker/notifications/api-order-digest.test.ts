// Orders placed through the reseller API are not told one by one (issue 27, notifications that fit resellers): they
// remember the key that placed them, close with no bell item or email of their own, and are told only in a daily summary
// the user turns on in Settings (off by default), written by the cron at most once a day, and emailed like any other.
// Days are moved into the past in the database (the summary covers up to today's Lagos midnight), never waited for.
import { env, SELF } from 'cloudflare:test';
import { and, eq, inArray, ne, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { emailOutbox, notificationSettings, notifications, orderRefills, orders } from '../../../drizzle/schema';
import { startOfShopDay, writeApiOrderDigests } from '../../../worker/services/notifications/api-order-digest';
import { sendNotificationEmails } from '../../../worker/services/notifications/notification-emails';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { call, type TestAccount, unique, withDb } from '../../support/api';
import { newLink, orderRow, placeSubmittedOrder, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, type Shop, shopSelling } from '../fixtures/shop-fixtures';

const DIGEST = 'api_order_digest';
const PER_ORDER_KINDS = ['order_completed', 'order_partial', 'order_canceled'];

const rowsOf = (userId: number) => withDb((db) => db.select().from(notifications).where(eq(notifications.userId, userId)));

async function newApiKey(user: TestAccount): Promise<{ id: number; key: string }> {
  const created = await call('user/api-keys', { token: user.accessToken, body: { name: 'Reseller tool' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.data.id, key: created.body.data.key };
}

/** `add` as a reseller tool posts it; the order once the queue has sent it to the provider. */
async function placeThroughApi(key: string, serviceId: number): Promise<number> {
  const body = new URLSearchParams({ key, action: 'add', service: String(serviceId), link: newLink(), quantity: '1000' });
  const answer = (await (await SELF.fetch('http://shop.test/api/v2', { method: 'POST', body })).json()) as { order?: number; error?: string };
  expect(answer.order, JSON.stringify(answer)).toEqual(expect.any(Number));
  await untilSubmitted(answer.order!);
  return answer.order!;
}

/** The fake panel reports each order as given and the shop's sync closes them. */
async function closeAtProvider(shop: Shop, outcomes: Array<[orderId: number, status: string, remains: number]>) {
  for (const [orderId, status, remains] of outcomes) {
    await shop.fake.post(`/__orders/${(await orderRow(orderId)).providerOrderId}`, { status, remains });
  }
  await withDb((db) => syncOrders(db, env));
  for (const [orderId] of outcomes) expect(['Completed', 'Partial', 'Canceled']).toContain((await orderRow(orderId)).status);
}

/** As if the orders had closed yesterday (noon, Lagos), and the user's summaries had told up to yesterday's start. */
async function asIfClosedYesterday(userId: number, orderIds: number[]) {
  await withDb(async (db) => {
    for (const id of orderIds)
      await db
        .update(orders)
        .set({ completedAt: sql`${startOfShopDay} - interval '12 hours'` })
        .where(eq(orders.id, id));
    await db
      .update(notificationSettings)
      .set({ apiDigestThrough: sql`${startOfShopDay} - interval '1 day'` })
      .where(and(eq(notificationSettings.userId, userId), eq(notificationSettings.apiOrderDigest, true)));
  });
}

/** Whether the user's summaries have told up to today's start, as the cron leaves them. */
async function toldUpToToday(userId: number): Promise<boolean> {
  const [row] = await withDb((db) =>
    db
      .select({ upToToday: sql<boolean>`${notificationSettings.apiDigestThrough} = ${startOfShopDay}` })
      .from(notificationSettings)
      .where(eq(notificationSettings.userId, userId)),
  );
  return row.upToToday;
}

const settingsOf = async (user: TestAccount) => (await call('user/notification-settings', { token: user.accessToken })).body.data;
const saveSettings = (user: TestAccount, body: Record<string, unknown>) =>
  call('user/notification-settings', { token: user.accessToken, method: 'PUT', body: { email: {}, lowBalance: null, ...body } });
const naira = (kobo: bigint) => `NGN\u00a0${(Number(kobo) / 100).toLocaleString('en-US', { minimumFractionDigits: 2, maximumFractionDigits: 2 })}`;

describe('an order placed through the API', () => {
  it('remembers its key and ends with no notification of its own, while orders placed in the site, one by one or in a batch, are told', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igFollowers);
    const apiKey = await newApiKey(user);
    const viaApi = await placeThroughApi(apiKey.key, serviceId);
    const viaSite = (await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity: 1000 })).body.data.id as number;
    const batch = await call('user/mass-order', {
      token: user.accessToken,
      body: { orders: `${serviceId}|${newLink()}|1000` },
      headers: { 'idempotency-key': unique('mass') },
    });
    const viaBatch = batch.body.results[0].orderId as number;
    await untilSubmitted(viaBatch);
    expect((await orderRow(viaApi)).apiKeyId).toBe(apiKey.id);
    expect((await orderRow(viaSite)).apiKeyId).toBeNull();
    expect((await orderRow(viaBatch)).apiKeyId).toBeNull();

    await closeAtProvider(shop, [
      [viaApi, 'Completed', 0],
      [viaSite, 'Completed', 0],
      [viaBatch, 'Cancelled', 1000],
    ]);
    const told = (await rowsOf(user.id)).filter((row) => PER_ORDER_KINDS.includes(row.kind)).map((row) => [row.kind, row.eventKey]);
    expect(told.sort()).toEqual(
      [
        ['order_completed', String(viaSite)],
        ['order_canceled', String(viaBatch)],
      ].sort(),
    );
    // Only the telling is left out: the canceled order's refund is as for any other.
    expect((await orderRow(viaBatch)).refundedKobo).toBeGreaterThan(0n);
  });

  it('has its refill finish with no notification either, while the refill of an order placed in the site is told', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igFollowers);
    const apiKey = await newApiKey(user);
    const viaApi = await placeThroughApi(apiKey.key, serviceId);
    const viaSite = (await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity: 1000 })).body.data.id as number;
    await closeAtProvider(shop, [
      [viaApi, 'Completed', 0],
      [viaSite, 'Completed', 0],
    ]);
    const refill = new URLSearchParams({ key: apiKey.key, action: 'refill', order: String(viaApi) });
    const asked = (await (await SELF.fetch('http://shop.test/api/v2', { method: 'POST', body: refill })).json()) as { refill?: unknown; error?: string };
    expect(asked.refill, JSON.stringify(asked)).toBeDefined();
    expect((await call(`user/orders/${viaSite}/refill`, { method: 'POST', token: user.accessToken })).status).toBe(200);
    await shop.fake.post('/__control', { stepMs: 1 });
    await expect
      .poll(
        async () => {
          await withDb((db) => syncOrders(db, env));
          const refills = await withDb((db) =>
            db
              .select()
              .from(orderRefills)
              .where(inArray(orderRefills.orderId, [viaApi, viaSite])),
          );
          return refills.map((row) => row.status);
        },
        { timeout: 20_000 },
      )
      .toEqual(['Completed', 'Completed']);
    const told = (await rowsOf(user.id)).filter((row) => row.kind === 'refill_completed').map((row) => row.title);
    expect(told).toEqual([`Refill of order #${viaSite} done`]);
  });
});

describe('the daily summary of API orders', () => {
  it('is off by default: API orders that closed yesterday are not told at all', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igFollowers);
    expect((await settingsOf(user)).apiOrderDigest).toBe(false);
    expect((await settingsOf(user)).email).not.toHaveProperty(DIGEST);
    const apiKey = await newApiKey(user);
    const order = await placeThroughApi(apiKey.key, serviceId);
    await closeAtProvider(shop, [[order, 'Completed', 0]]);
    await asIfClosedYesterday(user.id, [order]);
    await withDb((db) => writeApiOrderDigests(db));
    expect(await rowsOf(user.id)).toEqual([]);
  });

  it('turned on, tells yesterday once in the bell and by email, with the counts and refunds, however often the cron runs', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igFollowers);
    const turnedOn = await saveSettings(user, { apiOrderDigest: true });
    expect(turnedOn.status, JSON.stringify(turnedOn.body)).toBe(200);
    expect(turnedOn.body.data).toMatchObject({ apiOrderDigest: true, email: { order_completed: true } });
    // Saving other settings leaves it on.
    expect((await saveSettings(user, { email: { ticket_answered: false } })).body.data.apiOrderDigest).toBe(true);

    const apiKey = await newApiKey(user);
    const [completedA, completedB, partial, canceled] = [
      await placeThroughApi(apiKey.key, serviceId),
      await placeThroughApi(apiKey.key, serviceId),
      await placeThroughApi(apiKey.key, serviceId),
      await placeThroughApi(apiKey.key, serviceId),
    ];
    const viaSite = (await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity: 1000 })).body.data.id as number;
    await closeAtProvider(shop, [
      [completedA, 'Completed', 0],
      [completedB, 'Completed', 0],
      [partial, 'Partial', 400],
      [canceled, 'Cancelled', 1000],
      [viaSite, 'Completed', 0],
    ]);
    // Closed today: today's summary is written tomorrow, so nothing yet, and no API order was told one by one.
    await withDb((db) => writeApiOrderDigests(db));
    expect((await rowsOf(user.id)).map((row) => [row.kind, row.eventKey])).toEqual([['order_completed', String(viaSite)]]);

    await asIfClosedYesterday(user.id, [completedA, completedB, partial, canceled, viaSite]);
    await Promise.all([withDb((db) => writeApiOrderDigests(db)), withDb((db) => writeApiOrderDigests(db))]);
    await withDb((db) => writeApiOrderDigests(db));
    const digests = (await rowsOf(user.id)).filter((row) => row.kind === DIGEST);
    const partialRefund = (await orderRow(partial)).refundedKobo;
    const canceledRefund = (await orderRow(canceled)).refundedKobo;
    expect(partialRefund).toBeGreaterThan(0n);
    expect(digests).toEqual([
      expect.objectContaining({
        title: 'Your orders through the API',
        body: `Yesterday through the API: 2 completed, 1 partly delivered (${naira(partialRefund)} refunded), 1 canceled (${naira(canceledRefund)} refunded).`,
        link: '/user/orders',
        emailState: 'pending',
      }),
    ]);
    expect(await toldUpToToday(user.id)).toBe(true);

    // Even were the day handed back, its key is taken: the day is told once.
    await asIfClosedYesterday(user.id, []);
    await withDb((db) => writeApiOrderDigests(db));
    expect((await rowsOf(user.id)).filter((row) => row.kind === DIGEST)).toHaveLength(1);

    for (;;) {
      await withDb((db) => sendNotificationEmails(db, env));
      const [digest] = (await rowsOf(user.id)).filter((row) => row.kind === DIGEST);
      if (digest.emailState !== 'pending') break;
    }
    const mail = await withDb((db) =>
      db
        .select()
        .from(emailOutbox)
        .where(and(eq(emailOutbox.toAddress, user.email), ne(emailOutbox.subject, 'Confirm your email address'))),
    );
    expect(mail.map((m) => m.subject).sort()).toEqual(['Your orders through the API', `Order #${viaSite} completed`].sort());
    const digestMail = mail.find((m) => m.subject === 'Your orders through the API')!;
    expect(digestMail.body).toContain(digests[0].body);
    expect(digestMail.body).toContain('You get this email about orders placed through the API: a daily summary by email.');

    // Its unsubscribe link turns the summary itself off.
    const token = /unsubscribe\?token=([^\s]+)/.exec(digestMail.body)?.[1];
    const off = await call('notifications/unsubscribe', { body: { token: decodeURIComponent(token!) } });
    expect(off.body.message).toBe('You will no longer get the daily summary of orders placed through the API.');
    expect(await settingsOf(user)).toMatchObject({ apiOrderDigest: false, email: { order_completed: true } });
  });

  it('writes nothing for a day in which no API order closed, and counts that day as told', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igFollowers);
    await saveSettings(user, { apiOrderDigest: true });
    await placeThroughApi((await newApiKey(user)).key, serviceId);
    const viaSite = (await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity: 1000 })).body.data.id as number;
    await closeAtProvider(shop, [[viaSite, 'Completed', 0]]);
    await asIfClosedYesterday(user.id, [viaSite]);
    await withDb((db) => writeApiOrderDigests(db));
    expect((await rowsOf(user.id)).filter((row) => row.kind === DIGEST)).toEqual([]);
    expect(await toldUpToToday(user.id)).toBe(true);
  });
});
