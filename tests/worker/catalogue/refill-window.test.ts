// Refill windows ("Refill 30D"): read from the provider's service names on import and sync unless
// an administrator set one, settable by administrators, and enforced on refills from the SPA API
// and the reseller API, with the deadline in the order view.
import { env, SELF } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, services } from '../../../drizzle/schema';
import { syncProviderCatalogue } from '../../../worker/services/catalogue';
import { refillDaysFromName } from '../../../worker/services/catalogue/refill-window';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { call, type TestAccount, withDb } from '../../support/api';
import { newLink, orderRow, placeOrder, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, newShop, type Shop } from '../fixtures/shop-fixtures';
import { fundedUser } from '../fixtures/wallet-fixtures';

describe('the refill window in a service name', () => {
  it.each([
    ['Instagram Followers [Real Mixed] [Refill 30D] [Max 100K] [Start 0-1H]', 30],
    ['IG Followers | Refill: 60 Days | Instant', 60],
    ['Followers [Auto-Refill 45-Day]', 45],
    ['Instagram Followers [30 Days Refill]', 30],
    ['TikTok Likes 15D Auto Refill', 15],
    ['Telegram Members ♻️ 30D', 30],
    ['Telegram Members ♻ 90 days', 90],
    ['YouTube Subs [R30]', 30],
    ['YouTube Subs R365D HQ', 365],
    ['Refill Guarantee: 1 Year', 365],
    ['Followers [Refill 2 Weeks]', 14],
    ['Refill 3 Months', 90],
    ['YouTube Views [Non Drop] [Lifetime Refill] [10K/Day]', null],
    ['Instagram Followers [HQ Profiles] [No Refill] [Max 20K]', null],
    ['Followers Non-Refill 30D drop protection', null],
    ['Instagram Likes [Instant] [Non Drop] [Max 50K]', null],
    ['Views [Max 5M] [Refill]', null],
    ['Followers [10K/Day] [Refill]', null],
    ['Refill 0D', null],
  ])('reads %j as %j days', (name, days) => {
    expect(refillDaysFromName(name)).toBe(days);
  });
});

const DAY_MS = 86_400_000;
const V2 = 'http://shop.test/api/v2';

async function v2(fields: Record<string, string | number>) {
  const response = await SELF.fetch(V2, { method: 'POST', body: new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)])) });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

/** A completed order of the shop's Instagram followers service ("Refill 30D"), completed `daysAgo` days ago. */
async function completedOrder(shop: Shop, user: TestAccount, daysAgo: number): Promise<number> {
  const placed = await placeOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 });
  expect(placed.status, JSON.stringify(placed.body)).toBe(201);
  const orderId = placed.body.data.id as number;
  await shop.fake.post(`/__orders/${(await untilSubmitted(orderId)).providerOrderId}`, { status: 'Completed', remains: 0 });
  await withDb((db) => syncOrders(db, env));
  const { status, completedAt } = await orderRow(orderId);
  expect(status).toBe('Completed');
  // Time passing, without waiting for it: the completion moves back.
  await withDb((db) =>
    db
      .update(orders)
      .set({ completedAt: new Date(completedAt!.getTime() - daysAgo * DAY_MS) })
      .where(eq(orders.id, orderId)),
  );
  return orderId;
}

describe('refill windows', () => {
  it("are imported from the provider's names, kept when an administrator sets them, and filled in by the sync when missing", async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igFollowersNoRefill, '3011'] });
    const token = shop.admin.accessToken;
    const windowOf = async (fake: string) => (await call(`admin/services/${shop.serviceIds[fake]}`, { token })).body.data.refillDays;
    expect(await windowOf(FAKE.igFollowers)).toBe(30);
    expect(await windowOf(FAKE.igFollowersNoRefill)).toBeNull();
    expect(await windowOf('3011')).toBeNull(); // Lifetime Refill: no limit

    const set = await call(`admin/services/${shop.serviceIds[FAKE.igFollowers]}`, { method: 'PUT', token, body: { refillDays: 45 } });
    expect(set.status, JSON.stringify(set.body)).toBe(200);
    expect(set.body.data).toMatchObject({ refillDays: 45 });
    expect(await call(`admin/services/${shop.serviceIds[FAKE.igFollowers]}`, { method: 'PUT', token, body: { refillDays: 0 } })).toMatchObject({
      status: 400,
      body: { message: 'refillDays must be at least 1' },
    });
    // A service imported before windows were read has none: the sync reads it from the name, and leaves the administrator's alone.
    await withDb((db) => db.update(services).set({ refillDays: null }).where(eq(services.id, shop.serviceIds[FAKE.igFollowersNoRefill])));
    await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(await windowOf(FAKE.igFollowers)).toBe(45);
    expect(await windowOf(FAKE.igFollowersNoRefill)).toBeNull();
    await withDb((db) => db.update(services).set({ refillDays: null, refillDaysByAdmin: false }).where(eq(services.id, shop.serviceIds[FAKE.igFollowers])));
    await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(await windowOf(FAKE.igFollowers)).toBe(30);
  });

  it('allow a refill inside the window and refuse it after, with the date, in the SPA API', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(100_000_000n);
    const inside = await completedOrder(shop, user, 29);
    const outside = await completedOrder(shop, user, 31);

    const open = (await call(`user/orders/${inside}`, { token: user.accessToken })).body.data;
    const { completedAt } = await orderRow(inside);
    expect(open).toMatchObject({ canRefill: true, refillUntil: new Date(completedAt!.getTime() + 30 * DAY_MS).toISOString() });
    expect((await call(`user/orders/${inside}/refill`, { method: 'POST', token: user.accessToken })).status).toBe(200);

    const closed = (await call(`user/orders/${outside}`, { token: user.accessToken })).body.data;
    expect(closed).toMatchObject({ canRefill: false });
    const deadline = new Date(closed.refillUntil);
    expect(deadline.getTime()).toBeLessThan(Date.now());
    const day = new Intl.DateTimeFormat('en-GB', { day: 'numeric', month: 'short', year: 'numeric', timeZone: 'UTC' }).format(deadline);
    expect(await call(`user/orders/${outside}/refill`, { method: 'POST', token: user.accessToken })).toMatchObject({
      status: 400,
      body: { message: `The refill period for this order ended on ${day}: refills can be asked for within 30 days of completion.` },
    });
    // The list says the same.
    const listed = (await call('user/orders', { token: user.accessToken })).body.data as Array<{ id: number; canRefill: boolean }>;
    expect(listed.find((order) => order.id === outside)).toMatchObject({ canRefill: false });

    // An administrator widening the window opens it again.
    await call(`admin/services/${shop.serviceIds[FAKE.igFollowers]}`, { method: 'PUT', token: shop.admin.accessToken, body: { refillDays: 60 } });
    expect((await call(`user/orders/${outside}`, { token: user.accessToken })).body.data).toMatchObject({ canRefill: true });
    // No window at all: no limit.
    await call(`admin/services/${shop.serviceIds[FAKE.igFollowers]}`, { method: 'PUT', token: shop.admin.accessToken, body: { refillDays: null } });
    expect((await call(`user/orders/${outside}`, { token: user.accessToken })).body.data).toMatchObject({ canRefill: true, refillUntil: null });
    // The catalogue sync leaves the administrator's choice alone, though the name still says "Refill 30D".
    await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    const [service] = await withDb((db) => db.select().from(services).where(eq(services.id, shop.serviceIds[FAKE.igFollowers])));
    expect(service).toMatchObject({ refillDays: null, refillDaysByAdmin: true });
  });

  it("answer the reseller API's refill outside the window with the protocol's error shape", async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await fundedUser(100_000_000n);
    const created = await call('user/api-keys', { token: user.accessToken, body: { name: 'tool' } });
    const key = created.body.data.key as string;
    const inside = await completedOrder(shop, user, 1);
    const outside = await completedOrder(shop, user, 40);

    const refused = await v2({ key, action: 'refill', order: outside });
    expect(refused.status).toBe(200);
    expect(refused.body).toEqual({
      error: expect.stringMatching(/^The refill period for this order ended on \d{1,2} \w{3} \d{4}: refills can be asked for within 30 days of completion\.$/),
    });
    expect((await v2({ key, action: 'refill', order: inside })).body).toEqual({ refill: expect.stringMatching(/^\d+$/) });
    const batch = await v2({ key, action: 'refill', orders: `${outside}` });
    expect(batch.body).toEqual([{ order: outside, refill: { error: refused.body.error } }]);
  });
});
