// A customer canceling an order still queued with us (say its provider is out of balance): the
// money comes back at once and exactly once, the order is withdrawn so the submissions queue
// never sends it, and a cancel that meets the queue's claim of the order has one winner. The
// administrator reads who canceled an order.
import { env, SELF } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import { orders } from '../../../drizzle/schema';
import { submitOrder } from '../../../worker/services/orders/order-sending';
import { consumeSubmissions } from '../../../worker/services/orders/order-submissions';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { call, createAdmin, type TestAccount, withDb } from '../../support/api';
import { fakeOrders, newLink, orderRow, placeOrder, placeSubmittedOrder, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, newShop, type Shop, shopSelling } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const ALREADY_SENT =
  'This order has already been sent to the provider, so it can no longer be canceled at once. Once the provider has it, you can ask for a cancel if the service allows one.';
const refundsOf = async (userId: number) => (await ledgerFor(userId)).filter((entry) => entry.sourceKind === 'order_refund');
const cancel = (user: TestAccount, orderId: number) => call(`user/orders/${orderId}/cancel`, { method: 'POST', token: user.accessToken });

/** A shop whose provider is out of balance (so orders wait queued with us), and a user with `funded` kobo. */
async function shopOutOfBalance(fake: string, walletKobo?: bigint) {
  const selling = await shopSelling(fake, { walletKobo });
  await selling.shop.fake.post('/__control', { mode: 'no_balance' });
  return selling;
}

/** An order held with us: its provider refused it for lack of balance, so it waits queued, paid. */
async function heldOrder(shop: Shop, user: TestAccount, fake: string = FAKE.igFollowers) {
  const link = newLink();
  const placed = await placeOrder(user, { serviceId: shop.serviceIds[fake], link, quantity: 1000 });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  expect(await untilSubmitted(placed.body.data.id)).toMatchObject({ status: 'Pending Submission', submission: 'queued' });
  return { id: placed.body.data.id as number, link, chargeKobo: (await orderRow(placed.body.data.id)).chargeKobo };
}

/** The queue delivering the order's message to the consumer, as it may after the cancel. */
async function deliverSubmission(orderId: number) {
  const message = { id: String(orderId), timestamp: new Date(), attempts: 1, body: { orderId }, ack: vi.fn(), retry: vi.fn() };
  await consumeSubmissions(
    { queue: 'smm-order-submissions', messages: [message], ackAll: vi.fn(), retryAll: vi.fn() } as unknown as MessageBatch<unknown>,
    env,
  );
  return message;
}

describe('a customer canceling an order still queued with us', () => {
  it('refunds it at once, exactly once, and the queue never sends it, even when its message is delivered afterwards', async () => {
    const { shop, user, funded } = await shopOutOfBalance(FAKE.igFollowers);
    const order = await heldOrder(shop, user);
    const view = (await call(`user/orders/${order.id}`, { token: user.accessToken })).body.data;
    expect(view).toMatchObject({ status: 'Pending Submission', canCancel: true });

    const canceled = await cancel(user, order.id);
    expect(canceled).toMatchObject({
      status: 200,
      body: {
        message: 'Order canceled and refunded',
        data: { status: 'Canceled', canCancel: false, statusReason: 'Canceled on request before it reached the provider' },
      },
    });
    expect(await balanceKobo(user.id)).toBe(funded);
    expect(await orderRow(order.id)).toMatchObject({ submission: 'withdrawn', refundedKobo: order.chargeKobo });

    // The provider can take orders again, and the order's message (or the sweep) arrives: nothing is sent.
    await shop.fake.post('/__control', { mode: 'normal' });
    const addCalls = (await fakeOrders(shop.fake)).addCallsByLink[order.link];
    expect((await deliverSubmission(order.id)).ack).toHaveBeenCalled();
    await withDb((db) => submitOrder(db, env, order.id));
    await withDb((db) => syncOrders(db, env));
    const fake = await fakeOrders(shop.fake);
    expect(fake.addCallsByLink[order.link]).toBe(addCalls);
    expect(fake.orders.filter((entry) => entry.link === order.link)).toEqual([]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'Canceled', submission: 'withdrawn' });

    expect(await cancel(user, order.id)).toMatchObject({ status: 400, body: { message: 'This order cannot be canceled' } });
    expect((await refundsOf(user.id)).map((entry) => [entry.sourceRef, entry.amountKobo])).toEqual([[String(order.id), order.chargeKobo]]);
    expect(await balanceKobo(user.id)).toBe(funded);
  });

  it('answers 409 for an order the queue has claimed and is sending, and refunds nothing', async () => {
    const { shop, user, funded } = await shopOutOfBalance(FAKE.igFollowers);
    const order = await heldOrder(shop, user);
    // The consumer's claim, as submitOrder makes it before calling the provider.
    await withDb((db) => db.update(orders).set({ submission: 'sending' }).where(eq(orders.id, order.id)));

    expect(await cancel(user, order.id)).toMatchObject({ status: 409, body: { message: ALREADY_SENT, error: 'Conflict' } });
    expect(await orderRow(order.id)).toMatchObject({ status: 'Pending Submission', submission: 'sending', refundedKobo: 0n });
    expect(await refundsOf(user.id)).toEqual([]);
    expect(await balanceKobo(user.id)).toBe(funded - order.chargeKobo);
  });

  it('has one winner when the cancel and the queue claim the order at the same moment: refunded and never sent, or sent and not refunded', async () => {
    const { shop, user, funded } = await shopOutOfBalance(FAKE.igLikes, 100_000_000n);
    const held = [];
    for (let i = 0; i < 6; i += 1) held.push(await heldOrder(shop, user, FAKE.igLikes));
    await shop.fake.post('/__control', { mode: 'normal' });

    const answers = await Promise.all(
      held.map(async (order) => {
        const [answer] = await Promise.all([cancel(user, order.id), withDb((db) => submitOrder(db, env, order.id))]);
        return answer;
      }),
    );

    const fake = await fakeOrders(shop.fake);
    const refunds = await refundsOf(user.id);
    let kept = 0n;
    for (const [index, order] of held.entries()) {
      const row = await orderRow(order.id);
      const sent = fake.orders.filter((entry) => entry.link === order.link);
      const refunded = refunds.filter((entry) => entry.sourceRef === String(order.id));
      if (answers[index].status === 200) {
        expect(row).toMatchObject({ status: 'Canceled', submission: 'withdrawn', refundedKobo: order.chargeKobo });
        expect(sent).toEqual([]);
        expect(refunded).toHaveLength(1);
      } else {
        // The queue won, and this service takes no cancels at the provider: a cancel that met the claim hears
        // the order was sent, one that came after the provider had it hears it cannot be canceled.
        expect([
          [409, ALREADY_SENT],
          [400, 'This order cannot be canceled'],
        ]).toContainEqual([answers[index].status, answers[index].body.message]);
        expect(row).toMatchObject({ status: 'Pending', submission: 'accepted', refundedKobo: 0n });
        expect(sent).toHaveLength(1);
        expect(refunded).toEqual([]);
        kept += order.chargeKobo;
      }
    }
    expect(await balanceKobo(user.id)).toBe(funded - kept);
  });

  it('is open to the reseller API too', async () => {
    const { shop, user, funded } = await shopOutOfBalance(FAKE.igLikes);
    const order = await heldOrder(shop, user, FAKE.igLikes);
    const created = await call('user/api-keys', { token: user.accessToken, body: { name: 'tool' } });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const answer = await SELF.fetch('http://shop.test/api/v2', {
      method: 'POST',
      body: new URLSearchParams({ key: created.body.data.key, action: 'cancel', orders: String(order.id) }),
    });
    expect(await answer.json()).toEqual([{ order: order.id, cancel: 1 }]);
    expect(await orderRow(order.id)).toMatchObject({ status: 'Canceled', submission: 'withdrawn' });
    expect(await balanceKobo(user.id)).toBe(funded);
  });
});

describe('who canceled an order, as the administrator reads it', () => {
  const canceledBy = async (shop: Shop, orderId: number) => (await call(`admin/orders/${orderId}`, { token: shop.admin.accessToken })).body.data.canceledBy;

  it('tells the customer, an administrator by name, the provider and the shop apart', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(100_000_000n);
    const atProvider = async () =>
      (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 })).body.data.id as number;

    // The customer asks the provider to cancel; the provider confirms.
    const askedByCustomer = await atProvider();
    expect((await cancel(user, askedByCustomer)).status).toBe(200);
    // An administrator cancels one; the provider cancels another on its own.
    const askedByAdmin = await atProvider();
    const admin = await createAdmin();
    expect((await call(`admin/orders/${askedByAdmin}/cancel`, { token: admin.accessToken, body: { reason: 'duplicate' } })).status).toBe(200);
    const byProvider = await atProvider();
    await shop.fake.post(`/__orders/${(await orderRow(byProvider)).providerOrderId}`, { status: 'Canceled' });
    const stillOpen = await atProvider();
    await withDb((db) => syncOrders(db, env));

    expect(await orderRow(askedByCustomer)).toMatchObject({ status: 'Canceled', statusReason: 'Canceled at the provider on request' });
    expect(await canceledBy(shop, askedByCustomer)).toEqual({ by: 'customer' });
    expect(await canceledBy(shop, askedByAdmin)).toEqual({ by: 'administrator', name: 'Test Admin' });
    expect(await orderRow(byProvider)).toMatchObject({ status: 'Canceled', statusReason: 'Canceled by the provider' });
    expect(await canceledBy(shop, byProvider)).toEqual({ by: 'provider' });
    expect(await canceledBy(shop, stillOpen)).toBeNull();

    // Orders queued with us: one withdrawn by the customer, one no provider took within a day, which the shop withdraws.
    await shop.fake.post('/__control', { mode: 'no_balance' });
    const withdrawn = await heldOrder(shop, user);
    expect((await cancel(user, withdrawn.id)).status).toBe(200);
    expect(await canceledBy(shop, withdrawn.id)).toEqual({ by: 'customer' });
    const tooLong = await heldOrder(shop, user);
    await withDb((db) => db.update(orders).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(orders.id, tooLong.id)));
    await withDb((db) => syncOrders(db, env));
    expect(await orderRow(tooLong.id)).toMatchObject({ status: 'Canceled', submission: 'withdrawn' });
    expect(await canceledBy(shop, tooLong.id)).toEqual({ by: 'shop' });
  });
});
