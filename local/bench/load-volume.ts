// LOAD_VOLUME: a busy panel's year seeded into the load's throwaway database before the load, with bench:scale's
// seeder (scale/seed.ts: set-based, exact books). The seeder gives every seeded user the password hash of a real
// user, so one account signs up through the API first (it takes no part in the load); the administrator's id names
// the seeded audit rows. The scheduled jobs are started only after the seed (load.ts), as bench:scale keeps them off
// while it seeds: the seeding connection runs with triggers off and, for big batches, the big tables' indexes dropped.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import type { RunningStack } from '../stack/stack';
import { countVolume, seedBatch, volumeAt } from './scale/seed';
import { signUp } from './shop-client';

export interface SeededVolume {
  seconds: number;
  counts: Record<string, number>;
  books: { balanceMismatches: number; brokenRunningBalances: number; negativeBalances: number };
}

export async function seedVolume(stack: RunningStack, factor: number, adminEmail: string): Promise<SeededVolume> {
  const volume = volumeAt(factor);
  const email = `load-${process.pid}-seed@example.com`;
  await signUp(stack.url, { fullName: 'Load Seed Owner', email, password: randomBytes(12).toString('base64url'), ip: '10.250.0.1' });
  const client = new pg.Client({ connectionString: stack.databaseUrl });
  await client.connect();
  const { rows } = await client.query<{ password_hash: string; admin_id: number }>(
    `select u.password_hash, (select id from users where email = $2) as admin_id from users u where u.email = $1`,
    [email, adminEmail],
  );
  await client.end();
  const { password_hash: passwordHash, admin_id: adminId } = rows[0];
  console.log(
    `Seeding LOAD_VOLUME ${factor}: ${volume.orders} orders, ${volume.users} users, ${volume.ledgerRows} ledger rows, ${volume.services} services...`,
  );
  const seed = await seedBatch(stack.databaseUrl, {
    batch: 1,
    volume,
    passwordHash,
    adminId,
    rebuildIndexes: volume.orders >= 200_000,
    log: (line) => console.log(line),
  });
  console.log(`Seeded in ${seed.seconds.toFixed(1)} s`);
  return { seconds: seed.seconds, counts: await countVolume(stack.databaseUrl), books: seed.books };
}
