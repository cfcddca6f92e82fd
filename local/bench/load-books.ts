// `npm run load`'s books, read after the load: the shop's own reconciliation over every wallet (the seeded ones
// included), then, in one snapshot straight in SQL, the users the load created (customers and resellers; the seeded
// users' rows are the reconciliation's alone):
//   - each user's balance is their credits - charges + refunds, by ledger source;
//   - each order has exactly one debit of its charge and a refund row exactly when it refunded;
//   - each deposit paid in the sandbox is credited once, each declined one never;
//   - each Idempotency-Key or request_id gave one order, created once, and `add` reached the provider at most once per order.
import { inArray, sql } from 'drizzle-orm';
import { orders, paymentIntents, walletTransactions } from '../../drizzle/schema';
import { openDatabase } from '../stack/node-db';
import type { RunningStack } from '../stack/stack';
import { type KeyOutcome, RECONCILIATION_SCOPE } from './load-settings';
import { callApi, type DepositPayload, type SignedInUser } from './shop-client';

export interface PreparedDeposit {
  user: SignedInUser;
  payload: DepositPayload;
  outcome: 'success' | 'failed';
}

export interface Check {
  name: string;
  problems: string[];
}

/** Waits (up to `seconds`) until none of the users' orders is queued or being sent; answers how many still are. */
export async function untilQueueDrained(stack: RunningStack, users: SignedInUser[], seconds: number): Promise<number> {
  const userIds = users.map((user) => user.id);
  const { db, close } = openDatabase({ DATABASE_URL: stack.databaseUrl, DB_WS_PROXY: stack.dbWsProxy });
  try {
    const deadline = Date.now() + seconds * 1000;
    for (;;) {
      const { rows } = await db.execute<{ waiting: number }>(
        sql`select count(*)::int as waiting from ${orders} where user_id in ${userIds} and submission in ('queued', 'sending')`,
      );
      if (rows[0].waiting === 0 || Date.now() >= deadline) return rows[0].waiting;
      await new Promise((resolve) => setTimeout(resolve, 5000));
    }
  } finally {
    await close();
  }
}

export async function checkBooks(
  stack: RunningStack,
  adminToken: string,
  /** Every user the load created: customers and resellers. */
  users: SignedInUser[],
  deposits: PreparedDeposit[],
  keys: Map<string, KeyOutcome>,
): Promise<{ checks: Check[]; submissions: Record<string, number> }> {
  const checks: Check[] = [];
  let submissions: Record<string, number> = {};
  const asked = RECONCILIATION_SCOPE === null ? 'admin/reconciliation' : `admin/reconciliation?scope=${RECONCILIATION_SCOPE}`;
  const reconciliationStarted = performance.now();
  const { data: reconciliation } = await callApi<{ data: { ok: boolean } & Record<string, unknown> }>(stack.url, 'GET', asked, { token: adminToken });
  const reconciliationSeconds = (performance.now() - reconciliationStarted) / 1000;
  checks.push({
    name: `reconciliation (GET ${asked}, ${reconciliationSeconds.toFixed(1)} s): each wallet equals its ledger, running balances follow, each successful payment credited once`,
    problems: reconciliation.ok ? [] : [JSON.stringify(reconciliation).slice(0, 2000)],
  });

  const userIds = users.map((user) => user.id);
  const { db, close } = openDatabase({ DATABASE_URL: stack.databaseUrl, DB_WS_PROXY: stack.dbWsProxy });
  try {
    // One snapshot for every check: the scheduled jobs may be refunding an order meanwhile.
    await db.transaction(
      async (tx) => {
        const balances = await tx.execute<{ user_id: number; balance: string; credits: string; charges: string; refunds: string; debits: string }>(sql`
        select w.user_id, w.balance_kobo as balance,
          coalesce(sum(t.amount_kobo) filter (where t.source_kind in ('payment', 'admin_credit')), 0) as credits,
          coalesce(sum(t.amount_kobo) filter (where t.source_kind = 'order'), 0) as charges,
          coalesce(sum(t.amount_kobo) filter (where t.source_kind = 'order_refund'), 0) as refunds,
          coalesce(sum(t.amount_kobo) filter (where t.source_kind = 'admin_debit'), 0) as debits
        from wallets w left join ${walletTransactions} t on t.user_id = w.user_id
        where w.user_id in ${userIds}
        group by w.user_id, w.balance_kobo`);
        checks.push({
          name: "each user's balance = credits - charges + refunds (- administrators' debits), and never negative",
          problems: balances.rows
            .filter(
              (row) => BigInt(row.balance) !== BigInt(row.credits) - BigInt(row.charges) + BigInt(row.refunds) - BigInt(row.debits) || BigInt(row.balance) < 0n,
            )
            .map(
              (row) =>
                `user ${row.user_id}: balance ${row.balance}, credits ${row.credits}, charges ${row.charges}, refunds ${row.refunds}, debits ${row.debits}`,
            ),
        });

        const orderMoney = await tx.execute<{
          id: number;
          charge: string;
          debits: number;
          debited: string;
          refunded: string;
          refund_rows: number;
          refund: string;
          via_api: boolean;
        }>(sql`
        select o.id, o.charge_kobo as charge, o.refunded_kobo as refunded, o.api_key_id is not null as via_api,
          (select count(*)::int from ${walletTransactions} d where d.source_kind = 'order' and d.source_ref = o.id::text) as debits,
          (select coalesce(sum(d.amount_kobo), 0) from ${walletTransactions} d where d.source_kind = 'order' and d.source_ref = o.id::text) as debited,
          (select count(*)::int from ${walletTransactions} r where r.source_kind = 'order_refund' and r.source_ref = o.id::text) as refund_rows,
          (select coalesce(sum(r.amount_kobo), 0) from ${walletTransactions} r where r.source_kind = 'order_refund' and r.source_ref = o.id::text) as refund
        from ${orders} o
        where o.user_id in ${userIds}`);
        const orphanDebits = await tx.execute<{ id: string; source_ref: string }>(sql`
        select t.id, t.source_ref from ${walletTransactions} t
        where t.user_id in ${userIds} and t.source_kind in ('order', 'order_refund')
          and not exists (select 1 from ${orders} o where o.id::text = t.source_ref and o.user_id = t.user_id)`);
        checks.push({
          name: `each of ${orderMoney.rows.length} orders (${orderMoney.rows.filter((row) => row.via_api).length} through the reseller API) is debited its charge once and refunded exactly what it records`,
          problems: [
            ...orderMoney.rows
              .filter(
                (row) =>
                  row.debits !== 1 ||
                  BigInt(row.debited) !== BigInt(row.charge) ||
                  BigInt(row.refund) !== BigInt(row.refunded) ||
                  row.refund_rows !== (BigInt(row.refunded) > 0n ? 1 : 0),
              )
              .map(
                (row) =>
                  `order ${row.id}: charge ${row.charge}, ${row.debits} debit(s) of ${row.debited}, refunded ${row.refunded} in ${row.refund_rows} row(s)`,
              ),
            ...orphanDebits.rows.map((row) => `ledger row ${row.id} names order ${row.source_ref}, which this user does not have`),
          ],
        });

        const references = deposits.map((deposit) => deposit.payload.reference);
        const payments = await tx.execute<{ reference: string; status: string; credits: number }>(sql`
        select p.reference, p.status, count(t.id)::int as credits
        from ${paymentIntents} p left join ${walletTransactions} t on t.source_kind = 'payment' and t.source_ref = p.reference
        where p.reference in ${references}
        group by p.reference, p.status`);
        const byReference = new Map(payments.rows.map((row) => [row.reference, row]));
        checks.push({
          name: `each of ${deposits.length} card deposits is credited once if paid, never if declined`,
          problems: deposits.flatMap(({ payload, outcome }) => {
            const row = byReference.get(payload.reference);
            const expected = outcome === 'success' ? 1 : 0;
            return row?.credits === expected && (outcome === 'success') === (row.status === 'success')
              ? []
              : [`${payload.reference} (${outcome} in the sandbox): ${row ? `${row.status}, credited ${row.credits} time(s)` : 'missing'}`];
          }),
        });

        // Not a check: how far the submissions queue got with the load's orders (each is charged when placed, sent after).
        const states = await tx.execute<{ submission: string; orders: number }>(sql`
        select submission, count(*)::int as orders from ${orders} where user_id in ${userIds} group by submission order by submission`);
        submissions = Object.fromEntries(states.rows.map((row) => [row.submission, row.orders]));

        const placed = await tx
          .select({ id: orders.id, key: orders.idempotencyKey, userId: orders.userId, link: orders.link })
          .from(orders)
          .where(inArray(orders.userId, userIds));
        const placedByKey = new Map(placed.map((order) => [`${order.userId}:${order.key}`, order]));
        const keyProblems: string[] = [];
        for (const { attempt, orderIds, created, statuses } of keys.values()) {
          const inDatabase = placedByKey.get(`${attempt.userId}:${attempt.key}`);
          if (orderIds.size > 1) keyProblems.push(`key ${attempt.key} answered orders ${[...orderIds].join(', ')}`);
          if (created > 1) keyProblems.push(`key ${attempt.key} created an order ${created} times`);
          if (orderIds.size === 1 && inDatabase?.id !== [...orderIds][0])
            keyProblems.push(`key ${attempt.key} answered order ${[...orderIds][0]}, the database has ${inDatabase?.id ?? 'none'}`);
          if (inDatabase && statuses.length > 0 && statuses.every((status) => status >= 400 && status < 500))
            keyProblems.push(`key ${attempt.key} was refused (${statuses.join(', ')}) yet placed order ${inDatabase.id}`);
        }
        const sentKeys = new Set([...keys.values()].map(({ attempt }) => `${attempt.userId}:${attempt.key}`));
        for (const [userKey, order] of placedByKey)
          if (!sentKeys.has(userKey)) keyProblems.push(`order ${order.id} has key ${order.key}, which the load never sent`);
        const fakeOrders = (await (await fetch(`${stack.fakes.smmProviderUrl}/__orders`)).json()) as { addCallsByLink: Record<string, number> };
        for (const order of placed) {
          const adds = fakeOrders.addCallsByLink[order.link] ?? 0;
          if (adds > 1) keyProblems.push(`order ${order.id} reached the provider ${adds} times`);
        }
        const resellerKeys = [...keys.values()].filter(({ attempt }) => attempt.via === 'reseller').length;
        checks.push({
          name: `each of ${keys.size - resellerKeys} Idempotency-Keys and ${resellerKeys} reseller request_ids placed one order at most once and sent \`add\` at most once`,
          problems: keyProblems,
        });
      },
      { isolationLevel: 'repeatable read', accessMode: 'read only' },
    );
  } finally {
    await close();
  }
  return { checks, submissions };
}
