import { env } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings, orderRefills, orders, services } from '../../../drizzle/schema';
import type { Db } from '../../../worker/db';
import { ceilDiv } from '../../../worker/lib/decimal';
import { DEFAULT_SUBSCRIPTION_POSTS } from '../../../worker/schemas/order-constants';
import { placeOrder as placeOrderDirectly } from '../../../worker/services/orders/order-placing';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { committedKobo, getOrderView, ordersForUserDetail } from '../../../worker/services/orders/order-views';
import { auditEntries, call, countingRoundTrips, registerAndLogin, unique, withDb } from '../../support/api';
import { fakeOrders, newLink, orderRow, placeOrder, placeSubmittedOrder, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, newShop, rateKoboOf } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const chargeOf = (rateKobo: bigint, units: number) => ceilDiv(rateKobo * BigInt(units), 1000n);

describe('placing an order', () => {
  it('charges ceil(rate × quantity / 1000), debits once in the ledger, answers at once and submits to the provider from the queue', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(1_000_000n);
    const serviceId = shop.serviceIds[FAKE.igFollowers];
    const link = newLink();
    const response = await placeOrder(user, { serviceId, link, quantity: 1234 });
    expect(response.status, JSON.stringify(response.body)).toBe(201);
    const charge = chargeOf(await rateKoboOf(serviceId), 1234);
    expect(response.body).toMatchObject({ message: 'Order placed successfully' });
    // The answer does not wait for the provider: the order is paid and queued for submission.
    expect(response.body.data).toMatchObject({
      serviceId,
      link,
      quantity: 1234,
      status: 'Pending Submission',
      refunded: '0.00',
      charge: (Number(charge) / 100).toFixed(2),
      canCancel: true,
      canRefill: false,
      startCount: null,
      remains: null,
    });
    await untilSubmitted(response.body.data.id);
    expect((await call(`user/orders/${response.body.data.id}`, { token: user.accessToken })).body.data).toMatchObject({ status: 'Pending', canCancel: true });
    expect(await balanceKobo(user.id)).toBe(1_000_000n - charge);
    const debits = (await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order');
    expect(debits).toEqual([expect.objectContaining({ sourceRef: String(response.body.data.id), amountKobo: charge, transactionType: 2 })]);
    const fake = await fakeOrders(shop.fake);
    expect(fake.addCallsByLink[link]).toBe(1);
    const row = await orderRow(response.body.data.id);
    expect(row).toMatchObject({ submission: 'accepted', providerOrderId: String(fake.orders.find((order) => order.link === link)!.id) });
    expect(await withDb((db) => committedKobo(db, user.id))).toBe(charge);
    expect((await call('user/getMai', { token: user.accessToken })).body.smmBalance).toBe(Number(charge) / 100);
  });

  it('refuses an order the balance does not cover and writes nothing', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(1000n);
    const response = await placeOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 });
    expect(response).toMatchObject({ status: 400, body: { message: 'Insufficient wallet balance', error: 'Bad Request' } });
    expect(await withDb((db) => db.select().from(orders).where(eq(orders.userId, user.id)))).toEqual([]);
    expect(await balanceKobo(user.id)).toBe(1000n);
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order')).toEqual([]);
  });

  it('places exactly 10 of 100 concurrent orders against a balance that covers 10', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const charge = chargeOf(await rateKoboOf(serviceId), 1000);
    const user = await fundedUser(charge * 10n);
    const responses = await Promise.all(Array.from({ length: 100 }, () => placeOrder(user, { serviceId, link: newLink(), quantity: 1000 })));
    const statuses = responses.map((response) => response.status);
    expect(statuses.filter((status) => status === 201)).toHaveLength(10);
    expect(statuses.filter((status) => status === 400)).toHaveLength(90);
    for (const refused of responses.filter((response) => response.status === 400)) expect(refused.body.message).toBe('Insufficient wallet balance');
    expect(await balanceKobo(user.id)).toBe(0n);
    const rows = await withDb((db) => db.select().from(orders).where(eq(orders.userId, user.id)));
    expect(rows).toHaveLength(10);
    const ledger = await ledgerFor(user.id);
    expect(ledger.filter((entry) => entry.sourceKind === 'order')).toHaveLength(10);
    expect(ledger.every((entry) => entry.balanceAfterKobo >= 0n)).toBe(true);
  });

  it('places one order and one debit for one Idempotency-Key, also concurrently', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const user = await fundedUser(10_000_000n);
    const link = newLink();
    const key = unique('key');
    const first = await placeOrder(user, { serviceId, link, quantity: 500 }, key);
    const second = await placeOrder(user, { serviceId, link, quantity: 500 }, key);
    expect(first.status).toBe(201);
    expect(second.status).toBe(200);
    expect(second.body.data.id).toBe(first.body.data.id);

    const concurrentKey = unique('key');
    const concurrentLink = newLink();
    const together = await Promise.all(Array.from({ length: 10 }, () => placeOrder(user, { serviceId, link: concurrentLink, quantity: 500 }, concurrentKey)));
    expect(together.map((response) => response.status).sort()).toEqual([200, 200, 200, 200, 200, 200, 200, 200, 200, 201]);
    expect(new Set(together.map((response) => response.body.data.id)).size).toBe(1);

    const rows = await withDb((db) => db.select().from(orders).where(eq(orders.userId, user.id)));
    expect(rows).toHaveLength(2);
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order')).toHaveLength(2);
    // The provider hears of it from the queue, after the answers.
    expect(await untilSubmitted(together[0].body.data.id)).toMatchObject({ submission: 'accepted', submitAttempts: 1 });
    expect((await fakeOrders(shop.fake)).addCallsByLink[concurrentLink]).toBe(1);

    const otherOrder = await placeOrder(user, { serviceId, link: newLink(), quantity: 500 }, key);
    expect(otherOrder).toMatchObject({
      status: 422,
      body: {
        message: 'This Idempotency-Key was already used for an order with different details. Use a new key for a new order.',
        error: 'Unprocessable Entity',
      },
    });
    // Keys are per user: another user's same key is another order.
    const other = await fundedUser(10_000_000n);
    expect((await placeOrder(other, { serviceId, link, quantity: 500 }, key)).status).toBe(201);
    expect(await placeOrder(user, { serviceId, link, quantity: 500 }, 'x'.repeat(201))).toMatchObject({
      status: 400,
      body: { message: 'Idempotency-Key must be at most 200 characters' },
    });
  });
});

describe('round trips', () => {
  it('places an order with one statement answered from what it wrote, over HTTP without a WebSocket; a retry with the same key is that statement and a read', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const user = await fundedUser(10_000_000n);
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const order = (link: string, key: string) => (db: Db) => placeOrderDirectly(db, env, user.id, { serviceId, link, quantity: 100 }, { idempotencyKey: key });

    // The first order on a service this isolate has not read yet reads it first.
    const first = await countingRoundTrips(order(newLink(), unique('key')));
    expect(first).toMatchObject({ httpCalls: 2, webSockets: 0, result: { created: true, order: { status: 'Pending Submission' } } });
    const link = newLink();
    const key = unique('key');
    const second = await countingRoundTrips(order(link, key));
    expect(second).toMatchObject({
      httpCalls: 1,
      webSockets: 0,
      result: { created: true, order: { status: 'Pending Submission', link, canCancel: true, canRefill: false, refunded: '0.00' } },
    });
    // The answer built from the statement is the order as a read shows it (the queue may have moved its status on since).
    const { id, serviceId: placedServiceId, serviceName, quantity, charge, created_at } = second.result.order;
    expect(await withDb((db) => getOrderView(db, user.id, id))).toMatchObject({
      id,
      serviceId: placedServiceId,
      serviceName,
      link,
      quantity,
      charge,
      created_at,
    });
    const retry = await countingRoundTrips(order(link, key));
    expect(retry).toMatchObject({ httpCalls: 2, webSockets: 0, result: { created: false, order: { id: second.result.order.id } } });

    // A price change since the service was read is caught by the placing statement: the order is charged the new price.
    await withDb((db) =>
      db
        .update(services)
        .set({ rateKobo: sql`${services.rateKobo} + 1000` })
        .where(eq(services.id, serviceId)),
    );
    const repriced = await countingRoundTrips(order(newLink(), unique('key')));
    expect(repriced.httpCalls).toBe(3);
    expect(repriced.result.order.charge).toBe((Number(chargeOf(await rateKoboOf(serviceId), 100)) / 100).toFixed(2));

    // A copy that would accept an order the service now refuses, or refuse one it now accepts, is never the judge.
    const setMin = (min: number) => withDb((db) => db.update(services).set({ min }).where(eq(services.id, serviceId)));
    await setMin(200);
    await expect(withDb(order(newLink(), unique('key')))).rejects.toThrow('Minimum quantity is 200');
    await setMin(50);
    const acceptedAgain = await withDb(order(newLink(), unique('key')));
    expect(acceptedAgain).toMatchObject({ created: true, order: { quantity: 100, status: 'Pending Submission' } });
  });
});

describe('what the order must say', () => {
  it.each([
    [{ link: 'https://instagram.com/p/x', quantity: 99 }, 'Minimum quantity is 100'],
    [{ link: 'https://instagram.com/p/x', quantity: 100_001 }, 'Maximum quantity is 100,000'],
    [{ link: 'https://instagram.com/p/x' }, 'Please enter a valid quantity'],
    [{ link: 'https://instagram.com/p/x', quantity: 1.5 }, 'Please enter a valid quantity'],
    [{ link: 'https://instagram.com/p/x', quantity: '100.5' }, 'Please enter a valid quantity'],
    [{ link: 'https://instagram.com/p/x', quantity: '1e3' }, 'Please enter a valid quantity'],
    [{ quantity: 100 }, 'Link is required'],
    [{ link: '', quantity: 100 }, 'Link is required'],
    // Followers are sold by username: a username or a profile link, nothing else.
    [{ link: 'not a link', quantity: 100 }, 'Please enter a username, e.g. @name, or a link to the profile'],
    [{ link: 'javascript:alert(1)', quantity: 100 }, 'Please enter a username, e.g. @name, or a link to the profile'],
    [{ link: 'https://tiktok.com/@someone', quantity: 100 }, 'This service needs an Instagram username or profile link'],
    [{ link: 'https://instagram.com/p/x', quantity: 100, runs: 3, interval: 10 }, 'Drip-feed is not available for this service'],
  ])('refuses %j with "%s"', async (extra, message) => {
    const shop = await sharedShop();
    const user = await registerAndLogin();
    const response = await placeOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], ...extra });
    expect(response).toMatchObject({ status: 400, body: { message, error: 'Bad Request' } });
  });

  it('checks the fields each service type needs', async () => {
    const shop = await sharedShop();
    const user = await fundedUser(100_000_000n);
    const link = newLink();
    const order = (fakeService: string, body: Record<string, unknown>) => placeOrder(user, { serviceId: shop.serviceIds[fakeService], ...body });

    expect((await order(FAKE.igComments, { link })).body.message).toBe('Comments is required');
    expect((await order(FAKE.igComments, { link, comments: 'one\ntwo' })).body.message).toBe('Minimum quantity is 5');
    const comments = await order(FAKE.igComments, { link, comments: 'a\nb\n\nc\nd\ne\nf' });
    expect(comments.status, JSON.stringify(comments.body)).toBe(201);
    expect(comments.body.data).toMatchObject({
      quantity: 6,
      charge: (Number(chargeOf(await rateKoboOf(shop.serviceIds[FAKE.igComments]), 6)) / 100).toFixed(2),
    });

    expect((await order(FAKE.igMentionsFollowers, { link: newLink(), quantity: 1000 })).body.message).toBe('Username is required');
    expect((await order(FAKE.igMentionsFollowers, { link: newLink(), quantity: 1000, username: 'someone' })).status).toBe(201);
    expect((await order(FAKE.xPoll, { link: newLink('x.com'), quantity: 100 })).body.message).toBe('Answer number is required');
    expect((await order(FAKE.xPoll, { link: newLink('x.com'), quantity: 100, answerNumber: 'two' })).body.message).toBe('Answer number must be a whole number');
    expect((await order(FAKE.xPoll, { link: newLink('twitter.com'), quantity: 100, answerNumber: 2 })).status).toBe(201);

    // Packages are priced per package: rate × quantity.
    const pack = await order(FAKE.ytWatchTime, { link: newLink('youtube.com') });
    expect(pack.status).toBe(201);
    expect(pack.body.data.charge).toBe((Number(await rateKoboOf(shop.serviceIds[FAKE.ytWatchTime])) / 100).toFixed(2));

    // Drip-feed: quantity per run × runs.
    expect((await order(FAKE.igLikes, { link: newLink(), quantity: 100, runs: 3 })).body.message).toBe('Interval is required for drip-feed');
    const drip = await order(FAKE.igLikes, { link: newLink(), quantity: 100, runs: 3, interval: 30 });
    expect(drip.status).toBe(201);
    expect(drip.body.data).toMatchObject({
      quantity: 100,
      runs: 3,
      interval: 30,
      charge: (Number(chargeOf(await rateKoboOf(shop.serviceIds[FAKE.igLikes]), 300)) / 100).toFixed(2),
    });

    // Subscriptions name a username; they are paid up front for max × posts, ten posts when the order does not say.
    const subscription = { username: 'brand', min: 100, max: 200, posts: 5, delay: 0 };
    const unsaid = await order(FAKE.igAutoLikes, { ...subscription, posts: undefined });
    expect(unsaid.status, JSON.stringify(unsaid.body)).toBe(201);
    expect(unsaid.body.data).toMatchObject({
      quantity: 200,
      charge: (Number(chargeOf(await rateKoboOf(shop.serviceIds[FAKE.igAutoLikes]), 200 * DEFAULT_SUBSCRIPTION_POSTS)) / 100).toFixed(2),
    });
    expect((await order(FAKE.igAutoLikes, { ...subscription, posts: 0 })).body.message).toMatch(/posts/);
    expect((await order(FAKE.igAutoLikes, { ...subscription, delay: 7 })).body.message).toMatch(/^delay must be one of 0, 5, 10/);
    expect((await order(FAKE.igAutoLikes, { ...subscription, min: 300 })).body.message).toBe('min cannot be more than max');
    const subscribed = await order(FAKE.igAutoLikes, subscription);
    expect(subscribed.status, JSON.stringify(subscribed.body)).toBe(201);
    expect(subscribed.body.data).toMatchObject({
      link: '@brand',
      quantity: 200,
      charge: (Number(chargeOf(await rateKoboOf(shop.serviceIds[FAKE.igAutoLikes]), 1000)) / 100).toFixed(2),
    });

    expect((await placeOrder(user, { serviceId: 99_999_999, link, quantity: 100 })).body.message).toBe('This service does not exist or is not available');
    expect((await placeOrder(user, { serviceId: 'abc', link, quantity: 100 })).body.message).toBe('This service does not exist or is not available');
    expect((await call('user/orders', { token: user.accessToken, body: '{"serviceId":', headers: { 'content-type': 'application/json' } })).body.message).toBe(
      'Malformed JSON body.',
    );
    // A bare host is read as https.
    const bare = await order(FAKE.igLikes, { link: 'instagram.com/p/bare-link', quantity: 100 });
    expect(bare.body.data.link).toBe('https://instagram.com/p/bare-link');
  });

  it('is for users only', async () => {
    const shop = await sharedShop();
    expect((await call('user/orders', { body: { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 100 } })).status).toBe(401);
    expect(
      (await call('user/orders', { token: shop.admin.accessToken, body: { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 100 } })).status,
    ).toBe(403);
  });
});

describe('when the provider fails', () => {
  it('refunds an order the provider refuses, exactly once', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    await shop.fake.post('/__control', { mode: 'fail' });
    const user = await fundedUser(1_000_000n);
    const response = await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({
      status: 'Canceled',
      statusReason: 'The provider refused the order: Service temporarily unavailable',
      canCancel: false,
    });
    expect(response.body.data.refunded).toBe(response.body.data.charge);
    await shop.fake.post('/__control', { mode: 'normal' });
    await Promise.all([withDb((db) => syncOrders(db, env)), withDb((db) => syncOrders(db, env))]);
    expect(await balanceKobo(user.id)).toBe(1_000_000n);
    const refunds = (await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order_refund');
    expect(refunds).toHaveLength(1);
    expect(await orderRow(response.body.data.id)).toMatchObject({ submission: 'rejected', status: 'Canceled' });
    expect(await withDb((db) => committedKobo(db, user.id))).toBe(0n);
  });

  it('never sends `add` twice for an order whose submission timed out, and lets an admin link it', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes], timeoutMs: 1000 });
    await shop.fake.post('/__control', { mode: 'accept_then_timeout' });
    const user = await fundedUser(1_000_000n);
    const link = newLink();
    const response = await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link, quantity: 1000 });
    expect(response.status).toBe(201);
    expect(response.body.data).toMatchObject({ status: 'Pending Submission', refunded: '0.00', canCancel: false });
    const orderId = response.body.data.id as number;
    expect(await orderRow(orderId)).toMatchObject({ submission: 'unknown', submitAttempts: 1 });
    await shop.fake.post('/__control', { mode: 'normal' });

    await Promise.all([withDb((db) => syncOrders(db, env)), withDb((db) => syncOrders(db, env))]);
    const token = shop.admin.accessToken;
    expect((await call('admin/orders/sync', { method: 'POST', token })).status).toBe(200);
    // It may be at the provider: the customer hears it was sent, and nothing is refunded.
    expect(await call(`user/orders/${orderId}/cancel`, { method: 'POST', token: user.accessToken })).toMatchObject({
      status: 409,
      body: { message: expect.stringMatching(/^This order has already been sent to the provider/) },
    });
    expect(await call(`admin/orders/${orderId}/resend`, { token, body: {} })).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^The provider may already have this order/) },
    });
    const fake = await fakeOrders(shop.fake);
    expect(fake.addCallsByLink[link]).toBe(1);
    expect(await orderRow(orderId)).toMatchObject({ submission: 'unknown', status: 'Pending Submission', submitAttempts: 1 });
    const warnings = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.orderId, orderId), eq(catalogueWarnings.kind, 'submission_unknown'))),
    );
    expect(warnings).toHaveLength(1);

    const providerOrder = fake.orders.find((order) => order.link === link)!;
    const linked = await call(`admin/orders/${orderId}/link`, { token, body: { providerOrderId: String(providerOrder.id) } });
    expect(linked.status, JSON.stringify(linked.body)).toBe(200);
    expect(linked.body.data).toMatchObject({ status: 'Pending', submission: 'accepted', providerOrderId: String(providerOrder.id) });
    expect(await call(`admin/orders/${orderId}/link`, { token, body: { providerOrderId: '1' } })).toMatchObject({ status: 400 });
    const audit = await auditEntries({ targetType: 'order', targetId: orderId });
    expect(audit.map((entry) => entry.action)).toEqual(['order.link']);
  });

  it("resends a timed-out order only on the administrator's word that the provider has none", async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes], timeoutMs: 1000 });
    await shop.fake.post('/__control', { mode: 'timeout' });
    const user = await fundedUser(1_000_000n);
    const link = newLink();
    const orderId = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link, quantity: 1000 })).body.data.id;
    expect(await orderRow(orderId)).toMatchObject({ submission: 'unknown' });
    await shop.fake.post('/__control', { mode: 'normal' });
    const resent = await call(`admin/orders/${orderId}/resend`, { token: shop.admin.accessToken, body: { confirmNotAtProvider: true } });
    expect(resent.status, JSON.stringify(resent.body)).toBe(200);
    expect(resent.body.data).toMatchObject({ status: 'Pending', submission: 'accepted', submitAttempts: 2 });
    expect((await fakeOrders(shop.fake)).orders.filter((order) => order.link === link)).toHaveLength(1);
  });

  it('holds orders the provider cannot pay for, then sends them when it can', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    await shop.fake.post('/__control', { mode: 'no_balance' });
    const user = await fundedUser(1_000_000n);
    const response = await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 });
    expect(response.body.data).toMatchObject({
      status: 'Pending Submission',
      canCancel: true,
      statusReason: 'Waiting for the provider to accept orders again',
    });
    const orderId = response.body.data.id;
    expect(await orderRow(orderId)).toMatchObject({ submission: 'queued', submissionError: 'Not enough funds on balance' });
    const warnings = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.providerId, shop.providerId), eq(catalogueWarnings.kind, 'provider_low_balance'))),
    );
    expect(warnings).toHaveLength(1);
    expect(await withDb((db) => committedKobo(db, user.id))).toBeGreaterThan(0n);

    await shop.fake.post('/__control', { mode: 'normal' });
    const resent = await call(`admin/orders/${orderId}/resend`, { token: shop.admin.accessToken, body: {} });
    expect(resent.body.data).toMatchObject({ status: 'Pending', submission: 'accepted' });
  });
});

describe("the user's orders", () => {
  it('finds "#id" (what a ticket\'s View order opens) as that order alone, where the bare number also finds links holding it', async () => {
    const shop = await sharedShop();
    const user = await fundedUser(100_000_000n);
    const order = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 100 })).body.data;
    const sameDigits = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: `${newLink()}${order.id}`, quantity: 100 })).body
      .data;
    const ids = async (search: string, account = user) =>
      ((await call(`user/orders?search=${encodeURIComponent(search)}`, { token: account.accessToken })).body.data as Array<{ id: number }>)
        .map((o) => o.id)
        .sort((a, b) => a - b);
    expect(await ids(String(order.id))).toEqual([order.id, sameDigits.id]);
    expect(await ids(`#${order.id}`)).toEqual([order.id]);
    expect(await ids(`  #${order.id} `)).toEqual([order.id]);
    // Someone else's order is not found by its id.
    expect(await ids(`#${order.id}`, await registerAndLogin())).toEqual([]);
  });

  it("lists with pagination, status filter and search, and hides other users' orders", async () => {
    const shop = await sharedShop();
    const user = await fundedUser(100_000_000n);
    const links = [newLink(), newLink(), newLink()];
    const placed = [];
    // Submitted, so each reads Pending rather than Pending Submission.
    for (const link of links) placed.push((await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link, quantity: 100 })).body.data);
    const page = await call('user/orders?limit=2', { token: user.accessToken });
    expect(page.body).toMatchObject({ page: 1, limit: 2, total: 3 });
    expect(page.body.data.map((order: { id: number }) => order.id)).toEqual([placed[2].id, placed[1].id]);
    expect(Object.keys(page.body.data[0]).sort()).toEqual([
      'canCancel',
      'canRefill',
      'charge',
      'confirmationExpectedBy',
      'created_at',
      'delivered',
      'id',
      'interval',
      'link',
      'posts',
      'quantity',
      'refillUntil',
      'refunded',
      'remains',
      'runs',
      'serviceId',
      'serviceName',
      'startCount',
      'status',
      'statusReason',
      'total',
      'updated_at',
    ]);
    expect(
      (await call(`user/orders?search=${encodeURIComponent(links[1].slice(-12))}`, { token: user.accessToken })).body.data.map((o: { id: number }) => o.id),
    ).toEqual([placed[1].id]);
    // "#id" is that order alone (a bare number also finds the links holding those digits: the test above).
    expect((await call(`user/orders?search=%23${placed[0].id}`, { token: user.accessToken })).body.data.map((o: { id: number }) => o.id)).toEqual([
      placed[0].id,
    ]);
    expect((await call('user/orders?status=Pending', { token: user.accessToken })).body.total).toBe(3);
    expect((await call('user/orders?status=Completed', { token: user.accessToken })).body.total).toBe(0);
    expect(await call('user/orders?status=Done', { token: user.accessToken })).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^status must be one of/) },
    });
    expect((await call('user/orders?page=3&limit=2', { token: user.accessToken })).body).toMatchObject({ data: [], total: 3 });

    const stranger = await registerAndLogin();
    expect((await call(`user/orders/${placed[0].id}`, { token: stranger.accessToken })).status).toBe(404);
    expect((await call(`user/orders/${placed[0].id}/cancel`, { method: 'POST', token: stranger.accessToken })).status).toBe(404);
    expect((await call('user/orders', { token: stranger.accessToken })).body.total).toBe(0);
    expect((await call('user/orders/abc', { token: user.accessToken })).status).toBe(400);

    const detail = await withDb((db) => ordersForUserDetail(db, user.id));
    expect(detail[0]).toEqual({
      id: placed[2].id,
      productTitle: placed[2].serviceName,
      productLink: links[2],
      quantity: 100,
      price: placed[2].charge,
      smmStatus: { status: 'Pending' },
      created_at: placed[2].created_at,
      orderDate: placed[2].created_at,
    });
    expect(detail).toHaveLength(3);
  });

  it('cancels a held order at once with a full refund', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    await shop.fake.post('/__control', { mode: 'no_balance' });
    const user = await fundedUser(1_000_000n);
    const orderId = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data.id;
    const canceled = await call(`user/orders/${orderId}/cancel`, { method: 'POST', token: user.accessToken });
    expect(canceled.body).toMatchObject({ message: 'Order canceled and refunded', data: { status: 'Canceled', canCancel: false } });
    expect(await balanceKobo(user.id)).toBe(1_000_000n);
    expect(await orderRow(orderId)).toMatchObject({ submission: 'withdrawn' });
    expect((await call(`user/orders/${orderId}/cancel`, { method: 'POST', token: user.accessToken })).status).toBe(400);
  });

  it('forwards a cancel to the provider; the refund follows the sync', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes] });
    const user = await fundedUser(10_000_000n);
    const order = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 })).body.data;
    const requested = await call(`user/orders/${order.id}/cancel`, { method: 'POST', token: user.accessToken });
    expect(requested.body).toMatchObject({
      message: 'Cancellation requested; the refund follows when the provider confirms it',
      data: { status: 'Pending', canCancel: false },
    });
    await withDb((db) => syncOrders(db, env));
    const after = (await call(`user/orders/${order.id}`, { token: user.accessToken })).body.data;
    expect(after).toMatchObject({ status: 'Canceled', refunded: order.charge, statusReason: 'Canceled at the provider on request' });
    expect(await balanceKobo(user.id)).toBe(10_000_000n);

    const noCancel = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;
    expect(noCancel.canCancel).toBe(false);
    expect(await call(`user/orders/${noCancel.id}/cancel`, { method: 'POST', token: user.accessToken })).toMatchObject({
      status: 400,
      body: { message: 'This order cannot be canceled' },
    });
  });

  it('requests a refill of a completed order once at a time, and tracks it', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(10_000_000n);
    const order = (await placeOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 })).body.data;
    expect(await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken })).toMatchObject({
      status: 400,
      body: { message: 'Only completed or partial orders can be refilled' },
    });
    // The queue sends it to the provider after the answer: only then has it a provider order id.
    const { providerOrderId } = await untilSubmitted(order.id);
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Completed', remains: 0 });
    await withDb((db) => syncOrders(db, env));
    expect((await call(`user/orders/${order.id}`, { token: user.accessToken })).body.data).toMatchObject({
      status: 'Completed',
      canRefill: true,
      refunded: '0.00',
    });
    const refill = await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken });
    expect(refill.status, JSON.stringify(refill.body)).toBe(200);
    expect(refill.body.data).toMatchObject({ status: 'Pending', order: { canRefill: false } });
    expect(await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken })).toMatchObject({
      status: 409,
      body: { message: 'A refill is already in progress for this order' },
    });
    await shop.fake.post('/__control', { stepMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 10));
    await withDb((db) => syncOrders(db, env));
    const detail = await call(`admin/orders/${order.id}`, { token: shop.admin.accessToken });
    expect(detail.body.data.refills).toEqual([expect.objectContaining({ status: 'Completed' })]);
    expect(detail.body.data.canRefill).toBe(true);
  });

  it("stops refills at the service's cap, set by an administrator, counting only those the provider took", async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const serviceId = shop.serviceIds[FAKE.igFollowers];
    expect((await call(`admin/services/${serviceId}`, { token: shop.admin.accessToken })).body.data).toMatchObject({ maxRefills: 3 });
    const capped = await call(`admin/services/${serviceId}`, { method: 'PUT', token: shop.admin.accessToken, body: { maxRefills: 2 } });
    expect(capped.body.data).toMatchObject({ maxRefills: 2 });
    expect((await call(`admin/services/${serviceId}`, { method: 'PUT', token: shop.admin.accessToken, body: { maxRefills: 0 } })).body.message).toBe(
      'maxRefills must be at least 1',
    );
    const user = await fundedUser(10_000_000n);
    const order = (await placeOrder(user, { serviceId, link: newLink(), quantity: 1000 })).body.data;
    const { providerOrderId } = await untilSubmitted(order.id);
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Completed', remains: 0 });
    await withDb((db) => syncOrders(db, env));
    await shop.fake.post('/__control', { stepMs: 1 });
    const refillAndFinish = async () => {
      const refill = await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken });
      expect(refill.status, JSON.stringify(refill.body)).toBe(200);
      // Settled once none is still open at the provider (the refused one stays refused).
      const settled = async () => {
        await withDb((db) => syncOrders(db, env));
        const { refills } = (await call(`admin/orders/${order.id}`, { token: shop.admin.accessToken })).body.data;
        return refills.every((r: { status: string }) => r.status === 'Completed' || r.status === 'Rejected');
      };
      await expect.poll(settled, { timeout: 20_000 }).toBe(true);
    };
    // A refill the provider refused does not count against the cap.
    await withDb((db) => db.insert(orderRefills).values({ orderId: order.id, requestedBy: user.id, status: 'Rejected', error: 'Not possible now' }));
    await refillAndFinish();
    expect((await call(`user/orders/${order.id}`, { token: user.accessToken })).body.data.canRefill).toBe(true);
    await refillAndFinish();
    expect((await call(`user/orders/${order.id}`, { token: user.accessToken })).body.data.canRefill).toBe(false);
    expect(await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken })).toMatchObject({
      status: 400,
      body: { message: 'This order has had every refill its service allows.' },
    });
  });

  it('takes a mass order line by line', async () => {
    const shop = await sharedShop();
    const likes = shop.serviceIds[FAKE.igLikes];
    const charge = chargeOf(await rateKoboOf(likes), 100);
    const user = await fundedUser(charge * 2n);
    const text = [
      `${likes}|${newLink()}|100`,
      '',
      `${likes}|${newLink()}|10`,
      'garbage',
      `${likes}|${newLink()}|100`,
      `${likes}|${newLink()}|100`,
      `99999999|${newLink()}|100`,
    ].join('\n');
    const response = await call('user/mass-order', { token: user.accessToken, body: { orders: text }, headers: { 'idempotency-key': unique('mass') } });
    expect(response.status).toBe(200);
    expect(response.body.results).toEqual([
      { line: 1, ok: true, orderId: expect.any(Number) },
      { line: 3, ok: false, error: 'Minimum quantity is 50' },
      { line: 4, ok: false, error: 'Use the format serviceId|link|quantity' },
      { line: 5, ok: true, orderId: expect.any(Number) },
      { line: 6, ok: false, error: 'Insufficient wallet balance' },
      { line: 7, ok: false, error: 'This service does not exist or is not available' },
    ]);
    expect(await balanceKobo(user.id)).toBe(0n);
    expect((await call('user/mass-order', { token: user.accessToken, body: { orders: '' } })).body.message).toBe('Enter at least one order');
  });
});

describe('administrators and orders', () => {
  it('lists orders with filters, sets statuses with the automatic refund once, and audits it', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const token = shop.admin.accessToken;
    const user = await fundedUser(10_000_000n);
    const first = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;
    const second = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;

    const listed = await call(`admin/orders?userId=${user.id}&providerId=${shop.providerId}&status=Pending&limit=10`, { token });
    expect(listed.body).toMatchObject({ total: 2, page: 1, limit: 10 });
    expect(listed.body.data[0]).toMatchObject({ id: second.id, userId: user.id, userEmail: user.email, submission: 'accepted', providerId: shop.providerId });
    const today = new Date().toISOString().slice(0, 10);
    expect((await call(`admin/orders?userId=${user.id}&from=${today}`, { token })).body.total).toBe(2);
    expect((await call(`admin/orders?userId=${user.id}&to=2000-01-01`, { token })).body.total).toBe(0);
    expect(await call('admin/orders?from=yesterday', { token })).toMatchObject({ status: 400, body: { message: 'from must be a date (YYYY-MM-DD)' } });

    const charge = BigInt(Math.round(Number(first.charge) * 100));
    const partial = await call(`admin/orders/${first.id}/status`, { token, body: { status: 'Partial', remains: 333, reason: 'checked by hand' } });
    expect(partial.status, JSON.stringify(partial.body)).toBe(200);
    expect(partial.body.data).toMatchObject({ status: 'Partial', remains: 333, refunded: (Number((charge * 333n) / 1000n) / 100).toFixed(2) });
    expect(await call(`admin/orders/${first.id}/status`, { token, body: { status: 'Canceled' } })).toMatchObject({
      status: 400,
      body: { message: 'This order is closed and its refund settled; its status cannot change' },
    });
    expect(await call(`admin/orders/${first.id}/status`, { token, body: { status: 'Partial' } })).toMatchObject({
      status: 400,
      body: { message: 'remains is required for Partial' },
    });

    expect((await call(`admin/orders/${second.id}/status`, { token, body: { status: 'In progress' } })).body.data.status).toBe('In progress');
    expect((await call(`admin/orders/${second.id}/status`, { token, body: { status: 'Completed' } })).body.data.status).toBe('Completed');
    const canceled = await call(`admin/orders/${second.id}/status`, { token, body: { status: 'Canceled', reason: 'never delivered' } });
    expect(canceled.body.data).toMatchObject({ status: 'Canceled', refunded: second.charge });

    const refunds = (await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order_refund');
    expect(refunds.map((entry) => [entry.sourceRef, entry.amountKobo])).toEqual(
      expect.arrayContaining([
        [String(first.id), (charge * 333n) / 1000n],
        [String(second.id), BigInt(Math.round(Number(second.charge) * 100))],
      ]),
    );
    expect(refunds).toHaveLength(2);
    const audits = await auditEntries({ actorId: shop.admin.id, action: 'order.status' });
    expect(audits).toHaveLength(4);
    expect(audits.find((entry) => entry.targetId === String(first.id))?.details).toMatchObject({
      from: 'Pending',
      to: 'Partial',
      refundedKobo: String((charge * 333n) / 1000n),
    });
  });
});

let shared: Awaited<ReturnType<typeof newShop>> | undefined;
/** One provider for the tests that do not change its behaviour. */
async function sharedShop() {
  shared ??= await newShop();
  return shared;
}
