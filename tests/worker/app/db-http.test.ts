// The Worker's database (worker/db.ts) from inside workerd: statements and batches over the local
// SQL-over-HTTP endpoint (DB_HTTP_ENDPOINT), transactions over the WebSocket bridge, as against Neon.
import { env } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { users, wallets } from '../../../drizzle/schema';
import { openDatabase } from '../../../worker/db';
import { isDatabaseUnavailable, isUniqueViolation } from '../../../worker/lib/db-errors';
import { countingDatabaseWork, withDb } from '../../support/api';

/** One value of each kind the services read, by drizzle's mapping and as raw driver values. */
const SAMPLE = sql`select 9007199254740993::int8 as big, 12.345::numeric as exact, '2026-01-02 03:04:05.678+00'::timestamptz as at,
  '{"a": [1, 2]}'::jsonb as doc, array[1, 2, 3]::int4[] as ints, array['x', null]::text[] as texts, array[1.5]::numeric[] as exacts,
  array['2026-01-02 03:04:05+00']::timestamptz[] as ats, null::text as nothing, true as yes`;

describe('the Worker database', () => {
  it('reaches Postgres over HTTP from workerd, one call per statement and no WebSocket', async () => {
    const { result, httpCalls, webSockets } = await countingDatabaseWork(() =>
      withDb((db) => db.execute<{ answer: number; big: string }>(sql`select 41 + 1 as answer, 9007199254740993::int8 as big`)),
    );
    expect(result.rows).toEqual([{ answer: 42, big: '9007199254740993' }]);
    expect({ httpCalls, webSockets }).toEqual({ httpCalls: 1, webSockets: 0 });
  });

  it('commits a batch as one transaction in one call and raises a unique violation the services recognise', async () => {
    const email = `http-${crypto.randomUUID()}@example.com`;
    const user = { fullName: 'Http Batch', email, username: email.split('@')[0], passwordHash: 'x' };
    const { httpCalls } = await countingDatabaseWork(() =>
      withDb((db) =>
        db.batch([
          db.insert(users).values(user),
          // An empty wallet: a balance without its ledger rows would fail the reconciliation other files run meanwhile.
          db.insert(wallets).values({ userId: sql`(select id from ${users} where ${users.email} = ${email})` }),
        ]),
      ),
    );
    expect(httpCalls).toBe(1);
    const [wallet] = await withDb((db) =>
      db.select({ balanceKobo: wallets.balanceKobo }).from(wallets).innerJoin(users, eq(users.id, wallets.userId)).where(eq(users.email, email)),
    );
    expect(wallet.balanceKobo).toBe(0n);

    const error = await withDb((db) => db.insert(users).values({ ...user, username: `${user.username}-again` })).then(
      () => null,
      (caught: unknown) => caught,
    );
    expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
  });

  it('opens a WebSocket only for a transaction, and once per request however many it runs', async () => {
    const { result, httpCalls, webSockets } = await countingDatabaseWork(() =>
      withDb(async (db) => {
        await db.execute(sql`select 1`);
        const first = await db.transaction(async (tx) => (await tx.execute<{ n: number }>(sql`select 1 as n`)).rows[0].n);
        const second = await db.transaction(async (tx) => (await tx.execute<{ n: number }>(sql`select 2 as n`)).rows[0].n);
        return first + second;
      }),
    );
    expect(result).toBe(3);
    expect({ httpCalls, webSockets }).toEqual({ httpCalls: 1, webSockets: 1 });
  });

  // drizzle's neon-http sets the driver's shared type parsers when it is created; the WebSocket path
  // must read every kind of value as before, in the same isolate, and both paths alike.
  it('reads the same values over HTTP and over a transaction in one isolate', async () => {
    const { overHttp, overWebSocket } = await withDb(async (db) => ({
      overHttp: (await db.execute(SAMPLE)).rows[0],
      overWebSocket: await db.transaction(async (tx) => (await tx.execute(SAMPLE)).rows[0]),
    }));
    expect(overWebSocket).toEqual(overHttp);
    expect(overHttp).toMatchObject({
      big: '9007199254740993',
      exact: '12.345',
      doc: { a: [1, 2] },
      ints: [1, 2, 3],
      texts: ['x', null],
      nothing: null,
      yes: true,
    });

    const email = `types-${crypto.randomUUID()}@example.com`;
    const mapped = await withDb(async (db) => {
      const [created] = await db
        .insert(users)
        .values({ fullName: 'Types', email, username: email.split('@')[0], passwordHash: 'x' })
        .returning();
      const read = (await db.select().from(users).where(eq(users.email, email)))[0];
      const inTransaction = await db.transaction(async (tx) => (await tx.select().from(users).where(eq(users.email, email)))[0]);
      return { created, read, inTransaction };
    });
    expect(mapped.read.createdAt).toBeInstanceOf(Date);
    expect(mapped.inTransaction).toEqual(mapped.read);
    expect(mapped.created).toEqual(mapped.read);
  });

  it('reports an endpoint it cannot reach as the database unavailable, not as a fault', async () => {
    const unreachable = openDatabase({ ...env, DB_HTTP_ENDPOINT: 'http://127.0.0.1:9/sql' });
    try {
      const error = await unreachable.db.execute(sql`select 1`).then(
        () => null,
        (caught: unknown) => caught,
      );
      expect(isDatabaseUnavailable(error)).toBe(true);
    } finally {
      await unreachable.close();
      // The endpoint is the driver's setting for the whole isolate: the next test's database needs the real one back.
      openDatabase(env);
    }
  });
});
