import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders } from '../../../drizzle/schema';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { auditEntries, call, withDb } from '../../support/api';
import { newLink, orderRow, placeSubmittedOrder } from '../fixtures/order-fixtures';
import { FAKE, newShop, newShopWithOrder } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const refundsOf = async (userId: number) => (await ledgerFor(userId)).filter((entry) => entry.sourceKind === 'order_refund');
const auditsOf = (orderId: number) => auditEntries({ targetType: 'order', targetId: orderId });

describe('an administrator canceling an order', () => {
  it('refunds an order still queued with us at once', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igLikes, { walletKobo: 1_000_000n, control: { mode: 'no_balance' } });
    expect(await orderRow(order.id)).toMatchObject({ submission: 'queued' });

    const canceled = await call(`admin/orders/${order.id}/cancel`, {
      token: shop.admin.accessToken,
      body: { reason: 'duplicate', expectedStatus: 'Pending Submission' },
    });
    expect(canceled.body).toMatchObject({
      message: 'Order canceled and refunded',
      outcome: 'refunded',
      data: { status: 'Canceled', submission: 'withdrawn', refunded: order.charge },
    });
    expect(await balanceKobo(user.id)).toBe(1_000_000n);
    expect(await refundsOf(user.id)).toHaveLength(1);
  });

  it('asks the provider first and refunds only what it confirms undelivered, when the sync reads it', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers);
    const token = shop.admin.accessToken;

    const requested = await call(`admin/orders/${order.id}/cancel`, { token, body: { reason: 'customer asked' } });
    expect(requested.body).toMatchObject({
      message: 'The provider was asked to cancel the order; the refund follows when it confirms',
      outcome: 'requested from the provider',
      data: { status: 'Pending', refunded: '0.00', cancelRequestedAt: expect.any(String) },
    });
    expect(await refundsOf(user.id)).toHaveLength(0);
    expect(await call(`admin/orders/${order.id}/cancel`, { token, body: {} })).toMatchObject({
      status: 400,
      body: { message: 'The provider was already asked to cancel this order; the refund follows when it confirms' },
    });

    await withDb((db) => syncOrders(db, env));
    expect(await orderRow(order.id)).toMatchObject({ status: 'Canceled' });
    expect(await balanceKobo(user.id)).toBe(10_000_000n);
    expect(await refundsOf(user.id)).toHaveLength(1);
    expect((await auditsOf(order.id)).map((entry) => entry.details)).toEqual([expect.objectContaining({ reason: 'customer asked', submission: 'accepted' })]);
  });

  it('moves no money when the provider refuses to cancel, and says why', async () => {
    const { shop, order } = await newShopWithOrder(FAKE.igFollowers, { control: { faults: { cancelRefusal: { rate: 1 } } } });

    const refused = await call(`admin/orders/${order.id}/cancel`, { token: shop.admin.accessToken, body: {} });
    expect(refused).toMatchObject({ status: 400, body: { message: 'The provider refused to cancel this order: Order cannot be canceled at the moment' } });
    expect(await orderRow(order.id)).toMatchObject({ status: 'Pending', cancelRequestedAt: null, refundedKobo: 0n });
    expect(await auditsOf(order.id)).toHaveLength(0);
  });
});

describe('refunding without the provider', () => {
  it('closes an order whose submission is unknown only with a reason, audited, once', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igLikes, { walletKobo: 1_000_000n, control: { mode: 'timeout' }, timeoutMs: 1000 });
    expect(await orderRow(order.id)).toMatchObject({ submission: 'unknown' });
    await shop.fake.post('/__control', { mode: 'normal' });
    const token = shop.admin.accessToken;

    expect(await call(`admin/orders/${order.id}/cancel`, { token, body: {} })).toMatchObject({
      status: 400,
      body: { message: expect.stringMatching(/^The provider has not confirmed this order/) },
    });
    expect(await call(`admin/orders/${order.id}/refund-without-provider`, { token, body: {} })).toMatchObject({
      status: 400,
      body: { message: 'reason is required' },
    });
    expect(await call(`admin/orders/${order.id}/refund-without-provider`, { token, body: { reason: '  ' } })).toMatchObject({
      status: 400,
      body: { message: 'Say why the order is refunded without the provider' },
    });

    const refunded = await call(`admin/orders/${order.id}/refund-without-provider`, {
      token,
      body: { reason: 'not in the provider panel', expectedStatus: 'Pending Submission' },
    });
    expect(refunded.body).toMatchObject({
      message: 'Order canceled and refunded without the provider',
      data: { status: 'Canceled', submission: 'withdrawn', refunded: order.charge },
    });
    expect(await balanceKobo(user.id)).toBe(1_000_000n);
    expect(await call(`admin/orders/${order.id}/refund-without-provider`, { token, body: { reason: 'again' } })).toMatchObject({ status: 400 });
    expect(await refundsOf(user.id)).toHaveLength(1);
    expect((await auditsOf(order.id)).map(({ action, details }) => ({ action, details }))).toEqual([
      {
        action: 'order.refund_without_provider',
        details: expect.objectContaining({
          reason: 'not in the provider panel',
          submission: 'unknown',
          refundedKobo: String((await orderRow(order.id)).chargeKobo),
        }),
      },
    ]);
  });
});

describe('linking an order whose submission is unknown', () => {
  it('names the order that already has the provider order id, so the administrator can check both', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes], timeoutMs: 1000 });
    const user = await fundedUser(10_000_000n);
    const first = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;
    const { providerOrderId } = await orderRow(first.id);
    await shop.fake.post('/__control', { mode: 'timeout' });
    const second = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;
    await shop.fake.post('/__control', { mode: 'normal' });

    expect(await call(`admin/orders/${second.id}/link`, { token: shop.admin.accessToken, body: { providerOrderId } })).toMatchObject({
      status: 409,
      body: {
        message: `Order #${first.id} already has provider order ${providerOrderId}. If the provider answered the same id for both orders, check both in its panel.`,
      },
    });
    expect(await orderRow(second.id)).toMatchObject({ submission: 'unknown', providerOrderId: null });
  });
});

describe('admin changes against an order that moved on', () => {
  it('answers 409 and changes nothing when the order is no longer what the administrator saw', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igLikes);
    const token = shop.admin.accessToken;
    // The sync read it Completed after the administrator's screen showed Pending.
    await withDb((db) => db.update(orders).set({ status: 'Completed', remains: 0 }).where(eq(orders.id, order.id)));

    for (const [path, body] of [
      ['status', { status: 'Partial', remains: 500, expectedStatus: 'Pending' }],
      ['cancel', { expectedStatus: 'Pending' }],
      ['refund-without-provider', { reason: 'checked', expectedStatus: 'Pending' }],
    ] as const) {
      expect(await call(`admin/orders/${order.id}/${path}`, { token, body })).toMatchObject({
        status: 409,
        body: { message: 'The order changed meanwhile; reload it' },
      });
    }
    expect(await orderRow(order.id)).toMatchObject({ status: 'Completed', refundedKobo: 0n });
    expect(await refundsOf(user.id)).toHaveLength(0);
  });

  it('lets one of two concurrent closing changes win, and refunds once', async () => {
    const { shop, user, order } = await newShopWithOrder(FAKE.igLikes);
    const token = shop.admin.accessToken;

    const answers = await Promise.all([
      call(`admin/orders/${order.id}/status`, { token, body: { status: 'Partial', remains: 400, expectedStatus: 'Pending' } }),
      call(`admin/orders/${order.id}/status`, { token, body: { status: 'Canceled', expectedStatus: 'Pending' } }),
      call(`admin/orders/${order.id}/refund-without-provider`, { token, body: { reason: 'checked', expectedStatus: 'Pending' } }),
    ]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status !== 200).every((answer) => answer.status === 409 || answer.status === 400)).toBe(true);
    expect(await refundsOf(user.id)).toHaveLength(1);
  });
});
