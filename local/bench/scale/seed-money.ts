// Seeding steps for the money of a batch: deposits, referrals and commissions, then the ledger and wallets built from them (seed.ts).

import type { SeedContext } from './seed-context';

/** Returns the id the batch's deposits start after; every deposit is over an hour old, so none is re-asked of the provider. */
export async function seedDeposits(ctx: SeedContext): Promise<number> {
  const { client, step, one, tag, v } = ctx;
  const pBase = Number((await one<{ m: string }>(`select coalesce(max(id), 0) as m from payment_intents`)).m);
  await step(
    'payment_intents',
    `insert into payment_intents (id, reference, user_id, provider, channel, amount_kobo, currency, status, checkout_url, provider_status, created_at, settled_at, last_checked_at)
     select $1::bigint + g.n, '${tag}-p' || g.n, su.id, case when g.n % 4 = 0 then 'flutterwave' else 'paystack' end,
       case when g.n % 10 = 0 then 'bank_transfer' else 'card' end, amount, 'NGN', status,
       'https://checkout.example.com/' || g.n, case status when 'success' then 'success' when 'failed' then 'failed' else 'ongoing' end,
       created, case when status = 'success' then created + interval '2 minutes' end, case when status <> 'pending' then created + interval '2 minutes' end
     from (select n, 1 + floor($2::int * power(random(), 2))::int as un, (1000 + (hashint4(n) & 262143)) * 100::bigint as amount,
             case when (hashint4(n * 7) & 1023) % 100 < 85 then 'success' when (hashint4(n * 7) & 1023) % 100 < 95 then 'failed' else 'pending' end as status
             from generate_series(1, $3::int) n) g
     join su on su.n = g.un
     cross join lateral (select su.created_at + (now() - interval '1 hour' - su.created_at) * power(random(), 0.6) as created) t`,
    [pBase, v.users, v.payments],
  );
  await client.query(`select setval(pg_get_serial_sequence('payment_intents', 'id'), (select max(id) from payment_intents))`);
  // One user in 20 past the first thousand signed up through one of the first thousand's links.
  await step(
    'referrals',
    `insert into referrals (referred_user_id, referrer_id, created_at)
     select r.id, ref.id, r.created_at from su r join su ref on ref.n = 1 + (r.n * 37) % 1000 where r.n > 1000 and r.n % 20 = 0`,
  );
  await step(
    'referral_commissions',
    `insert into referral_commissions (referrer_id, referred_user_id, payment_intent_id, deposit_kobo, commission_kobo, rate_bps, created_at, release_at, released_at, credited_kobo)
     select rf.referrer_id, p.user_id, p.id, p.amount_kobo, p.amount_kobo * 500 / 10000, 500, p.settled_at, p.settled_at + interval '14 days',
       case when p.settled_at + interval '14 days' < now() then p.settled_at + interval '14 days' end,
       case when p.settled_at + interval '14 days' < now() then p.amount_kobo * 500 / 10000 else 0 end
     from payment_intents p join referrals rf on rf.referred_user_id = p.user_id
     where p.id > $1::bigint and p.status = 'success'`,
    [pBase],
  );

  return pBase;
}

/** The ledger is staged per user in time order so each running balance can be computed in one window; wallets are its sums. */
export async function seedLedger(ctx: SeedContext, oBase: number, pBase: number): Promise<void> {
  const { client, step, one, tag, v, options } = ctx;
  await client.query(
    `create temp table sl (user_id int, created_at timestamptz, rank int, kind text, ref text, type smallint, amount bigint, description text)`,
  );
  await step(
    'ledger: orders',
    `insert into sl select o.user_id, o.created_at, 2, 'order', o.id::text, 2, o.charge_kobo, 'Order #' || o.id || ': ' || o.service_name || ' × ' || o.deliverable
     from orders o where o.id > $1::int`,
    [oBase],
  );
  await step(
    'ledger: refunds',
    `insert into sl select o.user_id, o.completed_at, 3, 'order_refund', o.id::text, 1, o.refunded_kobo, 'Refund for order #' || o.id
     from orders o where o.id > $1::int and o.refunded_kobo > 0`,
    [oBase],
  );
  await step(
    'ledger: deposits',
    `insert into sl select user_id, settled_at, 1, 'payment', reference, 1, amount_kobo, 'Wallet funding via ' || provider
     from payment_intents where id > $1::bigint and status = 'success'`,
    [pBase],
  );
  await step(
    'ledger: commissions',
    `insert into sl select c.referrer_id, c.released_at, 4, 'referral_commission', p.reference, 1, c.credited_kobo, 'Referral commission'
     from referral_commissions c join payment_intents p on p.id = c.payment_intent_id where p.id > $1::bigint and c.released_at is not null and c.credited_kobo > 0`,
    [pBase],
  );
  // Administrators' credits and debits (bank transfers booked by hand, corrections) fill the ledger to its volume.
  const { c: staged, u: ledgerUsers } = await one<{ c: string; u: string }>(`select count(*) as c, count(distinct user_id) as u from sl`);
  const filler = Math.max(0, v.ledgerRows - Number(staged) - Number(ledgerUsers));
  await step(
    'ledger: admin credits and debits',
    `insert into sl select su.id, su.created_at + (now() - su.created_at) * random(), 5,
       case when g.n % 6 = 0 then 'admin_debit' else 'admin_credit' end, '${tag}-a' || g.n, case when g.n % 6 = 0 then 2 else 1 end,
       (50 + (hashint4(g.n) & 4095)) * 100::bigint, case when g.n % 6 = 0 then 'Correction' else 'Bank transfer booked by hand' end
     from (select n, 1 + floor($1::int * power(random(), 3))::int as un from generate_series(1, $2::int) n) g join su on su.n = g.un`,
    [v.users, filler],
  );
  await step(
    'ledger: opening credits',
    `insert into sl
     select user_id, first_at - interval '1 minute', 0, 'admin_credit', '${tag}-open-' || user_id, 1, 100000 - min(bal), 'Opening balance'
     from (select user_id, min(created_at) over (partition by user_id) as first_at,
             sum(case type when 1 then amount else -amount end) over (partition by user_id order by created_at, rank, ref rows unbounded preceding) as bal
           from sl) r
     group by user_id, first_at having min(bal) < 0`,
  );
  // Credits never take a running balance below zero: more of them bring the ledger to its volume exactly.
  const { c: afterOpenings } = await one<{ c: string }>(`select count(*) as c from sl`);
  await step(
    'ledger: admin credits to the volume',
    `insert into sl select su.id, su.created_at + (now() - su.created_at) * random(), 6, 'admin_credit', '${tag}-x' || g.n, 1,
       (50 + (hashint4(g.n) & 4095)) * 100::bigint, 'Bank transfer booked by hand'
     from (select n, 1 + floor($1::int * power(random(), 3))::int as un from generate_series(1, $2::int) n) g join su on su.n = g.un`,
    [v.users, Math.max(0, v.ledgerRows - Number(afterOpenings))],
  );
  const lBase = Number((await one<{ m: string }>(`select coalesce(max(id), 0) as m from wallet_transactions`)).m);
  await step(
    'wallet_transactions',
    `insert into wallet_transactions (id, user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description, created_by, created_at)
     select $1::bigint + row_number() over (order by created_at, user_id, rank, ref), user_id, type, amount,
       sum(case type when 1 then amount else -amount end) over (partition by user_id order by created_at, rank, ref rows unbounded preceding),
       kind, ref, description, case when kind in ('admin_credit', 'admin_debit') then $2::int end, created_at
     from sl`,
    [lBase, options.adminId],
  );
  await client.query(`select setval(pg_get_serial_sequence('wallet_transactions', 'id'), (select max(id) from wallet_transactions))`);
  await step(
    'wallets',
    // Written last with its last ledger row, as ledger.ts keeps it: the reconciliation's recent run reads by it.
    `insert into wallets (user_id, balance_kobo, debt_kobo, updated_at)
     select su.id, coalesce(t.s, 0), 0, coalesce(t.last_at, su.created_at) from su
     left join (select user_id, sum(case type when 1 then amount else -amount end) as s, max(created_at) as last_at from sl group by user_id) t on t.user_id = su.id`,
  );
}
