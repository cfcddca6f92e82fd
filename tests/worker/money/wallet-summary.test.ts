// Ledger rows named for what they are, totals that keep deposits, refunds, administrators' credits
// and spending apart, and the user-detail order counts taken over all of a user's orders.
import { env } from 'cloudflare:test';
import { sql } from 'drizzle-orm';
import { beforeAll, describe, expect, it } from 'vitest';
import { orderCountsOf } from '../../../worker/services/accounts/admin-users';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { call, countingRoundTrips, createAdmin, registerAndLogin, type TestAccount, unique, withDb } from '../../support/api';
import { newLink, orderRow, placeSubmittedOrder } from '../fixtures/order-fixtures';
import { depositByCard } from '../fixtures/paystack-fixtures';
import { FAKE, newShop, type Shop } from '../fixtures/shop-fixtures';

const koboOf = (naira: string) => BigInt(naira.replace('.', ''));
const naira = (kobo: bigint) => `${kobo / 100n}.${(kobo % 100n).toString().padStart(2, '0')}`;

describe('a wallet that saw every kind of money', () => {
  let shop: Shop;
  let admin: TestAccount;
  let user: TestAccount;
  let orderId: number;
  let chargeKobo: bigint;
  let refundKobo: bigint;

  beforeAll(async () => {
    shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    admin = shop.admin;
    user = await registerAndLogin();
    const credited = await call('user/admin-credit-user-wallet', {
      token: admin.accessToken,
      body: { amount: 20_000, reference: unique('bank '), userId: user.id },
    });
    expect(credited.status).toBe(200);
    await depositByCard(user, 5000);
    const placed = await placeSubmittedOrder(user, { serviceId: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 });
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    orderId = placed.body.data.id;
    chargeKobo = koboOf(placed.body.data.charge);
    // A quarter undelivered: the refund is floor(charge × 250 / 1000).
    await shop.fake.post(`/__orders/${(await orderRow(orderId)).providerOrderId}`, { status: 'Partial', remains: 250 });
    await withDb((db) => syncOrders(db, env));
    refundKobo = (await orderRow(orderId)).refundedKobo;
    expect(refundKobo).toBe((chargeKobo * 250n) / 1000n);
    const debited = await call('admin/wallet/debit', {
      token: admin.accessToken,
      body: { amount: 300, reference: unique('fix '), reason: 'Duplicate bank transfer', userId: user.id },
    });
    expect(debited.status).toBe(200);
  });

  const expectedRows = () => [
    { description: 'Debit by administrator', transaction_type: 2, amount: '300.00', note: expect.stringContaining('Duplicate bank transfer') },
    { description: `Refund for order #${orderId}`, transaction_type: 1, amount: naira(refundKobo) },
    { description: `Order #${orderId}`, transaction_type: 2, amount: naira(chargeKobo), note: expect.stringContaining(`Order #${orderId}`) },
    { description: 'Deposit by card (Paystack)', transaction_type: 1, amount: '5000.00' },
    { description: 'Credit by administrator', transaction_type: 1, amount: '20000.00' },
  ];

  // What the user's summary and the administrator's user detail both total.
  const expectedTotals = () => ({
    totalDeposits: '5000.00',
    totalSpent: naira(chargeKobo - refundKobo),
    totalRefunds: naira(refundKobo),
    totalAdminCredits: '20000.00',
    totalAdminDebits: '300.00',
    totalCardReversals: '0.00',
  });

  it("names each row in the user's transactions for what it is, keeping its type", async () => {
    const history = await call('user/transactions', { token: user.accessToken });
    expect(history.status).toBe(200);
    expect(history.body.data).toEqual(expectedRows().map((row) => expect.objectContaining(row)));
  });

  it('names the rows the same way for administrators, in the ledger and the user detail', async () => {
    const ledger = await call(`admin/transactions?userId=${user.id}`, { token: admin.accessToken });
    expect(ledger.body.data).toEqual(expectedRows().map((row) => expect.objectContaining(row)));
    const detail = await call(`admin/getUserDeta/${user.id}`, { token: admin.accessToken });
    expect(detail.body.walletHistory).toEqual(expectedRows().map((row) => expect.objectContaining(row)));
  });

  it("totals card deposits, refunds, administrators' entries and spending apart for the user", async () => {
    const summary = await call('user/wallet-summary', { token: user.accessToken });
    expect(summary.status).toBe(200);
    expect(summary.body.data).toEqual(expectedTotals());
    const tomorrow = new Date(Date.now() + 86_400_000).toISOString().slice(0, 10);
    expect((await call(`user/wallet-summary?from=${tomorrow}`, { token: user.accessToken })).body.data).toMatchObject({
      totalDeposits: '0.00',
      totalSpent: '0.00',
      totalRefunds: '0.00',
    });
    expect((await call('user/wallet-summary?from=soon', { token: user.accessToken })).status).toBe(400);
    expect((await call('user/wallet-summary')).status).toBe(401);
  });

  it('reads the whole history from the sums the ledger statements keep per kind, equal to the rows; a range reads the rows', async () => {
    const [kept, summed] = await withDb((db) =>
      Promise.all([
        db.execute(sql`select source_kind, amount_kobo::text as kobo from wallet_ledger_sums where user_id = ${user.id} order by source_kind`),
        db.execute(
          sql`select source_kind, sum(amount_kobo)::text as kobo from wallet_transactions where user_id = ${user.id} group by source_kind order by source_kind`,
        ),
      ]),
    );
    expect(kept.rows.map((row) => row.source_kind)).toEqual(['admin_credit', 'admin_debit', 'order', 'order_refund', 'payment']);
    expect(kept.rows).toEqual(summed.rows);
    const today = new Date().toISOString().slice(0, 10);
    const ranged = await call(`user/wallet-summary?from=2020-01-01&to=${today}`, { token: user.accessToken });
    expect(ranged.body.data).toEqual(expectedTotals());
  });

  it('gives the administrator the same totals with the balance, which they add up to', async () => {
    const { summary } = (await call(`admin/getUserDeta/${user.id}`, { token: admin.accessToken })).body;
    const balanceKobo = 500_000n + 2_000_000n - 30_000n - (chargeKobo - refundKobo);
    expect(summary).toEqual({ availableBalance: naira(balanceKobo), ...expectedTotals(), debt: '0.00' });
  });
});

describe('user-detail order counts', () => {
  it('count every order by status, past the newest 100 the screen lists, in one query', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await registerAndLogin();
    const serviceId = shop.serviceIds[FAKE.igFollowers];
    // The 70 oldest are Completed, so the newest 100 alone would count only 40 of them. Rejected
    // submissions, so no queue sweep ever picks these rows up.
    await withDb((db) =>
      db.execute(sql`
      insert into orders (user_id, service_id, provider_id, provider_service_id, service_name, link, quantity, deliverable, rate_kobo, cost_kobo, charge_kobo, status, submission, created_at)
      select ${user.id}, ${serviceId}, ${shop.providerId}, ${FAKE.igFollowers}, 'Instagram Followers', 'https://instagram.com/p/count' || g, 100, 100, 1000, 500, 100,
        case when g <= 70 then 'Completed' when g <= 110 then 'Pending Submission' else 'Canceled' end, 'rejected', now() - (200 - g) * interval '1 minute'
      from generate_series(1, 130) g`),
    );

    const detail = await call(`admin/getUserDeta/${user.id}`, { token: shop.admin.accessToken });
    expect(detail.status).toBe(200);
    expect(detail.body.orders).toHaveLength(100);
    expect(detail.body.orderCounts).toEqual({ total: 130, byStatus: { Completed: 70, 'Pending Submission': 40, Canceled: 20 } });

    const { result, httpCalls, webSockets } = await countingRoundTrips((db) => orderCountsOf(db, user.id));
    expect(result.total).toBe(130);
    expect({ httpCalls, webSockets }).toEqual({ httpCalls: 1, webSockets: 0 });
  });

  it('are zero for a user without orders', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    expect((await call(`admin/getUserDeta/${user.id}`, { token: admin.accessToken })).body.orderCounts).toEqual({ total: 0, byStatus: {} });
  });
});
