// Seeding steps for support and follow-up of a batch: tickets and their messages, notifications, the audit log (seed.ts).

import type { SeedContext } from './seed-context';

/** Tickets: 60% about staged orders, the rest account questions by a power law of users; the recent ones are still open. */
export async function seedSupport(ctx: SeedContext, oBase: number, pBase: number): Promise<void> {
  const { client, step, one, v, options } = ctx;
  const tBase = Number((await one<{ m: string }>(`select coalesce(max(id), 0) as m from tickets`)).m);
  const orderTickets = Math.round(v.tickets * 0.6);
  await step(
    'tickets',
    `insert into tickets (id, user_id, subject, kind, order_id, payment_intent_id, status, user_unread, admin_unread, last_message_at, closed_at, closed_by, assigned_to, created_at)
     overriding system value
     select $1::int + row_number() over (), user_id, subject, kind, order_id, null, status, status = 'Answered', status in ('Open', 'Customer reply'),
       created_at + interval '3 hours', case when status = 'Closed' then created_at + interval '3 hours' end,
       case when status = 'Closed' then $2::int end, case when status <> 'Open' then $2::int end, created_at
     from (
       (select o.user_id, 'Order #' || o.id || ' has not started' as subject, 'order' as kind, o.id as order_id, o.created_at + interval '2 hours' as created_at, o.n
        from so o where o.n % greatest(1, $3::int / $4::int) = 0 limit $4::int)
       union all
       (select su.id, 'Question about my account #' || g.n, case when g.n % 2 = 0 then 'payment' else 'other' end, null,
          su.created_at + (now() - su.created_at) * random(), g.n
        from (select n, 1 + floor($5::int * power(random(), 2))::int as un from generate_series(1, $6::int) n) g join su on su.n = g.un)
     ) t
     cross join lateral (select case when least(created_at, now()) > now() - interval '3 days' and n % 3 = 0 then 'Open'
                                      when n % 10 < 7 then 'Closed' when n % 10 < 9 then 'Answered' else 'Customer reply' end as status) s`,
    [tBase, options.adminId, v.orders, orderTickets, v.users, v.tickets - orderTickets],
  );
  await client.query(`select setval(pg_get_serial_sequence('tickets', 'id'), (select max(id) from tickets))`);
  await step(
    'ticket_messages',
    `insert into ticket_messages (ticket_id, author_id, from_staff, body, created_at)
     select t.id, case when k % 2 = 0 then $2::int else t.user_id end, k % 2 = 0,
       case when k % 2 = 0 then 'Thanks for reaching out, we are checking with the provider.' else 'Hello, this has not moved since yesterday. Please check.' end,
       t.created_at + k * interval '1 hour'
     from tickets t, generate_series(1, 1 + t.id % 4) k where t.id > $1::int`,
    [tBase, options.adminId],
  );

  // ---------------------------------------------------------------- notifications
  const deposits = await step(
    'notifications: deposits',
    `insert into notifications (user_id, kind, event_key, title, body, link, created_at, read_at, email_state, emailed_at)
     select user_id, 'deposit_credited', reference, 'Deposit credited', 'Your wallet was credited.', '/user/transactions', settled_at,
       case when settled_at < now() - interval '7 days' then settled_at + interval '1 day' end,
       case when settled_at < now() - interval '10 minutes' then 'sent' else 'pending' end, case when settled_at < now() - interval '10 minutes' then settled_at end
     from payment_intents where id > $1::bigint and status = 'success'`,
    [pBase],
  );
  const depositNotes = deposits.rowCount ?? 0;
  await step(
    'notifications: orders',
    `insert into notifications (user_id, kind, event_key, title, body, link, created_at, read_at, email_state, emailed_at)
     select user_id, case status when 'Completed' then 'order_completed' when 'Partial' then 'order_partial' else 'order_canceled' end, id::text,
       'Order #' || id || ' ' || lower(status), 'Your order for ' || service_name || ' is ' || lower(status) || '.', '/user/orders', completed_at,
       case when completed_at < now() - interval '7 days' then completed_at + interval '1 day' end,
       case when completed_at < now() - interval '1 hour' then 'sent' else 'pending' end, case when completed_at < now() - interval '1 hour' then completed_at end
     from orders where id > $1::int and completed_at is not null and status in ('Completed', 'Partial', 'Canceled')
       and (hashint4(id) & 1023) < $2::int`,
    [oBase, Math.min(1023, Math.ceil((1024 * Math.max(0, v.notifications - depositNotes)) / Math.max(1, Math.round(v.orders * 0.95))))],
  );

  // ---------------------------------------------------------------- audit
  await step(
    'audit_log',
    `insert into audit_log (actor_id, action, target_type, target_id, details, created_at)
     select $1::int, a.action, a.target, (1 + (hashint4(n) & 65535))::text, jsonb_build_object('note', 'seeded', 'n', n), now() - interval '365 days' * random()
     from generate_series(1, $2::int) n
     cross join lateral (select (array['wallet.credit','wallet.debit','order.status','order.refund','catalogue.reprice','service.update','settings.site','user.suspend'])[1 + n % 8] as action,
                                (array['user','user','order','order','catalogue','service','settings','user'])[1 + n % 8] as target) a`,
    [options.adminId, v.auditRows],
  );
}
