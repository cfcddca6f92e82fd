import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders, services, users, walletTransactions } from '../../../drizzle/schema';
import { STUCK_FALLBACK_SECONDS } from '../../../worker/services/dashboard/admin-dashboard';
import { call, createAdmin, registerAndLogin, withDb } from '../../support/api';
import { newLink, orderRow, placeSubmittedOrder } from '../fixtures/order-fixtures';
import { FAKE, newShop } from '../fixtures/shop-fixtures';
import { fundedUser } from '../fixtures/wallet-fixtures';

const naira = (kobo: bigint) => `${kobo / 100n}.${String(kobo % 100n).padStart(2, '0')}`;
/** round(cost × kept / charge), half away from zero, as Postgres rounds numerics. */
const keptCost = (cost: bigint, charge: bigint, refunded: bigint) => (cost * (charge - refunded) * 2n + charge) / (2n * charge);

describe('GET admin/dashboard', () => {
  it('answers 30 days, 12 weeks or 12 months ending now, and validates the period', async () => {
    const admin = await createAdmin();
    const today = new Date().toISOString().slice(0, 10);
    for (const [period, buckets] of [
      ['day', 30],
      ['week', 12],
      ['month', 12],
    ] as const) {
      const response = await call(`admin/dashboard?period=${period}`, { token: admin.accessToken });
      expect(response.status).toBe(200);
      expect(response.body.data.period).toBe(period);
      expect(response.body.data.series).toHaveLength(buckets);
      expect(response.body.data.series.at(-1).bucket <= today).toBe(true);
    }
    expect((await call('admin/dashboard', { token: admin.accessToken })).body.data.series.at(-1).bucket).toBe(today);
    expect(await call('admin/dashboard?period=year', { token: admin.accessToken })).toMatchObject({
      status: 400,
      body: { message: 'period must be day, week or month' },
    });
  });

  it('adds up deposits, spend net of refunds, provider cost and profit per bucket, in kobo', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const token = shop.admin.accessToken;
    const user = await fundedUser(5_000_000n);
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const placed = [];
    // Sent to the provider first: an order the queue is sending refuses a status change (409).
    for (const quantity of [1000, 2000, 3000]) placed.push((await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity })).body.data);
    const [kept, canceled, partial] = placed;
    expect((await call(`admin/orders/${kept.id}/status`, { token, body: { status: 'Completed' } })).status).toBe(200);
    expect((await call(`admin/orders/${canceled.id}/status`, { token, body: { status: 'Canceled' } })).status).toBe(200);
    expect((await call(`admin/orders/${partial.id}/status`, { token, body: { status: 'Partial', remains: 1000 } })).status).toBe(200);
    expect((await call('user/admin-credit-user-wallet', { token, body: { amount: '100.25', reference: `dash-${user.id}`, userId: user.id } })).status).toBe(
      200,
    );

    // Everything of this user moves to a month no other test writes to, so the bucket is ours alone.
    const now = new Date();
    const then = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - 6, 15, 12));
    const bucket = `${then.toISOString().slice(0, 7)}-01`;
    await withDb(async (db) => {
      await db.update(orders).set({ createdAt: then }).where(eq(orders.userId, user.id));
      await db.update(walletTransactions).set({ createdAt: then }).where(eq(walletTransactions.userId, user.id));
      await db.update(users).set({ createdAt: then }).where(eq(users.id, user.id));
    });

    const rows = await Promise.all(placed.map((order) => orderRow(order.id)));
    const spend = rows.reduce((total, row) => total + row.chargeKobo - row.refundedKobo, 0n);
    const cost = rows.reduce((total, row) => total + keptCost(row.costKobo, row.chargeKobo, row.refundedKobo), 0n);
    expect(rows[1].refundedKobo).toBe(rows[1].chargeKobo);
    expect(rows[2].refundedKobo).toBeGreaterThan(0n);

    const dashboard = (await call('admin/dashboard?period=month', { token })).body.data;
    expect(dashboard.series.find((row: { bucket: string }) => row.bucket === bucket)).toEqual({
      bucket,
      // The funding and the credit, both administrators' credits; refunds are not deposits.
      deposits: naira(5_000_000n + 10_025n),
      bankTransfers: '0.00',
      depositsReversed: '0.00',
      adminCredits: naira(5_000_000n + 10_025n),
      spend: naira(spend),
      providerCost: naira(cost),
      profit: naira(spend - cost),
      orders: 3,
      newUsers: 1,
    });
  });

  it("lists open orders past twice their service's average time (a day when unknown), oldest first", async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes, FAKE.igFollowers] });
    const user = await fundedUser(5_000_000n);
    const timed = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;
    const untimed = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 })).body.data;
    const onTime = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.data;
    const untimedOnTime = (await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 })).body.data;
    // No other test's sync may move these orders on: their provider is switched off.
    expect((await call(`admin/providers/${shop.providerId}`, { method: 'PUT', token: shop.admin.accessToken, body: { enabled: false } })).status).toBe(200);
    const ago = (seconds: number) => new Date(Date.now() - seconds * 1000);
    await withDb(async (db) => {
      await db.update(services).set({ averageTimeSeconds: 3600 }).where(eq(services.id, shop.serviceIds[FAKE.igLikes]));
      // Years ago, so these two come before any other test's stuck orders.
      await db
        .update(orders)
        .set({ submittedAt: new Date('2001-01-01T00:00:00Z') })
        .where(eq(orders.id, timed.id));
      await db
        .update(orders)
        .set({ submittedAt: new Date('2001-01-02T00:00:00Z') })
        .where(eq(orders.id, untimed.id));
      await db
        .update(orders)
        .set({ submittedAt: ago(3600) })
        .where(eq(orders.id, onTime.id));
      await db
        .update(orders)
        .set({ submittedAt: ago(STUCK_FALLBACK_SECONDS - 600) })
        .where(eq(orders.id, untimedOnTime.id));
    });
    const { stuckOrders } = (await call('admin/dashboard', { token: shop.admin.accessToken })).body.data;
    expect(stuckOrders.data.slice(0, 2).map((order: { id: number }) => order.id)).toEqual([timed.id, untimed.id]);
    expect(stuckOrders.data[0]).toMatchObject({ userEmail: user.email, status: 'Pending', expectedSeconds: 3600, openSince: '2001-01-01T00:00:00.000Z' });
    expect(stuckOrders.data[1].expectedSeconds).toBeNull();
    const listed = stuckOrders.data.map((order: { id: number }) => order.id);
    expect(listed).not.toContain(onTime.id);
    expect(listed).not.toContain(untimedOnTime.id);
    expect(stuckOrders.total).toBeGreaterThanOrEqual(2);
  });

  it('shows provider balances with their low-balance flag, orders by status and the latest audit entries', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const token = shop.admin.accessToken;
    expect((await call(`admin/providers/${shop.providerId}`, { method: 'PUT', token, body: { lowBalanceAlert: '1000000' } })).status).toBe(200);
    expect((await call(`admin/providers/${shop.providerId}/balance`, { token })).status).toBe(200);
    const dashboard = (await call('admin/dashboard', { token })).body.data;
    expect(dashboard.providers.find((provider: { id: number }) => provider.id === shop.providerId)).toMatchObject({
      lowBalance: true,
      lowBalanceAlert: '1000000.00',
    });
    expect(dashboard.providers[0]).not.toHaveProperty('apiKeyEncrypted');
    expect(Array.isArray(dashboard.ordersByStatus)).toBe(true);
    expect(typeof dashboard.pendingPayments).toBe('number');
    expect(dashboard.lastSync).toHaveProperty('catalogue');
    expect(dashboard.recentAudit.length).toBeGreaterThan(0);
    expect(dashboard.recentAudit.length).toBeLessThanOrEqual(10);
    expect(Object.keys(dashboard.recentAudit[0]).sort()).toEqual([
      'action',
      'actor',
      'created_at',
      'details',
      'id',
      'targetId',
      'targetProvider',
      'targetType',
      'targetUser',
    ]);
  });
});

describe('GET admin/audit', () => {
  it('filters by action, action area and actor, newest first, paginated', async () => {
    const admin = await createAdmin();
    const [first, second] = await Promise.all([registerAndLogin(), registerAndLogin()]);
    await call(`admin/users/${first.id}/suspend`, { method: 'POST', token: admin.accessToken });
    await call(`admin/users/${second.id}/suspend`, { method: 'POST', token: admin.accessToken });
    await call(`admin/users/${first.id}/reactivate`, { method: 'POST', token: admin.accessToken });

    const mine = await call(`admin/audit?actorId=${admin.id}&limit=2`, { token: admin.accessToken });
    expect(mine.body).toMatchObject({ total: 3, page: 1, limit: 2 });
    expect(mine.body.data.map((entry: { action: string; targetId: string }) => [entry.action, entry.targetId])).toEqual([
      ['user.reactivate', String(first.id)],
      ['user.suspend', String(second.id)],
    ]);
    expect(mine.body.data[0].actor).toEqual({ id: admin.id, fullName: 'Test Admin', email: admin.email });
    expect((await call(`admin/audit?actorId=${admin.id}&page=2&limit=2`, { token: admin.accessToken })).body.data).toHaveLength(1);
    expect((await call(`admin/audit?actorId=${admin.id}&action=user.suspend`, { token: admin.accessToken })).body.total).toBe(2);
    expect((await call(`admin/audit?actorId=${admin.id}&action=user`, { token: admin.accessToken })).body.total).toBe(3);
    expect((await call(`admin/audit?actorId=${admin.id}&action=wallet`, { token: admin.accessToken })).body.total).toBe(0);
  });

  it('validates its filters', async () => {
    const admin = await createAdmin();
    const get = (query: string) => call(`admin/audit?${query}`, { token: admin.accessToken });
    expect(await get('action=DROP%20TABLE')).toMatchObject({ status: 400, body: { message: 'action must look like wallet or wallet.credit' } });
    expect((await get('actorId=abc')).body.message).toBe('actorId must be a number');
    expect((await get('limit=500')).body.message).toBe('limit must be at most 100');
    expect((await get('page=0')).body.message).toBe('page must be at least 1');
  });
});
