// The books, checked with direct SQL after every step, in one consistent snapshot (the Worker keeps
// working meanwhile: queue consumers, late webhooks, requests the simulator hung up on):
//   - each wallet's balance equals its ledger (credits − debits) and its last row's running balance,
//     and is never below zero; the sums per kind its statements keep (wallet_ledger_sums) are its rows' sums;
//   - money is conserved: payment and administrator credits − order charges + order refunds −
//     administrator debits − chargebacks + their returns − debt settlements + referral commissions −
//     their reversals + their returns (+ any other kind by its direction) = the balances; each kind moves
//     money in its own direction, and each total matches its source (paid intents, order charges,
//     refunds, reversal moves, released commissions);
//   - each deposit (card or bank transfer) is credited at most once, with its own amount, to its own payer,
//     and only if paid: declined and abandoned ones never (after the drain, every paid one exactly once,
//     but for one the provider reversed in full before the shop credited it, which it may never credit);
//   - refunds, disputes and referral commissions: invariants-money.ts;
//   - each order is debited its charge exactly once; its refunds are one row at most, equal what it
//     records, never more than its charge, none while it is open; once closed, they are what
//     refundOwed (worker/services/orders/order-refunds.ts, the shop's own rule) says its status and remains owe;
//   - an order's submission state fits its status;
//   - every answer under one Idempotency-Key named the same order, created once, the one the database has;
//   - `add` reached the panel at most once per order (the sandbox panel counts calls per link), not
//     counting calls it refused ({"error"}: certainly no order, so holding and retrying is safe);
//   - the dashboard's figures per day (kept by the writing statements' triggers, folded by the cron) are what
//     the orders, payments, ledger and users add up to, for the whole shop.
import { type FinalStatus, refundOwed } from '../../worker/services/orders';
import { checkCommissions, checkPayments, checkReversalMoves, type Query } from './invariants-money';
import { eventsOf, reversedInFullAtProvider } from './provider-truth';
import { providerLinkOf, seedUserIds } from './targets';
import type { Sim } from './world';

const FINAL = ['Completed', 'Partial', 'Canceled'];
const AT_PROVIDER = ['Pending', 'In progress', 'Processing'];
/** Ledger kinds and the direction each moves money (1 credit, 2 debit); kinds added later are checked by their own direction. */
const DIRECTION: Record<string, 1 | 2> = {
  payment: 1,
  admin_credit: 1,
  order_refund: 1,
  order: 2,
  admin_debit: 2,
  chargeback: 2,
  chargeback_return: 1,
  debt_settlement: 2,
  referral_commission: 1,
  commission_reversal: 2,
  commission_return: 1,
};

interface OrderRow {
  id: number;
  userId: number;
  status: string;
  submission: string;
  providerOrderId: string | null;
  charge: string;
  refunded: string;
  quantity: number;
  deliverable: number;
  extras: Record<string, unknown>;
  remains: number | null;
  link: string;
  key: string | null;
  debits: number;
  debited: string;
  debitUsers: number[] | null;
  refundRows: number;
  refundTotal: string;
}

export interface CheckOptions {
  /** After the drain: every paid deposit credited exactly once, and every wallet of the shop checked, not only this seed's. */
  final?: boolean;
}

export async function checkBooks(sim: Sim, options: CheckOptions = {}): Promise<string[]> {
  const ids = seedUserIds(sim);
  if (ids.length === 0) return [];
  const problems: string[] = [];
  await sim.pg.query('begin isolation level repeatable read read only');
  try {
    const query: Query = async (text, values) => (await sim.pg.query(text, values)).rows;
    await checkWallets(query, options.final ? null : ids, problems);
    await checkLedgerSums(query, options.final ? null : ids, problems);
    await checkConservation(query, ids, problems);
    await checkDeposits(sim, query, ids, options, problems);
    await checkReversalMoves(query, ids, problems);
    const payments = await checkPayments(sim, query, ids, problems);
    await checkCommissions(sim, query, ids, payments, options.final ?? false, problems);
    const orders = await checkOrders(query, ids, problems);
    checkKeys(sim, orders, problems);
    await checkAdds(sim, orders, problems);
    await checkDashboardDays(query, problems);
  } finally {
    await sim.pg.query('commit');
  }
  return problems;
}

async function checkWallets(query: Query, ids: number[] | null, problems: string[]): Promise<void> {
  const rows = await query<{ user_id: number; balance: string; ledger: string; last_after: string | null }>(
    `
    select w.user_id, w.balance_kobo::text as balance, coalesce(l.net, 0)::text as ledger, l.last_after::text as last_after
    from wallets w left join (
      select user_id, sum(case when transaction_type = 1 then amount_kobo else -amount_kobo end) as net,
        (array_agg(balance_after_kobo order by id desc))[1] as last_after
      from wallet_transactions ${ids ? 'where user_id = any($1::int[])' : ''} group by user_id
    ) l on l.user_id = w.user_id
    where (${ids ? 'w.user_id = any($1::int[])' : 'true'})
      and (w.balance_kobo <> coalesce(l.net, 0) or w.balance_kobo < 0 or l.last_after <> w.balance_kobo)`,
    ids ? [ids] : [],
  );
  for (const row of rows) {
    problems.push(`wallet of user ${row.user_id}: balance ${row.balance}, its ledger sums to ${row.ledger}, its last row says ${row.last_after ?? 'nothing'}`);
  }
}

/** Per user and kind, the sums the ledger's statements keep (wallet_ledger_sums, the wallet summaries' source) against the ledger's rows. */
async function checkLedgerSums(query: Query, ids: number[] | null, problems: string[]): Promise<void> {
  const scope = (column: string) => (ids ? `where ${column} = any($1::int[])` : '');
  const rows = await query<{ user_id: number; kind: string; kept: string | null; ledger: string | null }>(
    `
    select coalesce(l.user_id, k.user_id) as user_id, coalesce(l.source_kind, k.source_kind) as kind, k.amount_kobo::text as kept, l.total::text as ledger
    from (select user_id, source_kind, sum(amount_kobo) as total from wallet_transactions ${scope('user_id')} group by user_id, source_kind) l
    full join (select user_id, source_kind, amount_kobo from wallet_ledger_sums ${scope('user_id')}) k on k.user_id = l.user_id and k.source_kind = l.source_kind
    where k.amount_kobo is distinct from l.total`,
    ids ? [ids] : [],
  );
  for (const row of rows) {
    problems.push(`ledger sum of user ${row.user_id} for ${row.kind}: kept ${row.kept ?? 'nothing'}, its rows add up to ${row.ledger ?? 'nothing'}`);
  }
}

async function checkConservation(query: Query, ids: number[], problems: string[]): Promise<void> {
  const kinds = await query<{ kind: string; type: number; total: string }>(
    `
    select source_kind as kind, transaction_type as type, sum(amount_kobo)::text as total
    from wallet_transactions where user_id = any($1::int[]) group by 1, 2`,
    [ids],
  );
  const sum = (kind: string) => kinds.filter((row) => row.kind === kind).reduce((total, row) => total + BigInt(row.total), 0n);
  let others = 0n;
  for (const row of kinds) {
    const direction = DIRECTION[row.kind];
    if (direction !== undefined && direction !== row.type)
      problems.push(`ledger rows of kind ${row.kind} moving money the wrong way (type ${row.type}): ${row.total} kobo`);
    if (direction === undefined) others += row.type === 1 ? BigInt(row.total) : -BigInt(row.total);
  }
  const [sources] = await query<Record<string, string>>(
    `
    select (select coalesce(sum(balance_kobo), 0) from wallets where user_id = any($1::int[]))::text as balances,
      (select coalesce(sum(amount_kobo), 0) from payment_intents where status = 'success' and user_id = any($1::int[]))::text as paid,
      (select coalesce(sum(charge_kobo), 0) from orders where user_id = any($1::int[]))::text as charged,
      (select coalesce(sum(refunded_kobo), 0) from orders where user_id = any($1::int[]))::text as refunded,
      (select coalesce(sum(credited_kobo), 0) from referral_commissions where referrer_id = any($1::int[]))::text as referral_commission,
      (select coalesce(sum(taken_kobo), 0) from payment_reversal_moves where party = 'payer' and user_id = any($1::int[]))::text as chargeback,
      (select coalesce(sum(returned_kobo), 0) from payment_reversal_moves where party = 'payer' and user_id = any($1::int[]))::text as chargeback_return,
      (select coalesce(sum(taken_kobo), 0) from payment_reversal_moves where party = 'referrer' and user_id = any($1::int[]))::text as commission_reversal,
      (select coalesce(sum(returned_kobo), 0) from payment_reversal_moves where party = 'referrer' and user_id = any($1::int[]))::text as commission_return`,
    [ids],
  );
  const signed = Object.entries(DIRECTION).map(([kind, direction]) => (direction === 1 ? sum(kind) : -sum(kind)));
  const moved = signed.reduce((total, value) => total + value, others);
  if (moved !== BigInt(sources.balances)) {
    const terms = Object.entries(DIRECTION)
      .map(([kind, direction]) => `${direction === 1 ? '+' : '−'} ${kind} ${sum(kind)}`)
      .join(' ');
    problems.push(`money not conserved: ${terms} (other kinds ${others}) = ${moved}, the balances hold ${sources.balances}`);
  }
  for (const kind of ['referral_commission', 'chargeback', 'chargeback_return', 'commission_reversal', 'commission_return'])
    if (sum(kind) !== BigInt(sources[kind])) problems.push(`${kind} ledger rows total ${sum(kind)} kobo, what they stand for totals ${sources[kind]}`);
  if (sum('payment') !== BigInt(sources.paid)) problems.push(`payment credits ${sum('payment')} ≠ paid deposits ${sources.paid}`);
  if (sum('order') !== BigInt(sources.charged)) problems.push(`order debits ${sum('order')} ≠ order charges ${sources.charged}`);
  if (sum('order_refund') !== BigInt(sources.refunded))
    problems.push(`order refund credits ${sum('order_refund')} ≠ refunds the orders record ${sources.refunded}`);
}

async function checkDeposits(sim: Sim, query: Query, ids: number[], options: CheckOptions, problems: string[]): Promise<void> {
  const rows = await query<{
    reference: string;
    status: string;
    user_id: number;
    amount: string;
    credits: number;
    credited: string;
    same_user: boolean | null;
    provider_status: string | null;
  }>(
    `
    select p.reference, p.status, p.provider_status, p.user_id, p.amount_kobo::text as amount, count(t.id)::int as credits,
      coalesce(sum(t.amount_kobo), 0)::text as credited, bool_and(t.user_id = p.user_id) as same_user
    from payment_intents p left join wallet_transactions t on t.source_kind = 'payment' and t.source_ref = p.reference
    where p.user_id = any($1::int[])
    group by p.reference, p.status, p.provider_status, p.user_id, p.amount_kobo`,
    [ids],
  );
  const byReference = new Map(rows.map((row) => [row.reference, row]));
  for (const row of rows) {
    if (row.credits > 1) problems.push(`deposit ${row.reference} credited ${row.credits} times`);
    if ((row.status === 'success') !== (row.credits === 1)) problems.push(`deposit ${row.reference} is ${row.status} and credited ${row.credits} time(s)`);
    if (row.credits === 1 && (row.credited !== row.amount || !row.same_user))
      problems.push(`deposit ${row.reference} of ${row.amount} kobo by user ${row.user_id} credited ${row.credited} kobo to another user or amount`);
  }
  for (const deposit of sim.world.deposits) {
    const row = byReference.get(deposit.reference);
    const credits = row?.credits ?? 0;
    if (deposit.outcome !== 'success' && credits > 0) problems.push(`deposit ${deposit.reference} was ${deposit.outcome} at the checkout, yet credited`);
    if (row && row.user_id !== deposit.userId)
      problems.push(`deposit ${deposit.reference} was paid by user ${deposit.userId}, the shop has it as user ${row.user_id}'s`);
    const neverOwed = credits === 0 && reversedInFullAtProvider(sim.world, deposit);
    if (options.final && deposit.outcome === 'success' && credits !== 1 && !neverOwed)
      problems.push(
        `${deposit.channel === 'bank_transfer' ? 'transfer' : 'deposit'} ${deposit.reference} was paid, and after the drain is credited ${credits} times` +
          ` (the shop has it ${row ? `${row.status}, provider status ${row.provider_status}` : 'nowhere'}; its refund and dispute events: ${
            eventsOf(sim.world, deposit)
              .map((event) => `${event.record.event}#${event.record.id} ${event.state} ${event.amountKobo} ${event.delivery}`)
              .join(', ') || 'none'
          })`,
      );
  }
  const orphans = await query<{ id: string; source_ref: string }>(
    `
    select t.id::text, t.source_ref from wallet_transactions t
    where t.source_kind = 'payment' and t.user_id = any($1::int[]) and not exists (select 1 from payment_intents p where p.reference = t.source_ref)`,
    [ids],
  );
  for (const row of orphans) problems.push(`ledger row ${row.id} credits payment ${row.source_ref}, which no deposit has`);
}

/** What refundOwed, the shop's own rule, says a closed order owes given the status and remains it closed with. */
function ruleProblem(order: OrderRow): string | null {
  const owed = refundOwed(
    { chargeKobo: BigInt(order.charge), quantity: order.quantity, deliverable: order.deliverable, extras: order.extras },
    order.status as FinalStatus,
    { remains: order.remains },
  );
  if (owed.status === null)
    return `closed ${order.status} with remains ${order.remains}, which the refund rule cannot close on (${owed.problem}); refunded ${order.refunded}`;
  if (owed.status !== order.status || owed.refundKobo !== BigInt(order.refunded) || owed.remains !== order.remains) {
    return `closed ${order.status} with remains ${order.remains} of ${order.deliverable} and refunded ${order.refunded} of ${order.charge} kobo; the rule says ${owed.status} with remains ${owed.remains}, refund ${owed.refundKobo}`;
  }
  return null;
}

async function checkOrders(query: Query, ids: number[], problems: string[]): Promise<OrderRow[]> {
  const orders = await query<OrderRow & Record<string, unknown>>(
    `
    select o.id, o.user_id as "userId", o.status, o.submission, o.provider_order_id as "providerOrderId", o.charge_kobo::text as charge,
      o.refunded_kobo::text as refunded, o.quantity, o.deliverable, o.extras, o.remains, o.link, o.idempotency_key as key,
      d.n as debits, d.total as debited, d.users as "debitUsers", r.n as "refundRows", r.total as "refundTotal"
    from orders o
    left join lateral (select count(*)::int as n, coalesce(sum(amount_kobo), 0)::text as total, array_agg(distinct user_id) as users
      from wallet_transactions where source_kind = 'order' and source_ref = o.id::text) d on true
    left join lateral (select count(*)::int as n, coalesce(sum(amount_kobo), 0)::text as total
      from wallet_transactions where source_kind = 'order_refund' and source_ref = o.id::text) r on true
    where o.user_id = any($1::int[])
    order by o.id`,
    [ids],
  );
  for (const order of orders) {
    const say = (what: string) => problems.push(`order ${order.id} (${order.status}, submission ${order.submission}): ${what}`);
    if (order.debits !== 1 || order.debited !== order.charge) say(`charged ${order.charge} kobo, debited ${order.debits} time(s) for ${order.debited}`);
    if (order.debitUsers?.some((user) => user !== order.userId)) say(`debited from users ${order.debitUsers.join(', ')}, not its owner ${order.userId}`);
    if (order.refundRows > 1 || order.refundTotal !== order.refunded)
      say(`records a refund of ${order.refunded} kobo, the ledger has ${order.refundRows} row(s) for ${order.refundTotal}`);
    if (BigInt(order.refunded) > BigInt(order.charge) || BigInt(order.refunded) < 0n) say(`refunded ${order.refunded} of a ${order.charge} kobo charge`);
    if (FINAL.includes(order.status)) {
      const problem = ruleProblem(order);
      if (problem) say(problem);
    } else if (order.refunded !== '0') {
      say(`still open, yet refunded ${order.refunded}`);
    }
    if (AT_PROVIDER.includes(order.status) && (order.submission !== 'accepted' || order.providerOrderId === null))
      say(`at the provider without an accepted submission (provider order ${order.providerOrderId})`);
    if (order.status === 'Pending Submission' && !['queued', 'sending', 'unknown'].includes(order.submission))
      say('not yet at the provider, yet its submission is settled');
    if (order.submission === 'accepted' && order.providerOrderId === null) say('accepted without a provider order id');
  }
  const orphans = await query<{ id: string; source_kind: string; source_ref: string }>(
    `
    select t.id::text, t.source_kind, t.source_ref from wallet_transactions t
    where t.source_kind in ('order', 'order_refund') and t.user_id = any($1::int[])
      and not exists (select 1 from orders o where o.id::text = t.source_ref and o.user_id = t.user_id)`,
    [ids],
  );
  for (const row of orphans) problems.push(`ledger row ${row.id} (${row.source_kind}) names order ${row.source_ref}, which its user does not have`);
  return orders;
}

function checkKeys(sim: Sim, orders: OrderRow[], problems: string[]): void {
  const byKey = new Map(orders.filter((order) => order.key !== null).map((order) => [`${order.userId}:${order.key}`, order.id]));
  for (const record of sim.world.keys.values()) {
    const stored = byKey.get(`${record.userId}:${record.key}`);
    if (record.orderIds.size > 1) problems.push(`Idempotency-Key ${record.key} was answered with orders ${[...record.orderIds].join(', ')}`);
    if (record.created > 1) problems.push(`Idempotency-Key ${record.key} created an order ${record.created} times`);
    for (const id of record.orderIds)
      if (id !== stored) problems.push(`Idempotency-Key ${record.key} was answered with order ${id}; the database has ${stored ?? 'none'} for it`);
  }
}

async function checkAdds(sim: Sim, orders: OrderRow[], problems: string[]): Promise<void> {
  const response = await fetch(`${sim.stack.smmProviderUrl}/__adds?min=2`);
  const { adds } = (await response.json()) as { adds: Record<string, { calls: number; unrefused: number }> };
  for (const order of orders) {
    const link = providerLinkOf(order);
    const counted = adds[link];
    if (counted && counted.unrefused > 1)
      problems.push(`order ${order.id}: \`add\` reached the provider ${counted.calls} times for ${link}, ${counted.unrefused} of them not refused`);
  }
}

/** Per day and order status, the dashboard's figures as the tables add them up, and as dashboard_days and its unfolded changes hold them. */
async function checkDashboardDays(query: Query, problems: string[]): Promise<void> {
  const figures = 'deposits, transfers, reversed, credits, spend, cost, orders, new_users';
  const rows = await query<{ day: string; status: string; tables: string | null; rollups: string | null }>(`
    with from_tables as (
      select day, status, sum(deposits) as deposits, sum(transfers) as transfers, sum(reversed) as reversed, sum(credits) as credits,
        sum(spend) as spend, sum(cost) as cost, sum(orders) as orders, sum(new_users) as new_users
      from (
        select (created_at at time zone 'UTC')::date as day, status, 0 as deposits, 0 as transfers, 0 as reversed, 0 as credits,
          charge_kobo - refunded_kobo as spend, round(cost_kobo::numeric * (charge_kobo - refunded_kobo) / charge_kobo) as cost, 1 as orders, 0 as new_users
        from orders
        union all
        select (settled_at at time zone 'UTC')::date, '', amount_kobo - reversed_kobo,
          case when channel = 'bank_transfer' then amount_kobo - reversed_kobo else 0 end, reversed_kobo, 0, 0, 0, 0, 0
        from payment_intents where status = 'success' and settled_at is not null
        union all
        select (created_at at time zone 'UTC')::date, '', 0, 0, 0, amount_kobo, 0, 0, 0, 0 from wallet_transactions where source_kind = 'admin_credit' and transaction_type = 1
        union all
        select (created_at at time zone 'UTC')::date, '', 0, 0, 0, 0, 0, 0, 0, 1 from users where user_type = 2
      ) t group by day, status
    ),
    from_rollups as (
      select day, order_status as status, sum(deposits_kobo) as deposits, sum(bank_transfers_kobo) as transfers, sum(reversed_kobo) as reversed,
        sum(admin_credits_kobo) as credits, sum(spend_kobo) as spend, sum(cost_kobo) as cost, sum(orders) as orders, sum(new_users) as new_users
      from (
        select day, order_status, deposits_kobo, bank_transfers_kobo, reversed_kobo, admin_credits_kobo, spend_kobo, cost_kobo, orders, new_users from dashboard_days
        union all
        select day, order_status, deposits_kobo, bank_transfers_kobo, reversed_kobo, admin_credits_kobo, spend_kobo, cost_kobo, orders, new_users from dashboard_day_changes
      ) r group by day, order_status
    )
    select coalesce(t.day, r.day)::text as day, coalesce(t.status, r.status) as status,
      row(${figures
        .split(', ')
        .map((name) => `t.${name}`)
        .join(', ')})::text as tables,
      row(${figures
        .split(', ')
        .map((name) => `r.${name}`)
        .join(', ')})::text as rollups
    from from_tables t full join from_rollups r on r.day = t.day and r.status = t.status
    where row(${figures
      .split(', ')
      .map((name) => `coalesce(t.${name}, 0)`)
      .join(', ')}) is distinct from row(${figures
      .split(', ')
      .map((name) => `coalesce(r.${name}, 0)`)
      .join(', ')})`);
  for (const row of rows)
    problems.push(
      `dashboard figures of ${row.day}${row.status ? ` (${row.status})` : ''}: the tables add up to (${figures}) ${row.tables}, the rollups hold ${row.rollups}`,
    );
}
