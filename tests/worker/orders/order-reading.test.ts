// What the customer reads of an order: the total the charge pays for beside the per-run figure, what was delivered, the
// refund with its reason, a submission being confirmed with its expected time, a username written once, and each reason
// reaching exactly the audience its label names (the administrator's audit note never; a cancel reason always).
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { notifications } from '../../../drizzle/schema';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { call, type TestAccount, withDb } from '../../support/api';
import { fakeOrders, newLink, orderRow, placeSubmittedOrder } from '../fixtures/order-fixtures';
import { FAKE, newShopWithOrder, shopSelling } from '../fixtures/shop-fixtures';

const viewOf = async (user: TestAccount, orderId: number) => (await call(`user/orders/${orderId}`, { token: user.accessToken })).body.data;
const toldAbout = async (userId: number, orderId: number) =>
  withDb((db) =>
    db
      .select({ kind: notifications.kind, body: notifications.body })
      .from(notifications)
      .where(and(eq(notifications.userId, userId), eq(notifications.eventKey, String(orderId)))),
  );
const naira = (amount: string) => new RegExp(`NGN\u00a0${Number(amount).toLocaleString('en-US', { minimumFractionDigits: 2 }).replace('.', '\\.')}`);

describe('a subscription named by username', () => {
  it.each(['@brand_once', 'brand_once'])('stores %s as "@name" once and sends the provider the bare name once', async (typed) => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igAutoLikes);
    const name = `${typed.replace('@', '')}${serviceId}`;
    const placed = await placeSubmittedOrder(user, { serviceId, username: typed.startsWith('@') ? `@${name}` : name, min: 100, max: 200, posts: 5, delay: 0 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data).toMatchObject({ link: `@${name}`, quantity: 200, posts: 5, total: 1000, runs: null, delivered: null, status: 'Pending' });
    expect((await orderRow(placed.body.data.id)).extras).toMatchObject({ username: name });
    const fake = await fakeOrders(shop.fake);
    expect(fake.orders.filter((order) => order.link.includes(name)).map((order) => order.link)).toEqual([name]);
    expect(fake.addCallsByLink[`username:${name}`]).toBe(1);
  });
});

describe('a drip-feed', () => {
  it('reads 500 for 5 runs × 100, what was delivered, and a partial refund with what it pays back', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igLikes);
    const placed = (await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity: 100, runs: 5, interval: 30 })).body.data;
    expect(placed).toMatchObject({ quantity: 100, runs: 5, posts: null, total: 500, delivered: null, confirmationExpectedBy: null });
    await shop.fake.post(`/__orders/${(await orderRow(placed.id)).providerOrderId}`, { status: 'Partial', remains: 100 });
    await withDb((db) => syncOrders(db, env));
    const after = await viewOf(user, placed.id);
    expect(after).toMatchObject({ status: 'Partial', total: 500, delivered: 400, remains: 100 });
    expect(Number(after.refunded)).toBeCloseTo(Math.floor((Number(after.charge) * 100 * 100) / 500) / 100, 2);
    const [told] = await toldAbout(user.id, placed.id);
    expect(told.body).toMatch(/was only partly delivered\. 400 of 500 were delivered, so /);
    expect(told.body).toMatch(naira(after.refunded));
    expect(told.body).toMatch(/for the 100 not delivered was refunded to your wallet\.$/);
  });
});

describe('an order whose submission is unknown', () => {
  it('says when the customer can expect an answer, and nothing once it is settled', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igLikes, { control: { mode: 'timeout' }, timeoutMs: 1000 });
    const row = await orderRow(order.id);
    expect(row.submission).toBe('unknown');
    expect(order).toMatchObject({ status: 'Pending Submission', confirmationExpectedBy: new Date(row.updatedAt.getTime() + 86_400_000).toISOString() });
    await shop.fake.post('/__control', { mode: 'normal' });
    // A ticket about it is an ordinary ticket about the order.
    const ticket = await call('user/tickets', {
      token: user.accessToken,
      body: { subject: `Order #${order.id}: being confirmed with the provider`, kind: 'order', orderId: order.id, message: 'Please check it.' },
    });
    expect(ticket.status, JSON.stringify(ticket.body)).toBe(201);
    await call(`admin/orders/${order.id}/refund-without-provider`, { token: shop.admin.accessToken, body: { reason: 'not in the panel' } });
    expect(await viewOf(user, order.id)).toMatchObject({ status: 'Canceled', confirmationExpectedBy: null });
  });
});

describe('reasons reach the audience their label names', () => {
  it('keeps the note of "Refund without the provider" in the audit log: the customer reads only that the shop refunded', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igLikes);
    const note = `checked panel ${order.id}, provider has nothing`;
    const refunded = await call(`admin/orders/${order.id}/refund-without-provider`, { token: shop.admin.accessToken, body: { reason: note } });
    expect(refunded.status, JSON.stringify(refunded.body)).toBe(200);
    const view = await viewOf(user, order.id);
    expect(view).toMatchObject({ status: 'Canceled', statusReason: 'Canceled and refunded by the shop' });
    const told = await toldAbout(user.id, order.id);
    expect(told).toEqual([{ kind: 'order_canceled', body: expect.stringContaining('Canceled and refunded by the shop.') }]);
    expect(JSON.stringify({ view, told })).not.toContain(note);
    // The administrator still has it.
    expect((await call(`admin/orders/${order.id}`, { token: shop.admin.accessToken })).body.data.statusReason).toBe('Canceled and refunded by the shop');
  });

  it('shows the reason of "Cancel at the provider" to the customer at once and once the provider confirms, with a partial refund explained', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers);
    const asked = await call(`admin/orders/${order.id}/cancel`, { token: shop.admin.accessToken, body: { reason: 'The link is a private account' } });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    const reason = 'Cancel requested by an administrator: The link is a private account';
    expect(await viewOf(user, order.id)).toMatchObject({ status: 'Pending', pendingRequest: 'Cancel requested', statusReason: reason });
    // The provider delivered 400 of the 1000 before it canceled.
    await shop.fake.post(`/__orders/${(await orderRow(order.id)).providerOrderId}`, { status: 'Canceled', remains: 600, charge: null });
    await withDb((db) => syncOrders(db, env));
    const after = await viewOf(user, order.id);
    expect(after).toMatchObject({ status: 'Canceled', statusReason: reason, delivered: 400, total: 1000 });
    const [told] = await toldAbout(user.id, order.id);
    expect(told.body).toMatch(`was canceled. ${reason}. 400 of 1,000 were delivered, so `);
    expect(told.body).toMatch(naira(after.refunded));
    expect(told.body).toMatch(/for the 600 not delivered was refunded to your wallet\.$/);
  });

  it("tells the customer the provider canceled, in the order's view and the notification", async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igLikes);
    await shop.fake.post(`/__orders/${(await orderRow(order.id)).providerOrderId}`, { status: 'Canceled', remains: 1000 });
    await withDb((db) => syncOrders(db, env));
    expect(await viewOf(user, order.id)).toMatchObject({ status: 'Canceled', statusReason: 'Canceled by the provider', delivered: 0, refunded: order.charge });
    const [told] = await toldAbout(user.id, order.id);
    expect(told.body).toMatch(/was canceled\. Canceled by the provider\. .* was refunded to your wallet\.$/);
  });

  it("lets an administrator's own words replace a requested cancel's when a person closes the order", async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers);
    const token = shop.admin.accessToken;
    await call(`admin/orders/${order.id}/cancel`, { token, body: { reason: 'first words' } });
    const set = await call(`admin/orders/${order.id}/status`, { token, body: { status: 'Canceled', reason: 'Checked by hand: nothing delivered' } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(await viewOf(user, order.id)).toMatchObject({ status: 'Canceled', statusReason: 'Checked by hand: nothing delivered' });
    expect((await toldAbout(user.id, order.id))[0].body).toContain('Checked by hand: nothing delivered.');
  });
});
