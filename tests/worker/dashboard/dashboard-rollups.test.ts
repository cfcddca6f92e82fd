// The dashboard's daily figures are kept by the statements that write orders, payments, the ledger and users
// (migration 0019's triggers) and folded by the cron: after placing, closing and refunding orders, a card deposit,
// a refund of it, an administrator's credit, a promotion and a deleted account, they equal what the tables add up
// to, before the fold and after it.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import type { DbOrTx } from '../../../worker/db';
import { foldDashboardDays } from '../../../worker/services/dashboard';
import { call, registerAndLogin, rolledBack } from '../../support/api';
import { newLink, placeSubmittedOrder } from '../fixtures/order-fixtures';
import { depositByCard } from '../fixtures/paystack-fixtures';
import { FAKE, newShop } from '../fixtures/shop-fixtures';
import { fundedUser } from '../fixtures/wallet-fixtures';

type Figures = Record<string, string>;

/** Per "day|status": the figures as the tables add them up, counted here independently of the triggers. */
const FROM_TABLES = sql`
  select day::text || '|' || order_status as key, sum(deposits)::text as deposits, sum(transfers)::text as transfers, sum(reversed)::text as reversed,
    sum(credits)::text as credits, sum(spend)::text as spend, sum(cost)::text as cost, sum(orders)::text as orders, sum(new_users)::text as new_users
  from (
    select (created_at at time zone 'UTC')::date as day, status as order_status, 0 as deposits, 0 as transfers, 0 as reversed, 0 as credits,
      charge_kobo - refunded_kobo as spend, round(cost_kobo::numeric * (charge_kobo - refunded_kobo) / charge_kobo) as cost, 1 as orders, 0 as new_users
    from orders
    union all
    select (settled_at at time zone 'UTC')::date, '', amount_kobo - reversed_kobo, case when channel = 'bank_transfer' then amount_kobo - reversed_kobo else 0 end,
      reversed_kobo, 0, 0, 0, 0, 0
    from payment_intents where status = 'success' and settled_at is not null
    union all
    select (created_at at time zone 'UTC')::date, '', 0, 0, 0, amount_kobo, 0, 0, 0, 0 from wallet_transactions where source_kind = 'admin_credit' and transaction_type = 1
    union all
    select (created_at at time zone 'UTC')::date, '', 0, 0, 0, 0, 0, 0, 0, 1 from users where user_type = 2
  ) t
  group by day, order_status`;

const FROM_ROLLUPS = sql`
  select day::text || '|' || order_status as key, sum(deposits_kobo)::text as deposits, sum(bank_transfers_kobo)::text as transfers,
    sum(reversed_kobo)::text as reversed, sum(admin_credits_kobo)::text as credits, sum(spend_kobo)::text as spend, sum(cost_kobo)::text as cost,
    sum(orders)::text as orders, sum(new_users)::text as new_users
  from (select * from dashboard_days union all select day, order_status, deposits_kobo, bank_transfers_kobo, reversed_kobo, admin_credits_kobo,
    spend_kobo, cost_kobo, orders, new_users from dashboard_day_changes) f
  group by day, order_status`;

/** Every day's figures, the zero ones left out, keyed by day and status. */
const byKey = (rows: Figures[]) =>
  Object.fromEntries(rows.filter(({ key, ...figures }) => Object.values(figures).some((value) => value !== '0')).map(({ key, ...figures }) => [key, figures]));

/** Both sides in the transaction's one snapshot. */
async function bothSides(tx: DbOrTx) {
  const tables = await tx.execute<Figures>(FROM_TABLES);
  const rollups = await tx.execute<Figures>(FROM_ROLLUPS);
  return { tables: byKey(tables.rows), rollups: byKey(rollups.rows) };
}

describe('the dashboard figures per day', () => {
  it('equal what the tables add up to after every kind of write, before and after the fold', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const token = shop.admin.accessToken;
    const buyer = await fundedUser(5_000_000n);
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const placed = [];
    for (const quantity of [1000, 2000, 3000]) placed.push((await placeSubmittedOrder(buyer, { serviceId, link: newLink(), quantity })).body.data);
    const [kept, canceled, partial] = placed;
    expect((await call(`admin/orders/${kept.id}/status`, { token, body: { status: 'Completed' } })).status).toBe(200);
    expect((await call(`admin/orders/${canceled.id}/status`, { token, body: { status: 'Canceled' } })).status).toBe(200);
    expect((await call(`admin/orders/${partial.id}/status`, { token, body: { status: 'Partial', remains: 1000 } })).status).toBe(200);

    const payer = await registerAndLogin();
    const reference = await depositByCard(payer, 2500);
    const promoted = await registerAndLogin();
    const leaving = await fundedUser(300_000n);
    await placeSubmittedOrder(leaving, { serviceId, link: newLink(), quantity: 1000 });
    // Planted and compared in one repeatable-read transaction, rolled back: the refund recorded without its moves would
    // be a finding of every other test's books check, and other tests' writes, each committed with its figures, cannot
    // come between the two sides.
    await rolledBack(
      async (tx) => {
        // A refund the provider recorded against the deposit, a promotion to administrator, an account deleted with its orders and ledger.
        await tx.execute(sql`update payment_intents set reversed_kobo = 100000 where reference = ${reference}`);
        await tx.execute(sql`update users set user_type = 1 where id = ${promoted.id}`);
        await tx.execute(sql`delete from users where id = ${leaving.id}`);
        const before = await bothSides(tx);
        expect(before.rollups).toEqual(before.tables);
        expect((await foldDashboardDays(tx)).folded).toBeGreaterThan(0);
        const after = await bothSides(tx);
        expect(after.rollups).toEqual(after.tables);
      },
      { isolationLevel: 'repeatable read' },
    );
  });
});
