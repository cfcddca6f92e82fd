// The price agreed: an order (or a mass order's total) sent with the charge its customer saw is
// placed at that charge or not at all, whatever moved the price meanwhile (the markup, the
// provider's cost, the exchange rate), and a refusal writes nothing and says what it costs now.
import { env } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, services } from '../../../drizzle/schema';
import type { Db } from '../../../worker/db';
import { ceilDiv, koboToNaira } from '../../../worker/lib/decimal';
import { placeOrder as placeOrderDirectly } from '../../../worker/services/orders/order-placing';
import { call, type TestAccount, unique, withDb } from '../../support/api';
import { newLink, placeOrder } from '../fixtures/order-fixtures';
import { FAKE, newShop, rateKoboOf, type Shop, shopSelling } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const chargeOf = async (serviceId: number, quantity: number) => ceilDiv((await rateKoboOf(serviceId)) * BigInt(quantity), 1000n);
/** Money as every page writes it (Intl's no-break space after the code). */
const ngn = (kobo: bigint) => `NGN\u00a0${koboToNaira(kobo).replace(/\B(?=(\d{3})+(?!\d))/g, ',')}`;
const ordersOf = (userId: number) => withDb((db) => db.select().from(orders).where(eq(orders.userId, userId)));
const orderDebits = async (userId: number) => (await ledgerFor(userId)).filter((entry) => entry.sourceKind === 'order');

const raiseMarkup = async (shop: Shop, serviceId: number, markupPercent: number) => {
  const raised = await call(`admin/services/${serviceId}`, { method: 'PUT', token: shop.admin.accessToken, body: { markupPercent } });
  expect(raised.status, JSON.stringify(raised.body)).toBe(200);
};

async function expectNothingWritten(user: TestAccount, fundedKobo: bigint) {
  expect(await ordersOf(user.id)).toEqual([]);
  expect(await orderDebits(user.id)).toEqual([]);
  expect(await balanceKobo(user.id)).toBe(fundedKobo);
}

describe('placing an order at the charge the customer saw', () => {
  it('refuses with 409 and the new charge when the markup rose since, writes nothing, and places it once confirmed at the new charge', async () => {
    const { shop, serviceId, user, funded } = await shopSelling(FAKE.igFollowers);
    const shown = await chargeOf(serviceId, 1000);
    await raiseMarkup(shop, serviceId, 80);
    const now = await chargeOf(serviceId, 1000);
    expect(now).toBeGreaterThan(shown);

    const link = newLink();
    const refused = await placeOrder(user, { serviceId, link, quantity: 1000, expectedCharge: koboToNaira(shown) });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        message: `The price changed from ${ngn(shown)} to ${ngn(now)}. Check the new price and confirm to place the order.`,
        error: 'Conflict',
        code: 'price_changed',
        data: { charge: koboToNaira(now) },
      },
    });
    await expectNothingWritten(user, funded);

    const confirmed = await placeOrder(user, { serviceId, link, quantity: 1000, expectedCharge: refused.body.data.charge });
    expect(confirmed.status, JSON.stringify(confirmed.body)).toBe(201);
    expect(confirmed.body.data).toMatchObject({ charge: koboToNaira(now), status: 'Pending Submission' });
    expect(await balanceKobo(user.id)).toBe(funded - now);
    expect((await orderDebits(user.id)).map((entry) => entry.amountKobo)).toEqual([now]);
  });

  it('takes the charge as a number too, and refuses a charge that is not an amount', async () => {
    const { serviceId, user } = await shopSelling(FAKE.igLikes);
    const charge = await chargeOf(serviceId, 1000);
    expect((await placeOrder(user, { serviceId, link: newLink(), quantity: 1000, expectedCharge: Number(koboToNaira(charge)) })).status).toBe(201);
    expect(await placeOrder(user, { serviceId, link: newLink(), quantity: 1000, expectedCharge: '1,000' })).toMatchObject({
      status: 400,
      body: { message: 'expectedCharge must be an amount in naira, e.g. "1234.50"' },
    });
  });

  it('catches a price changed between the read of the service and the placing statement', async () => {
    const { serviceId, user, funded } = await shopSelling(FAKE.igLikes);
    const place = (expectedCharge: string) => (db: Db) =>
      placeOrderDirectly(db, env, user.id, { serviceId, link: newLink(), quantity: 1000, expectedCharge }, { idempotencyKey: unique('key') });
    // This isolate now holds the service as priced: the next order is planned with that copy.
    const first = await withDb(place(koboToNaira(await chargeOf(serviceId, 1000))));
    const shown = await chargeOf(serviceId, 1000);
    await withDb((db) =>
      db
        .update(services)
        .set({ rateKobo: sql`${services.rateKobo} + 1000` })
        .where(eq(services.id, serviceId)),
    );

    // The new charge is read before the refusal is awaited: read while it is pending, the refusal would land unheard.
    const charge = koboToNaira(await chargeOf(serviceId, 1000));
    await expect(withDb(place(koboToNaira(shown)))).rejects.toMatchObject({ status: 409, data: { charge } });
    expect((await ordersOf(user.id)).map((order) => order.id)).toEqual([first.order.id]);
    expect(await balanceKobo(user.id)).toBe(funded - shown);
  });

  it('answers a retry under the same Idempotency-Key with the order placed earlier, even after the price changed', async () => {
    const { shop, serviceId, user, funded } = await shopSelling(FAKE.igFollowers);
    const shown = await chargeOf(serviceId, 1000);
    const body = { serviceId, link: newLink(), quantity: 1000, expectedCharge: koboToNaira(shown) };
    const key = unique('key');
    const placed = await placeOrder(user, body, key);
    expect(placed.status).toBe(201);
    await raiseMarkup(shop, serviceId, 90);

    const retried = await placeOrder(user, body, key);
    expect(retried).toMatchObject({ status: 200, body: { data: { id: placed.body.data.id, charge: koboToNaira(shown) } } });
    expect(await balanceKobo(user.id)).toBe(funded - shown);
    // A new order under a new key is refused at the old price.
    expect((await placeOrder(user, body, unique('key'))).status).toBe(409);
  });

  it('charges the price of the moment when no charge is sent, as the reseller protocol does', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igFollowers);
    await raiseMarkup(shop, serviceId, 70);
    const placed = await placeOrder(user, { serviceId, link: newLink(), quantity: 1000 });
    expect(placed.body.data).toMatchObject({ charge: koboToNaira(await chargeOf(serviceId, 1000)) });
  });
});

describe('a mass order at the total the customer saw', () => {
  it('refuses a total that is no longer right with 409 and the new total, placing nothing, then places every line at the confirmed total', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes], markupPercent: '50' });
    const followers = shop.serviceIds[FAKE.igFollowers];
    const likes = shop.serviceIds[FAKE.igLikes];
    const funded = 50_000_000n;
    const user = await fundedUser(funded);
    const orders = `${followers}|${newLink()}|1000\n\n${likes}|${newLink()}|500`;
    const shown = (await chargeOf(followers, 1000)) + (await chargeOf(likes, 500));
    await raiseMarkup(shop, likes, 85);
    const now = (await chargeOf(followers, 1000)) + (await chargeOf(likes, 500));

    const refused = await call('user/mass-order', { token: user.accessToken, body: { orders, expectedTotal: koboToNaira(shown) } });
    expect(refused).toMatchObject({
      status: 409,
      body: {
        message: `The total changed from ${ngn(shown)} to ${ngn(now)}. Check the new prices and confirm to place the orders.`,
        error: 'Conflict',
        data: { total: koboToNaira(now) },
      },
    });
    await expectNothingWritten(user, funded);

    const placed = await call('user/mass-order', { token: user.accessToken, body: { orders, expectedTotal: refused.body.data.total } });
    expect(placed.body).toMatchObject({
      message: '2 of 2 orders placed',
      results: [
        { line: 1, ok: true },
        { line: 3, ok: true },
      ],
    });
    expect(await balanceKobo(user.id)).toBe(funded - now);
  });

  it('counts only lines it could place: a service not on sale adds nothing and its line is refused, the others are charged the total', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes] });
    const followers = shop.serviceIds[FAKE.igFollowers];
    const likes = shop.serviceIds[FAKE.igLikes];
    const funded = 50_000_000n;
    const user = await fundedUser(funded);
    await withDb((db) => db.update(services).set({ enabled: false }).where(eq(services.id, likes)));
    const total = await chargeOf(followers, 1000);
    const orders = `${followers}|${newLink()}|1000\n${likes}|${newLink()}|500\n999999999|${newLink()}|100`;
    const placed = await call('user/mass-order', { token: user.accessToken, body: { orders, expectedTotal: koboToNaira(total) } });
    expect(placed.body).toMatchObject({
      message: '1 of 3 orders placed',
      results: [
        { line: 1, ok: true },
        { line: 2, ok: false, error: 'This service does not exist or is not available' },
        { line: 3, ok: false, error: 'This service does not exist or is not available' },
      ],
    });
    expect(await balanceKobo(user.id)).toBe(funded - total);
  });

  it('answers a retried batch under its Idempotency-Key with the orders placed earlier, after a price change too', async () => {
    const { shop, serviceId: followers, user, funded } = await shopSelling(FAKE.igFollowers, { walletKobo: 50_000_000n });
    const body = {
      orders: `${followers}|${newLink()}|1000\n${followers}|${newLink()}|2000`,
      expectedTotal: koboToNaira((await chargeOf(followers, 1000)) + (await chargeOf(followers, 2000))),
    };
    const key = unique('batch');
    const first = await call('user/mass-order', { token: user.accessToken, body, headers: { 'idempotency-key': key } });
    expect(first.body.results.map((result: { ok: boolean }) => result.ok)).toEqual([true, true]);
    const spent = funded - (await balanceKobo(user.id));
    await raiseMarkup(shop, followers, 95);

    const retried = await call('user/mass-order', { token: user.accessToken, body, headers: { 'idempotency-key': key } });
    expect(retried.body.results).toEqual(first.body.results);
    expect(await balanceKobo(user.id)).toBe(funded - spent);
    expect(await orderDebits(user.id)).toHaveLength(2);
  });
});
