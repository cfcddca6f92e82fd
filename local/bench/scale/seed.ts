// Set-based seeding of a busy panel straight in Postgres (one connection of its own, no latency, no Worker):
// each table is one INSERT ... SELECT over generate_series, so a year of a busy shop takes minutes, not hours.
//
// A batch adds its own users, services, orders, deposits, ledger, tickets, notifications, referrals and audit rows
// and touches nothing already there, so the small phase's batch and the large phase's top-up sit side by side.
// The books stay exact: every seeded user's ledger is built in time order with its running balance
// (balance_after_kobo), a user whose spending would have gone below zero first gets an opening credit, each
// successful deposit is credited exactly once (source 'payment', its reference), each refunded order has its
// 'order_refund' row, each released commission its 'referral_commission' row, and every wallet equals its ledger:
// GET admin/reconciliation stays meaningful (the run checks it). Seeded deposits are all over an hour old: the newest
// credited ones, which the reconciliation asks the payment provider about again, are real sandbox payments (main.ts).
//
// Foreign keys and triggers are switched off for the seeding session only (session_replication_role = replica,
// the seeding connection's own setting: the Worker's connections keep them), since the rows are consistent by
// construction; secondary indexes of the big tables are dropped for the load and built again after it, then
// everything is VACUUMed and ANALYZEd, as autovacuum would after a real import (the visibility map included).
import pg from 'pg';
import { seedCatalogue } from './seed-catalogue';
import { FULL_VOLUME, type SeedBatch, type SeedContext, type Volume } from './seed-context';
import { seedDeposits, seedLedger } from './seed-money';
import { seedOrders } from './seed-orders';
import { seedUsers } from './seed-people';
import { seedSupport } from './seed-support';

export { FULL_VOLUME, type SeedBatch, type Volume };

export function volumeAt(factor: number): Volume {
  const out = {} as Volume;
  for (const [key, value] of Object.entries(FULL_VOLUME) as Array<[keyof Volume, number]>) {
    out[key] = key === 'providers' ? value : Math.max(key === 'users' ? 20 : 5, Math.round(value * factor));
  }
  return out;
}

export interface SeedResult {
  seconds: number;
  steps: Array<{ step: string; seconds: number; rows: number | null }>;
  /** The batch's heaviest reseller (most orders) and a light user, by id. */
  heavyUserId: number;
  lightUserId: number;
  /** Checked after the load, straight in SQL: all zero when every wallet equals its ledger and each running balance follows. */
  books: { balanceMismatches: number; brokenRunningBalances: number; negativeBalances: number };
}

const BIG_TABLES = ['orders', 'wallet_transactions', 'notifications', 'payment_intents', 'tickets', 'ticket_messages', 'referral_commissions', 'audit_log'];

export async function seedBatch(databaseUrl: string, options: SeedBatch): Promise<SeedResult> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  const started = performance.now();
  const steps: SeedResult['steps'] = [];
  const log = options.log ?? (() => {});
  const step = async (name: string, text: string, values: unknown[] = []) => {
    const t0 = performance.now();
    const result = await client.query(text, values);
    const seconds = (performance.now() - t0) / 1000;
    steps.push({ step: name, seconds, rows: result.rowCount ?? null });
    log(`  ${name}: ${result.rowCount ?? '-'} rows, ${seconds.toFixed(1)} s`);
    return result;
  };
  const one = async <T>(text: string, values: unknown[] = []): Promise<T> => (await client.query(text, values)).rows[0] as T;
  const b = options.batch;
  const v = options.volume;
  const tag = `scale-b${b}`;
  const ctx: SeedContext = { client, step, one, tag, v, options };
  try {
    await client.query(`set session_replication_role = replica`);
    await client.query(`set work_mem = '128MB'`);
    await client.query(`set maintenance_work_mem = '512MB'`);
    await client.query(`set synchronous_commit = off`);
    await client.query(`drop table if exists su, ss, so, sl`);

    const dropped: Array<{ name: string; def: string }> = [];
    if (options.rebuildIndexes) {
      const { rows } = await client.query<{ name: string; def: string }>(
        `select i.indexrelid::regclass::text as name, pg_get_indexdef(i.indexrelid) as def
         from pg_index i join pg_class t on t.oid = i.indrelid join pg_namespace ns on ns.oid = t.relnamespace
         where ns.nspname = 'public' and t.relname = any($1) and not i.indisprimary
           and not exists (select 1 from pg_constraint c where c.conindid = i.indexrelid)`,
        [BIG_TABLES],
      );
      for (const index of rows) await client.query(`drop index ${index.name}`);
      dropped.push(...rows);
      log(`  dropped ${rows.length} secondary indexes for the load`);
    }

    await seedUsers(ctx);
    await seedCatalogue(ctx);
    const oBase = await seedOrders(ctx);
    const pBase = await seedDeposits(ctx);
    await seedLedger(ctx, oBase, pBase);
    await seedSupport(ctx, oBase, pBase);

    await client.query(`update catalogue_version set version = version + 1`);
    await client.query(`reset session_replication_role`);
    for (const index of dropped) {
      const t0 = performance.now();
      await client.query(index.def);
      steps.push({ step: `index ${index.name}`, seconds: (performance.now() - t0) / 1000, rows: null });
    }
    if (dropped.length)
      log(
        `  rebuilt ${dropped.length} indexes, ${steps
          .filter((s) => s.step.startsWith('index '))
          .reduce((t, s) => t + s.seconds, 0)
          .toFixed(1)} s`,
      );
    // Loaded with triggers off (replica role): the dashboard's daily figures are counted again from the tables.
    await step('dashboard figures per day', 'select dashboard_days_rebuild()');
    // Written straight into the ledger, not through its statements: the users' sums per kind are counted again too.
    await step('ledger sums per user', 'select wallet_ledger_sums_rebuild()');
    // A year-old database's settled pages are all-visible (autovacuum's work): its counts read indexes alone.
    await step('vacuum and analyze', 'vacuum (analyze)');

    // The reconciliation's first two checks, straight in SQL (at full volume GET admin/reconciliation may not answer at all).
    const books = await one<{ balance_mismatches: string; broken_running_balances: string; negative_balances: string }>(`select
      (select count(*) from wallets w
         left join (select user_id, sum(case when transaction_type = 1 then amount_kobo else -amount_kobo end) as s from wallet_transactions group by user_id) l
           on l.user_id = w.user_id
         where w.balance_kobo <> coalesce(l.s, 0)) as balance_mismatches,
      (select count(*) from (
         select balance_after_kobo, lag(balance_after_kobo, 1, 0::bigint) over (partition by user_id order by id)
           + case when transaction_type = 1 then amount_kobo else -amount_kobo end as expected
         from wallet_transactions) t where balance_after_kobo <> expected) as broken_running_balances,
      (select count(*) from wallet_transactions where balance_after_kobo < 0) as negative_balances`);
    steps.push({ step: 'books check (wallets = ledger, running balances)', seconds: 0, rows: null });
    log(
      `  books: ${books.balance_mismatches} wallets off their ledger, ${books.broken_running_balances} broken running balances, ${books.negative_balances} negative`,
    );
    if (Number(books.balance_mismatches) === 0 && Number(books.broken_running_balances) === 0) {
      // As a busy shop has it: the last hourly reconciliation, an hour ago, came out clean, so an administrator's (and the next hour's) reads since then.
      await client.query(
        `insert into settings (key, value) values ('reconciliation', jsonb_build_object('ok', true, 'findings', 0, 'scope', 'full',
           'checkedAt', now() - interval '1 hour', 'startedAt', now() - interval '1 hour', 'cleanSince', now() - interval '1 hour', 'lastFullAt', now() - interval '1 day'))
         on conflict (key) do update set value = excluded.value, updated_at = now() - interval '1 hour'`,
      );
    }
    const heavy = await one<{ id: number }>(
      `select o.user_id as id from orders o join users u on u.id = o.user_id where o.id > $1::int and u.status = 'active' group by o.user_id order by count(*) desc limit 1`,
      [oBase],
    );
    const light = await one<{ id: number }>(
      `select su.id from su join wallets w on w.user_id = su.id
       where exists (select 1 from orders o where o.user_id = su.id) and su.n > $1::int / 2 and su.n % 400 <> 0 order by su.n limit 1`,
      [v.users],
    );
    return {
      seconds: (performance.now() - started) / 1000,
      steps,
      heavyUserId: heavy.id,
      lightUserId: light?.id ?? heavy.id,
      books: {
        balanceMismatches: Number(books.balance_mismatches),
        brokenRunningBalances: Number(books.broken_running_balances),
        negativeBalances: Number(books.negative_balances),
      },
    };
  } finally {
    await client.end();
  }
}

/** What the database holds now, by table (exact counts). */
export async function countVolume(databaseUrl: string): Promise<Record<string, number>> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { rows } = await client.query<Record<string, string>>(`select
      (select count(*) from users) as users, (select count(*) from orders) as orders, (select count(*) from wallet_transactions) as "ledgerRows",
      (select count(*) from payment_intents) as payments, (select count(*) from services) as services, (select count(*) from providers) as providers,
      (select count(*) from tickets) as tickets, (select count(*) from ticket_messages) as "ticketMessages", (select count(*) from notifications) as notifications,
      (select count(*) from referrals) as referrals, (select count(*) from referral_commissions) as "referralCommissions", (select count(*) from audit_log) as "auditRows",
      (select count(*) from orders where submission = 'accepted' and status in ('Pending', 'In progress', 'Processing')) as "openOrders",
      (select pg_database_size(current_database())) as "databaseBytes"`);
    return Object.fromEntries(Object.entries(rows[0]).map(([key, value]) => [key, Number(value)]));
  } finally {
    await client.end();
  }
}
