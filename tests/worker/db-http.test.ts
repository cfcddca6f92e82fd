// The Worker's one-shot database path: drizzle-orm/neon-http from inside workerd, through
// workerd's own fetch, to the local SQL-over-HTTP endpoint (DB_HTTP_ENDPOINT), as to Neon's.
import { env } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users, wallets } from '../../drizzle/schema';
import { openHttpDatabase } from '../../worker/db';
import { isUniqueViolation } from '../../worker/lib/db-errors';

describe('openHttpDatabase', () => {
  it('reaches Postgres over HTTP from workerd', async () => {
    const db = openHttpDatabase(env);
    const { rows } = await db.execute<{ answer: number; big: string }>(sql`select 41 + 1 as answer, 9007199254740993::int8 as big`);
    expect(rows).toEqual([{ answer: 42, big: '9007199254740993' }]);
  });

  it('commits a batch as one transaction and raises a unique violation the services recognise', async () => {
    const db = openHttpDatabase(env);
    const email = `http-${crypto.randomUUID()}@example.com`;
    const user = { fullName: 'Http Batch', email, username: email.split('@')[0], passwordHash: 'x' };
    await db.batch([
      db.insert(users).values(user),
      db.insert(wallets).values({ userId: sql`(select id from ${users} where ${users.email} = ${email})`, balanceKobo: 2n ** 60n }),
    ]);
    const [wallet] = await db.select({ balanceKobo: wallets.balanceKobo }).from(wallets).innerJoin(users, eq(users.id, wallets.userId)).where(eq(users.email, email));
    expect(wallet.balanceKobo).toBe(2n ** 60n);

    const error = await db.insert(users).values({ ...user, username: `${user.username}-again` }).then(() => null, (caught: unknown) => caught);
    expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
  });
});
