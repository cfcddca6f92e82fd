import { env } from 'cloudflare:test';
import { and, eq, inArray, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings, exchangeRates, orders, providers, services } from '../../../drizzle/schema';
import { closeOrder } from '../../../worker/services/orders/order-closing';
import { runSmmSync, syncOrders } from '../../../worker/services/orders/order-sync';
import { call, withDb } from '../../support/api';
import { fakeOrders, newLink, orderRow, placeOrder, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, newShop, newShopWithOrder } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const koboOf = (naira: string) => BigInt(naira.replace('.', ''));

/** Places an order and pins the fake's copy of it to the given state. */
async function orderPinnedTo(state: Record<string, unknown>, quantity = 1000) {
  const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers, { walletKobo: 100_000_000n, quantity });
  const { providerOrderId } = await orderRow(order.id);
  await shop.fake.post(`/__orders/${providerOrderId}`, state);
  return { shop, user, order, charge: koboOf(order.charge) };
}

const syncTimes = (times: number) => Promise.all(Array.from({ length: times }, () => withDb((db) => syncOrders(db, env))));

describe('status sync refunds', () => {
  it('refunds a Partial order floor(charge × remains / quantity), once, however many syncs run at once', async () => {
    const { shop, user, order, charge } = await orderPinnedTo({ status: 'Partial', remains: 377, start_count: 1200 }, 1000);
    await Promise.all([syncTimes(4), call('admin/orders/sync', { method: 'POST', token: shop.admin.accessToken })]);
    await syncTimes(2);
    const refund = (charge * 377n) / 1000n;
    const after = (await call(`user/orders/${order.id}`, { token: user.accessToken })).body.data;
    expect(after).toMatchObject({ status: 'Partial', remains: 377, startCount: 1200, refunded: (Number(refund) / 100).toFixed(2) });
    const refunds = (await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order_refund');
    expect(refunds).toEqual([expect.objectContaining({ sourceRef: String(order.id), amountKobo: refund, transactionType: 1 })]);
    expect(await balanceKobo(user.id)).toBe(100_000_000n - charge + refund);
  });

  it('refunds a Canceled order in full, once, and a later status change cannot refund again', async () => {
    const { shop, user, order, charge } = await orderPinnedTo({ status: 'Cancelled', remains: 1000 });
    await syncTimes(5);
    expect(await orderRow(order.id)).toMatchObject({ status: 'Canceled', refundedKobo: charge });
    // The provider changes its mind; the order is closed, its refund settled.
    const { providerOrderId } = await orderRow(order.id);
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Partial', remains: 10 });
    await syncTimes(2);
    expect(await orderRow(order.id)).toMatchObject({ status: 'Canceled', refundedKobo: charge });
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order_refund')).toHaveLength(1);
    expect(await balanceKobo(user.id)).toBe(100_000_000n);
  });

  it('a cancellation that says nothing of delivery keeps what was already seen delivered', async () => {
    const { user, order, charge } = await orderPinnedTo({ status: 'In progress', remains: 600, start_count: 42 });
    await syncTimes(1);
    expect(await orderRow(order.id)).toMatchObject({ status: 'In progress', remains: 600 });
    // The provider's answer on cancelling, with no remains and no charge: 400 of 1000 were seen delivered.
    const closed = await withDb((db) => db.transaction((tx) => closeOrder(tx, order.id, { status: 'Canceled', from: ['In progress'] })));
    const refund = (charge * 600n) / 1000n;
    expect(closed).toEqual({ userId: user.id, refundedKobo: refund });
    expect(await orderRow(order.id)).toMatchObject({ status: 'Canceled', remains: 600, refundedKobo: refund });
  });

  it('follows a disabled provider’s open orders to their end, refund included, while it takes no new ones', async () => {
    const { shop, user, order, charge } = await orderPinnedTo({ status: 'In progress', remains: 1000 });
    await syncTimes(1);
    await withDb((db) => db.update(providers).set({ enabled: false }).where(eq(providers.id, shop.providerId)));
    const { providerOrderId } = await orderRow(order.id);
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Cancelled', remains: 1000 });
    await syncTimes(1);
    expect(await orderRow(order.id)).toMatchObject({ status: 'Canceled', refundedKobo: charge });
    expect(await balanceKobo(user.id)).toBe(100_000_000n);
  });

  it('completes without a refund, clamps over-delivery and measures the average time', async () => {
    const { user, order } = await orderPinnedTo({ status: 'Completed', remains: -25, start_count: 500 });
    await syncTimes(2);
    const row = await orderRow(order.id);
    expect(row).toMatchObject({ status: 'Completed', remains: 0, startCount: 500, refundedKobo: 0n });
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order_refund')).toEqual([]);
    const [service] = await withDb((db) => db.select().from(services).where(eq(services.id, row.serviceId)));
    expect(service.averageTimeSeconds).not.toBeNull();
  });

  it('moves statuses along and keeps money committed while open', async () => {
    const { user, order, charge } = await orderPinnedTo({ status: 'In progress', remains: 600, start_count: 42 });
    await syncTimes(1);
    expect((await call(`user/orders/${order.id}`, { token: user.accessToken })).body.data).toMatchObject({
      status: 'In progress',
      remains: 600,
      startCount: 42,
    });
    expect((await call('user/getMai', { token: user.accessToken })).body.smmBalance).toBe(Number(charge) / 100);
  });

  it('reads statuses 100 orders at a time', async () => {
    const shop = await newShop({ serviceIds: [FAKE.tiktokViews] });
    const user = await fundedUser(1_000_000_000n);
    const placed: number[] = [];
    for (let batch = 0; batch < 15; batch++) {
      const responses = await Promise.all(
        Array.from({ length: 10 }, () => placeOrder(user, { serviceId: shop.serviceIds[FAKE.tiktokViews], link: newLink('tiktok.com'), quantity: 1000 })),
      );
      placed.push(...responses.map((response) => response.body.data.id));
    }
    await Promise.all(placed.map((id) => untilSubmitted(id)));
    await shop.fake.post('/__control', { stepMs: 1 });
    await new Promise((resolve) => setTimeout(resolve, 20));
    const result = await withDb((db) => syncOrders(db, env));
    expect(result.polled).toBeGreaterThanOrEqual(150);
    const rows = await withDb((db) =>
      db
        .select({
          status: orders.status,
          refundedKobo: orders.refundedKobo,
          chargeKobo: orders.chargeKobo,
          remains: orders.remains,
          deliverable: orders.deliverable,
        })
        .from(orders)
        .where(inArray(orders.id, placed)),
    );
    expect(rows.every((row) => ['Completed', 'Partial', 'Canceled'].includes(row.status))).toBe(true);
    for (const row of rows) {
      const expected =
        row.status === 'Canceled' ? row.chargeKobo : row.status === 'Partial' ? (row.chargeKobo * BigInt(row.remains!)) / BigInt(row.deliverable) : 0n;
      expect(row.refundedKobo).toBe(expected);
    }
    const fake = await fakeOrders(shop.fake);
    expect(fake.orders).toHaveLength(150);
  }, 90_000); // 150 orders through the submissions queue take a while on a busy machine.
});

describe('submission housekeeping', () => {
  it('turns an abandoned claim into unknown, and refunds orders held for more than a day', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    await shop.fake.post('/__control', { mode: 'no_balance' });
    const user = await fundedUser(10_000_000n);
    const held = (await placeOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;
    const abandoned = (await placeOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;
    // The queue's first try must be over, or its answer could overwrite the claim set below.
    await Promise.all([untilSubmitted(held.id), untilSubmitted(abandoned.id)]);
    await withDb(async (db) => {
      await db.update(orders).set({ createdAt: sql`now() - interval '25 hours'` }).where(eq(orders.id, held.id));
      await db.update(orders).set({ submission: 'sending', submissionStartedAt: sql`now() - interval '10 minutes'` }).where(eq(orders.id, abandoned.id));
    });
    await syncTimes(3);
    expect(await orderRow(held.id)).toMatchObject({
      status: 'Canceled',
      submission: 'withdrawn',
      refundedKobo: koboOf(held.charge),
      statusReason: 'The provider could not take the order within a day',
    });
    expect(await orderRow(abandoned.id)).toMatchObject({ status: 'Pending Submission', submission: 'unknown' });
    const warnings = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.orderId, abandoned.id), eq(catalogueWarnings.kind, 'submission_unknown'))),
    );
    expect(warnings).toHaveLength(1);
    expect((await fakeOrders(shop.fake)).orders).toEqual([]);
  });

  it('queues held orders again once the provider can take them, and sends `add` once however many syncs run', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    await shop.fake.post('/__control', { mode: 'no_balance' });
    const user = await fundedUser(10_000_000n);
    const link = newLink();
    const order = (await placeOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link, quantity: 1000 })).body.data;
    expect(await untilSubmitted(order.id)).toMatchObject({ submission: 'queued', submitAttempts: 1 });
    await withDb((db) =>
      db
        .update(orders)
        .set({ createdAt: sql`now() - interval '1 minute'`, submissionStartedAt: sql`now() - interval '1 minute'` })
        .where(eq(orders.id, order.id)),
    );
    await shop.fake.post('/__control', { mode: 'normal' });
    await syncTimes(4);
    expect(await untilSubmitted(order.id, 2)).toMatchObject({ status: 'Pending', submission: 'accepted', submitAttempts: 2 });
    const fake = await fakeOrders(shop.fake);
    expect(fake.orders.filter((entry) => entry.link === link)).toHaveLength(1);
  });
});

describe('the cron job', () => {
  it('refreshes stale rates and catalogues, checks balances and syncs orders', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    await withDb((db) => db.update(exchangeRates).set({ fetchedAt: sql`now() - interval '2 hours'` }));
    const result = await withDb((db) => runSmmSync(db, env));
    expect(result.rates).toEqual({ refreshed: true });
    expect(result.catalogues.some((catalogue) => catalogue.providerId === shop.providerId)).toBe(true);
    const [provider] = await withDb((db) => db.select().from(providers).where(eq(providers.id, shop.providerId)));
    expect(provider.catalogueSyncedAt).not.toBeNull();
    expect(provider.balanceMicros).toBe(5_000_000_000n);
    const rates = await call('rates');
    expect(rates.body.data).toMatchObject({ base: 'USD', rates: { USD: '1', NGN: '1550.25' } });
  });
});
