// The local SQL-over-HTTP endpoint answers as Neon's does: proven through @neondatabase/serverless's
// own `neon()` (its request, its type parsing, its NeonDbError) and drizzle-orm/neon-http with the
// shop's schema, against real Postgres.

import { rmSync } from 'node:fs';
import path from 'node:path';
import { NeonDbError, neon, neonConfig } from '@neondatabase/serverless';
import { sql as drizzleSql, eq } from 'drizzle-orm';
import { drizzle } from 'drizzle-orm/neon-http';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import * as schema from '../../drizzle/schema';
import { applyMigrations } from '../../local/stack/migrate';
import { type NeonHttpEndpoint, startNeonHttp } from '../../local/stack/neon-http';
import { freePort } from '../../local/stack/ports';
import { type LocalPostgres, startPostgres } from '../../local/stack/postgres';
import { isUniqueViolation } from '../../worker/lib/db-errors';

const dataDir = path.resolve('.data', `neon-http-test-${process.pid}`);
let postgres: LocalPostgres;
let endpoint: NeonHttpEndpoint;
let databaseUrl: string;

beforeAll(async () => {
  postgres = await startPostgres({ dataDir, port: await freePort(), persistent: false, quiet: true });
  await postgres.createDatabase('shop');
  databaseUrl = postgres.url('shop');
  await applyMigrations(databaseUrl);
  endpoint = await startNeonHttp({ port: 0, allowedTarget: { host: '127.0.0.1', port: postgres.port } });
  neonConfig.fetchEndpoint = endpoint.url;
  await neon(databaseUrl)`create table scratch (id int primary key, label text not null unique)`;
}, 180_000);

afterAll(async () => {
  await endpoint?.close();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Runs a statement that must fail, and returns what the driver raised. */
async function failure(run: () => Promise<unknown>): Promise<NeonDbError> {
  const error = await run().then(
    () => null,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(NeonDbError);
  return error as NeonDbError;
}

describe('the driver parses our answers with its own types', () => {
  it('reads int8 beyond 2^53 as exact text, numeric as text, timestamptz as a Date, json as values, arrays and nulls', async () => {
    const sql = neon(databaseUrl);
    const [row] = await sql`
      select 9007199254740993::int8 as big, 12345678901234567890.123456789::numeric as exact,
             '2026-01-02 03:04:05.678+00'::timestamptz as at, '{"a":[1,{"b":null}]}'::json as j, '{"k":"v"}'::jsonb as jb,
             array['a', 'b,c', 'd"e', null, 'NULL'] as texts, array[1, 2, 3] as ints,
             null::text as nothing, true as yes, false as no, 42 as answer, 1.5::float8 as half`;
    expect(row).toEqual({
      big: '9007199254740993',
      exact: '12345678901234567890.123456789',
      at: new Date('2026-01-02T03:04:05.678Z'),
      j: { a: [1, { b: null }] },
      jb: { k: 'v' },
      texts: ['a', 'b,c', 'd"e', null, 'NULL'],
      ints: [1, 2, 3],
      nothing: null,
      yes: true,
      no: false,
      answer: 42,
      half: 1.5,
    });
  });

  it('takes parameters by $n, arrays, objects and dates included', async () => {
    const sql = neon(databaseUrl);
    const [row] = await sql.query(
      'select $1::text as greeting, $2::int + 1 as next, $3::text[] as list, $4::jsonb as doc, $5::timestamptz as at, $6::text as missing',
      ['hi', 41, ['x', 'y z', '{q}'], { n: 1 }, new Date('2026-03-04T05:06:07Z'), null],
    );
    expect(row).toEqual({ greeting: 'hi', next: 42, list: ['x', 'y z', '{q}'], doc: { n: 1 }, at: new Date('2026-03-04T05:06:07Z'), missing: null });
  });

  it('answers rows as arrays in array mode, as objects otherwise', async () => {
    expect(await neon(databaseUrl, { arrayMode: true })`select 1 as one, 'two' as two`).toEqual([[1, 'two']]);
    expect(await neon(databaseUrl)`select 1 as one, 'two' as two`).toEqual([{ one: 1, two: 'two' }]);
  });

  it('gives full results: fields with their type and column ids, the command and the row count', async () => {
    const sql = neon(databaseUrl, { fullResults: true });
    const inserted = await sql`insert into scratch values (100, 'full results') returning id, label`;
    expect(inserted).toMatchObject({ command: 'INSERT', rowCount: 1, rowAsArray: false, rows: [{ id: 100, label: 'full results' }] });
    const selected = await sql`select id, label, now() as at from scratch where id = 100`;
    expect(selected.command).toBe('SELECT');
    expect(selected.rowCount).toBe(1);
    expect(selected.fields.map(({ name, dataTypeID, dataTypeSize, format }) => ({ name, dataTypeID, dataTypeSize, format }))).toEqual([
      { name: 'id', dataTypeID: 23, dataTypeSize: 4, format: 'text' },
      { name: 'label', dataTypeID: 25, dataTypeSize: -1, format: 'text' },
      { name: 'at', dataTypeID: 1184, dataTypeSize: 8, format: 'text' },
    ]);
    // Columns of a table name it and their place in it; computed ones do not.
    expect(selected.fields[0].tableID).toBeGreaterThan(0);
    expect(selected.fields.map((field) => field.columnID)).toEqual([1, 2, 0]);
    expect(selected.fields[0].dataTypeModifier).toBe(-1);
    const arrays = await neon(databaseUrl, { fullResults: true, arrayMode: true })`update scratch set label = 'changed' where id = 100`;
    expect(arrays).toMatchObject({ command: 'UPDATE', rowCount: 1, rowAsArray: true, rows: [] });
  });

  it('refuses several statements in one query, as Neon runs each on the extended protocol', async () => {
    const error = await failure(() => neon(databaseUrl).query('select 1; select 2'));
    expect(error.code).toBe('42601');
  });
});

describe('batches are one transaction', () => {
  it('commits every statement together', async () => {
    const sql = neon(databaseUrl);
    const results = await sql.transaction([sql`insert into scratch values (1, 'one')`, sql`insert into scratch values (2, 'two') returning label`]);
    expect(results).toEqual([[], [{ label: 'two' }]]);
    expect(await sql`select id from scratch where id in (1, 2) order by id`).toEqual([{ id: 1 }, { id: 2 }]);
  });

  it('rolls back every statement when the second fails, and says why with the code and constraint', async () => {
    const sql = neon(databaseUrl);
    const error = await failure(() => sql.transaction([sql`insert into scratch values (3, 'three')`, sql`insert into scratch values (4, 'one')`]));
    expect(error).toMatchObject({
      name: 'NeonDbError',
      code: '23505',
      constraint: 'scratch_label_key',
      severity: 'ERROR',
      schema: 'public',
      table: 'scratch',
      detail: 'Key (label)=(one) already exists.',
      message: 'duplicate key value violates unique constraint "scratch_label_key"',
    });
    expect(isUniqueViolation(error, 'scratch_label_key')).toBe(true);
    expect(await sql`select id from scratch where id in (3, 4)`).toEqual([]);
    // The endpoint's connection is usable again after the rollback.
    expect(await sql`select count(*)::int as n from scratch where id in (1, 2)`).toEqual([{ n: 2 }]);
  });

  it('sets the isolation level, read-only and deferrable it is asked for, and a read-only batch refuses to write', async () => {
    const sql = neon(databaseUrl);
    const [[level], [readOnly], [deferrable]] = await sql.transaction(
      [sql`show transaction_isolation`, sql`show transaction_read_only`, sql`show transaction_deferrable`],
      { isolationLevel: 'Serializable', readOnly: true, deferrable: true },
    );
    expect([level, readOnly, deferrable]).toEqual([
      { transaction_isolation: 'serializable' },
      { transaction_read_only: 'on' },
      { transaction_deferrable: 'on' },
    ]);
    const error = await failure(() => sql.transaction([sql`select 1`, sql`insert into scratch values (5, 'five')`], { readOnly: true }));
    expect(error.code).toBe('25006');
    expect(await sql`select id from scratch where id = 5`).toEqual([]);
  });
});

describe('errors', () => {
  it('answers a Postgres error as Neon does: 400 with every field, so the driver raises a NeonDbError carrying them', async () => {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'Neon-Connection-String': databaseUrl, 'Neon-Raw-Text-Output': 'true', 'Neon-Array-Mode': 'true' },
      body: JSON.stringify({ query: 'select nope from scratch', params: [] }),
    });
    expect(response.status).toBe(400);
    const body = (await response.json()) as Record<string, unknown>;
    expect(Object.keys(body).sort()).toEqual([
      'code',
      'column',
      'constraint',
      'dataType',
      'detail',
      'file',
      'hint',
      'internalPosition',
      'internalQuery',
      'line',
      'message',
      'position',
      'routine',
      'schema',
      'severity',
      'table',
      'where',
    ]);
    expect(body).toMatchObject({ message: 'column "nope" does not exist', code: '42703', position: '8', severity: 'ERROR', constraint: null });
    const error = await failure(() => neon(databaseUrl)`select nope from scratch`);
    expect(error).toMatchObject({ message: body.message, code: '42703', position: '8', routine: body.routine });
  });

  it('refuses a batch isolation level Neon does not know', async () => {
    const response = await fetch(endpoint.url, {
      method: 'POST',
      headers: { 'Neon-Connection-String': databaseUrl, 'Neon-Raw-Text-Output': 'true', 'Neon-Batch-Isolation-Level': 'Chaos' },
      body: JSON.stringify({ queries: [{ query: 'select 1', params: [] }] }),
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe('invalid isolation level');
  });

  it('surfaces a wrong password as the driver sees it from Neon', async () => {
    const wrong = new URL(databaseUrl);
    wrong.password = 'not-the-password';
    const error = await failure(() => neon(wrong.toString())`select 1`);
    expect(error.code).toBe('28P01');
  });
});

describe('drizzle-orm/neon-http with the shop schema', () => {
  it('writes a user and wallet in one batch, reads bigint kobo and dates back, and rolls the batch back on a unique violation', async () => {
    const db = drizzle(neon(databaseUrl), { schema });
    const user = { fullName: 'Ada Batch', email: 'ada@example.com', username: 'ada', passwordHash: 'x' };
    const balance = 2n ** 60n + 7n;
    const [[created]] = await db.batch([
      db.insert(schema.users).values(user).returning({ id: schema.users.id }),
      // The batch is one transaction: the second statement sees the first one's user.
      db
        .insert(schema.wallets)
        .values({ userId: drizzleSql`(select id from ${schema.users} where ${schema.users.email} = ${user.email})`, balanceKobo: balance }),
    ]);
    const wallet = await db.query.wallets.findFirst({ where: eq(schema.wallets.userId, created.id) });
    expect(wallet?.balanceKobo).toBe(balance);
    expect(wallet?.updatedAt).toBeInstanceOf(Date);

    const error = await db
      .batch([
        db.insert(schema.users).values({ ...user, email: 'grace@example.com', username: 'grace' }),
        db.insert(schema.users).values({ ...user, username: 'ada-again' }),
      ])
      .then(
        () => null,
        (caught: unknown) => caught,
      );
    expect(isUniqueViolation(error, 'users_email_key')).toBe(true);
    expect(await db.$count(schema.users, eq(schema.users.email, 'grace@example.com'))).toBe(0);
  });
});
