// Seeding step for the orders of a batch, staged in a temp table first so tickets can pick orders by number (seed.ts).

import type { SeedContext } from './seed-context';

/** Returns the id the batch's orders start after. Users by a steep power law (user 1 the heaviest reseller), services by a milder one. */
export async function seedOrders(ctx: SeedContext): Promise<number> {
  const { client, step, one, tag, v } = ctx;
  const oBase = Number((await one<{ m: string }>(`select coalesce(max(id), 0) as m from orders`)).m);
  await step(
    'orders (staged)',
    `create temp table so as
     select g.n, $1::int + g.n as id, su.id as user_id, su.created_at as user_created, ss.id as service_id, ss.provider_id,
       ss.provider_service_id, ss.name as service_name, ss.type, ss.rate_kobo, ss.cost_kobo,
       case when ss.type in ('Package', 'Custom Comments Package') then 1 else 100 + (hashint4(g.n * 3) & 8191) end as quantity,
       g.bucket, g.open,
       case when g.open then now() - interval '2 days' * random()
            else su.created_at + (now() - interval '2 days' - su.created_at) * power(random(), 0.6) end as created_at
     from (select n, 1 + floor($2::int * power(random(), 3))::int as un, 1 + floor($3::int * power(random(), 2))::int as sn,
             (hashint4(n) & 1023) % 1000 as bucket, n > $4::int - $5::int as open
           from generate_series(1, $4::int) n) g
     join su on su.n = g.un join ss on ss.n = g.sn`,
    [oBase, v.users, v.services, v.orders, v.openOrders],
  );
  await step(
    'orders',
    `insert into orders (id, user_id, service_id, provider_id, provider_service_id, service_name, link, quantity, deliverable, extras,
       rate_kobo, cost_kobo, charge_kobo, refunded_kobo, status, status_reason, submission, submit_attempts, submission_started_at, submitted_at,
       provider_order_id, start_count, remains, provider_charge_micros, last_synced_at, completed_at, created_at, updated_at)
     overriding system value
     select id, user_id, service_id, provider_id, provider_service_id, service_name,
       case when n % 5 = 0 then 'https://www.tiktok.com/@' || substr(md5(n::text), 1, 10) else 'https://instagram.com/p/' || substr(md5(n::text), 1, 11) end,
       quantity, quantity, '{}'::jsonb, rate_kobo, cost_kobo, charge,
       case status when 'Canceled' then charge when 'Partial' then greatest(1, charge * remains / quantity) else 0 end,
       status, case when status = 'Canceled' then 'Canceled by the provider' end, submission, 1,
       case when submission <> 'withdrawn' then created_at end, case when submission in ('accepted', 'rejected') then created_at + interval '3 seconds' end,
       case when submission = 'accepted' then '${tag}-' || n end, case when submission = 'accepted' then (hashint4(n) & 65535) end,
       case when status in ('Partial') then remains when status = 'Completed' then 0 when open then quantity / 2 end,
       case when submission = 'accepted' then charge * 5 end,
       case when open then now() - interval '20 minutes' * random() when submission = 'accepted' then closed_at end,
       case when not open and status <> 'Pending Submission' then closed_at end, created_at, coalesce(closed_at, created_at)
     from (
       select so.*, greatest(1, rate_kobo * quantity / 1000) as charge, 1 + quantity / 3 as remains,
         case when open then (array['Pending', 'In progress', 'Processing'])[1 + n % 3]
              when n <= 10 then 'Pending Submission'
              when bucket < 780 then 'Completed' when bucket < 840 then 'Partial' when bucket < 930 then 'Canceled' else 'Completed' end as status,
         case when n <= 10 then 'unknown' when not open and bucket between 900 and 919 then 'rejected'
              when not open and bucket between 920 and 929 then 'withdrawn' else 'accepted' end as submission,
         case when open then null else least(now(), created_at + interval '1 hour' + interval '30 hours' * random()) end as closed_at
       from so) o`,
    [],
  );
  await client.query(`select setval(pg_get_serial_sequence('orders', 'id'), (select max(id) from orders))`);
  return oBase;
}
