// Seeding step for the people of a batch: its users, all signing in with one real password hash (seed.ts).

import type { SeedContext } from './seed-context';

/** Users sign up over the year, faster early on (the power law on created_at); every 400th is suspended, the first 1000 can refer. */
export async function seedUsers(ctx: SeedContext): Promise<void> {
  const { client, step, one, tag, v, options } = ctx;
  const uBase = Number((await one<{ m: string }>(`select coalesce(max(id), 0) as m from users`)).m);
  await step(
    'users',
    `insert into users (id, full_name, email, username, password_hash, user_type, status, last_login, email_verified_at, referral_code, created_at, updated_at)
     overriding system value
     select $1::int + n, 'Scale User ' || n, '${tag}-u' || n || '@example.com', '${tag.replace('-', '_')}_u' || n, $2, 2,
       case when n % 400 = 0 then 'suspended' else 'active' end,
       c + (now() - c) * random(), c + interval '5 minutes',
       case when n <= 1000 then upper('${tag.replace('-', '')}r') || n else null end, c, c
     from (select n, now() - interval '366 days' + interval '330 days' * random() * least(1.0, n * 20.0 / $3) as c
           from generate_series(1, $3::int) n) g`,
    [uBase, options.passwordHash, v.users],
  );
  await client.query(`select setval(pg_get_serial_sequence('users', 'id'), (select max(id) from users))`);
  await client.query(`create temp table su as select id - $1::int as n, id, created_at from users where id > $1::int`, [uBase]);
  await client.query(`create unique index on su (n); analyze su`);
}
