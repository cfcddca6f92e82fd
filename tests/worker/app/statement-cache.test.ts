// A statement built once per isolate and shape (worker/lib/statement-cache.ts) runs with each call's own values: the
// order placing statement is one, and a value left over from an earlier call would charge the wrong order.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { statementCache } from '../../../worker/lib/statement-cache';
import { withDb } from '../../support/api';

describe('a statement built once per shape', () => {
  it('is built once for each shape and filled with each call its own values', async () => {
    const built: string[] = [];
    const sum = statementCache(
      (shape: { doubled: boolean }) => String(shape.doubled),
      ({ doubled }) => {
        built.push(String(doubled));
        const a = sql.placeholder('a');
        return sql`select (${a}::int + ${sql.placeholder('b')}::int) * ${doubled ? 2 : 1} as n, ${'constant'}::text as label`;
      },
    );
    const run = (doubled: boolean, a: number, b: number) =>
      withDb(async (db) => (await db.execute<{ n: number; label: string }>(sum({ doubled }, { a, b }))).rows[0]);

    expect(await run(false, 1, 2)).toEqual({ n: 3, label: 'constant' });
    expect(await run(false, 40, 2)).toEqual({ n: 42, label: 'constant' });
    expect(await run(true, 40, 2)).toEqual({ n: 84, label: 'constant' });
    expect(await run(true, 5, 5)).toEqual({ n: 20, label: 'constant' });
    expect(built).toEqual(['false', 'true']);
  });

  it('refuses a call that leaves a value out, and a text whose own dollar signs would be misread as parameters', () => {
    const statement = statementCache(
      () => 'one',
      () => sql`select ${sql.placeholder('a')}::int as n`,
    );
    expect(() => statement(undefined, {})).toThrow('No value for placeholder "a"');
    const dollars = statementCache(
      () => 'one',
      () => sql`select ${sql.placeholder('a')}::int as n, 'costs $2' as note`,
    );
    expect(() => dollars(undefined, { a: 1 })).toThrow('statement-cache');
  });
});
