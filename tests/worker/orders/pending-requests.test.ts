// Refills and cancels asked of the provider and not answered yet (issue 27, refill and cancel rules): the customer's order
// view says "Refill requested" / "Cancel requested" and the reseller API's `status` adds `request` beside its protocol
// fields, the status word staying one of the six, until the provider answers; and `cancel`, over the API as in the SPA,
// refuses what the service or the order no longer allows. Once the provider has answered a refill, the customer's view keeps
// how it ended (`refillOutcome`, issue 28), read in the same statement as the order; the reseller API's answers stay as pinned.
import { env, SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { getOrderRows, getOrderView, listUserOrders } from '../../../worker/services/orders/order-views';
import { call, countingRoundTrips, type TestAccount, withDb } from '../../support/api';
import { orderRow, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, newShopWithOrder, type Shop } from '../fixtures/shop-fixtures';

const PROTOCOL_WORDS = ['Pending', 'In progress', 'Processing', 'Completed', 'Partial', 'Canceled'];
const CANNOT_CANCEL = 'This order cannot be canceled';

/** One /api/v2 call as a reseller tool posts it (form fields). */
async function v2(fields: Record<string, string | number>) {
  const body = new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)]));
  const response = await SELF.fetch('http://shop.test/api/v2', { method: 'POST', body });
  return JSON.parse(await response.text());
}

async function apiKeyOf(user: TestAccount): Promise<string> {
  const created = await call('user/api-keys', { token: user.accessToken, body: { name: 'Reseller tool' } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data.key;
}

const orderView = async (user: TestAccount, orderId: number) => (await call(`user/orders/${orderId}`, { token: user.accessToken })).body.data;
const listed = async (user: TestAccount, orderId: number) =>
  (await call('user/orders', { token: user.accessToken })).body.data.find((order: { id: number }) => order.id === orderId);
const spaCancel = (user: TestAccount, orderId: number) => call(`user/orders/${orderId}/cancel`, { method: 'POST', token: user.accessToken });

/** The fake panel finishes the order and the shop reads it. */
async function completeAtProvider(shop: Shop, orderId: number) {
  const { providerOrderId } = await untilSubmitted(orderId);
  await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Completed', remains: 0 });
  await withDb((db) => syncOrders(db, env));
}

describe('a cancel asked of the provider', () => {
  it('reads "Cancel requested" beside a protocol status until the provider confirms, then only the outcome', async () => {
    const { user, order } = await newShopWithOrder(FAKE.igFollowers);
    const key = await apiKeyOf(user);
    expect(order).toMatchObject({ canCancel: true });
    expect(order).not.toHaveProperty('pendingRequest');

    expect(await v2({ key, action: 'cancel', orders: order.id })).toEqual([{ order: order.id, cancel: 1 }]);

    const single = await v2({ key, action: 'status', order: order.id });
    expect(PROTOCOL_WORDS.slice(0, 2)).toContain(single.status);
    expect(single).toEqual({
      charge: order.charge,
      start_count: expect.any(String),
      status: single.status,
      remains: expect.any(String),
      currency: 'NGN',
      request: 'Cancel requested',
    });
    expect((await v2({ key, action: 'status', orders: String(order.id) }))[order.id]).toMatchObject({ status: single.status, request: 'Cancel requested' });
    expect(await orderView(user, order.id)).toMatchObject({ status: 'Pending', pendingRequest: 'Cancel requested', canCancel: false });
    expect(await listed(user, order.id)).toMatchObject({ pendingRequest: 'Cancel requested', canCancel: false });
    // Read with the rest of the view: still one round trip per read.
    expect(await countingRoundTrips((db) => getOrderView(db, user.id, order.id))).toMatchObject({
      httpCalls: 1,
      result: { pendingRequest: 'Cancel requested' },
    });
    expect(await countingRoundTrips((db) => getOrderRows(db, user.id, [order.id]))).toMatchObject({ httpCalls: 1 });

    // Asked once is enough, on either path.
    expect(await v2({ key, action: 'cancel', orders: order.id })).toEqual([{ order: order.id, cancel: { error: CANNOT_CANCEL } }]);
    expect(await spaCancel(user, order.id)).toMatchObject({ status: 400, body: { message: CANNOT_CANCEL } });

    await withDb((db) => syncOrders(db, env));
    const settled = await v2({ key, action: 'status', order: order.id });
    expect(settled).toMatchObject({ status: 'Canceled', charge: '0.00' });
    expect(settled).not.toHaveProperty('request');
    const view = await orderView(user, order.id);
    expect(view).toMatchObject({ status: 'Canceled', canCancel: false });
    expect(view).not.toHaveProperty('pendingRequest');
    // Closed: refused on both paths.
    expect(await v2({ key, action: 'cancel', orders: order.id })).toEqual([{ order: order.id, cancel: { error: CANNOT_CANCEL } }]);
    expect(await spaCancel(user, order.id)).toMatchObject({ status: 400, body: { message: CANNOT_CANCEL } });
  });

  it('shows nothing requested when the provider refuses the cancel at once', async () => {
    const { user, order } = await newShopWithOrder(FAKE.igFollowers, { control: { faults: { cancelRefusal: { rate: 1 } } } });
    const key = await apiKeyOf(user);
    const [answer] = await v2({ key, action: 'cancel', orders: order.id });
    expect(answer.cancel.error).toMatch(/^The provider refused to cancel this order/);
    expect(await v2({ key, action: 'status', order: order.id })).not.toHaveProperty('request');
    expect(await orderView(user, order.id)).toMatchObject({ canCancel: true });
    expect(await orderView(user, order.id)).not.toHaveProperty('pendingRequest');
  });
});

describe('cancel where the service allows none', () => {
  it('is neither offered nor taken once the provider has the order, over the API or in the SPA; a closed one neither', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igLikes);
    const key = await apiKeyOf(user);
    expect(order).toMatchObject({ status: 'Pending', canCancel: false });
    expect(await v2({ key, action: 'cancel', orders: order.id })).toEqual([{ order: order.id, cancel: { error: CANNOT_CANCEL } }]);
    expect(await v2({ key, action: 'cancel', order: order.id })).toEqual([{ order: order.id, cancel: { error: CANNOT_CANCEL } }]);
    expect(await spaCancel(user, order.id)).toMatchObject({ status: 400, body: { message: CANNOT_CANCEL } });
    expect((await orderRow(order.id)).cancelRequestedAt).toBeNull();
    expect(await v2({ key, action: 'status', order: order.id })).not.toHaveProperty('request');

    await completeAtProvider(shop, order.id);
    expect(await v2({ key, action: 'cancel', orders: order.id })).toEqual([{ order: order.id, cancel: { error: CANNOT_CANCEL } }]);
    expect(await spaCancel(user, order.id)).toMatchObject({ status: 400, body: { message: CANNOT_CANCEL } });
  });
});

describe('a refill asked of the provider', () => {
  it('reads "Refill requested" beside Completed until the provider finishes it, and no second refill is offered meanwhile', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers);
    const key = await apiKeyOf(user);
    await completeAtProvider(shop, order.id);
    expect(await orderView(user, order.id)).toMatchObject({ status: 'Completed', canRefill: true });

    expect(await v2({ key, action: 'refill', order: order.id })).toEqual({ refill: expect.stringMatching(/^\d+$/) });
    expect(await v2({ key, action: 'status', order: order.id })).toMatchObject({ status: 'Completed', request: 'Refill requested' });
    expect((await v2({ key, action: 'status', orders: String(order.id) }))[order.id]).toMatchObject({ status: 'Completed', request: 'Refill requested' });
    expect(await orderView(user, order.id)).toMatchObject({ status: 'Completed', pendingRequest: 'Refill requested', canRefill: false, canCancel: false });
    expect(await listed(user, order.id)).toMatchObject({ pendingRequest: 'Refill requested', canRefill: false });

    // The fake panel finishes refills step by step; the sync reads the end.
    await shop.fake.post('/__control', { stepMs: 1 });
    const answered = async () => {
      await withDb((db) => syncOrders(db, env));
      return 'request' in (await v2({ key, action: 'status', order: order.id }));
    };
    await expect.poll(answered, { timeout: 20_000 }).toBe(false);
    expect(await v2({ key, action: 'status', order: order.id })).toMatchObject({ status: 'Completed' });
    const view = await orderView(user, order.id);
    expect(view).toMatchObject({ status: 'Completed', canRefill: true });
    expect(view).not.toHaveProperty('pendingRequest');
  });
});

describe("a refill's outcome on the order", () => {
  const refillOutcome = (view: { refillOutcome?: unknown }) => view.refillOutcome;

  it('keeps "Completed" and when once the provider finishes the refill, in the list and the single read, each still one round trip', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers);
    const key = await apiKeyOf(user);
    await completeAtProvider(shop, order.id);
    // No refill yet: nothing new in the view.
    expect(await orderView(user, order.id)).not.toHaveProperty('refillOutcome');

    const asked = await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken });
    expect(asked.status, JSON.stringify(asked.body)).toBe(200);
    // Open: that shows as pendingRequest, not as an outcome.
    expect(await orderView(user, order.id)).toMatchObject({ pendingRequest: 'Refill requested' });
    expect(await orderView(user, order.id)).not.toHaveProperty('refillOutcome');

    await shop.fake.post('/__control', { stepMs: 1 });
    const finished = async () => {
      await withDb((db) => syncOrders(db, env));
      return refillOutcome(await orderView(user, order.id)) !== undefined;
    };
    await expect.poll(finished, { timeout: 20_000 }).toBe(true);

    const view = await orderView(user, order.id);
    expect(view).toMatchObject({ status: 'Completed', canRefill: true, refillOutcome: { status: 'Completed', reason: null } });
    expect(view).not.toHaveProperty('pendingRequest');
    expect(Object.keys(view.refillOutcome).sort()).toEqual(['at', 'reason', 'status']);
    expect(new Date(view.refillOutcome.at).toISOString()).toBe(view.refillOutcome.at);
    expect(Date.now() - Date.parse(view.refillOutcome.at)).toBeLessThan(5 * 60_000);
    expect(await listed(user, order.id)).toMatchObject({ refillOutcome: view.refillOutcome });

    // Read in the same statement as the rest of the view: still one round trip for the list (page and count in one batch) and a read.
    const list = await countingRoundTrips((db) => listUserOrders(db, user.id, { page: 1, limit: 20 }));
    expect(list).toMatchObject({ httpCalls: 1, webSockets: 0 });
    expect(list.result.data.find((o) => o.id === order.id)).toMatchObject({ refillOutcome: { status: 'Completed' } });
    expect(await countingRoundTrips((db) => getOrderView(db, user.id, order.id))).toMatchObject({
      httpCalls: 1,
      result: { refillOutcome: { status: 'Completed' } },
    });

    // The reseller API's status answers are its protocol fields alone, as before.
    const status = await v2({ key, action: 'status', order: order.id });
    expect(status).toEqual({ charge: order.charge, start_count: expect.any(String), status: 'Completed', remains: expect.any(String), currency: 'NGN' });
    expect(Object.keys((await v2({ key, action: 'status', orders: String(order.id) }))[order.id]).sort()).toEqual([
      'charge',
      'currency',
      'remains',
      'start_count',
      'status',
    ]);
  });

  it('keeps "Rejected" with the provider\'s reason when the provider refuses the refill', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers);
    const key = await apiKeyOf(user);
    await completeAtProvider(shop, order.id);
    await shop.fake.post('/__control', { faults: { refillRefusal: { rate: 1 } } });

    const refused = await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken });
    expect(refused).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^The provider refused the refill: /) } });
    const reason = refused.body.message.replace('The provider refused the refill: ', '');
    expect(reason).not.toBe('');

    const view = await orderView(user, order.id);
    expect(view).toMatchObject({ status: 'Completed', refillOutcome: { status: 'Rejected', reason } });
    expect(view).not.toHaveProperty('pendingRequest');
    expect(await listed(user, order.id)).toMatchObject({ refillOutcome: { status: 'Rejected', reason } });
    expect(await v2({ key, action: 'status', order: order.id })).not.toHaveProperty('refillOutcome');
  });
});
