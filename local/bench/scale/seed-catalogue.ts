// Seeding steps for the catalogue of a batch: providers up to the volume, then services spread over them (seed.ts).

import type { SeedContext } from './seed-context';

const TYPES = [
  'Default',
  'Default',
  'Default',
  'Default',
  'Default',
  'Default',
  'Default',
  'Default',
  'Package',
  'Custom Comments',
  'Custom Comments Package',
  'Mentions',
  'Mentions with Hashtags',
  'Mentions Custom List',
  'Mentions Hashtag',
  'Mentions User Followers',
  'Mentions Media Likers',
  'Poll',
  'Comment Likes',
  'Comment Replies',
  'Subscriptions',
];

/** Providers are copies of the first real one (its sandbox URL and key), so the cron can reach them; services cycle through names, categories and types. */
export async function seedCatalogue(ctx: SeedContext): Promise<void> {
  const { client, step, one, tag, v } = ctx;
  const providerCount = Number((await one<{ c: string }>(`select count(*) as c from providers`)).c);
  if (providerCount < v.providers) {
    await step(
      'providers',
      `insert into providers (name, api_url, api_key_encrypted, currency, timeout_ms, enabled, low_balance_micros, created_at, updated_at)
       select 'Scale Provider ' || n, p.api_url, p.api_key_encrypted, p.currency, p.timeout_ms, true, p.low_balance_micros, now(), now()
       from (select * from providers order by id limit 1) p, generate_series($1::int + 1, $2::int) n`,
      [providerCount, v.providers],
    );
  }
  await step(
    'services',
    `insert into services (provider_id, provider_service_id, name, description, category_id, type, provider_rate_micros, cost_kobo, rate_kobo,
       min, max, provider_min, provider_max, refill, cancel, refill_days, enabled, disabled_reason, average_time_seconds, created_at, updated_at)
     select prov[1 + n % array_length(prov, 1)], '${tag}-' || n,
       (array['Instagram','TikTok','YouTube','Facebook','Twitter','Telegram','Spotify'])[1 + n % 7] || ' ' ||
         (array['Followers','Likes','Views','Comments','Shares','Members','Plays'])[1 + (n / 7) % 7] || ' ' ||
         (array['[Real]','[HQ]','[Cheap]','[Instant]','[Refill 30D]','[Non Drop]'])[1 + (n / 49) % 6] || ' #' || n ||
         case when n % 100 = 0 then ' zebra' else '' end,
       'Start 0-1h, speed 10k/day', cats[1 + (n * 7) % array_length(cats, 1)], types[1 + (n * 13) % array_length(types, 1)],
       r * 10, r * 6 / 10 + 1, r, 10, 100000, 10, 100000, n % 3 = 0, n % 4 = 0, case when n % 3 = 0 then 30 end,
       n % 20 <> 0, case when n % 20 = 0 then 'admin' end, 600 + n % 86400, now() - interval '300 days', now() - interval '1 day'
     from (select n, 500 + (hashint4(n) & 1048575) as r from generate_series(1, $1::int) n) g,
       (select array_agg(id order by id) as prov from providers) p,
       (select array_agg(id order by id) as cats from service_categories) c,
       (select $2::text[] as types) t`,
    [v.services, TYPES],
  );
  await client.query(
    `create temp table ss as
     select row_number() over (order by id) as n, id, provider_id, provider_service_id, name, type, rate_kobo, cost_kobo
     from services where provider_service_id like '${tag}-%'`,
  );
  await client.query(`create unique index on ss (n); analyze ss`);
}
