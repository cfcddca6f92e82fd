// The administrators' ledger file is read a page at a time and streamed into its gzip: every row once, in the list's order,
// however many pages it takes and however close together the rows were written.
import { sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { exportTransactionsCsv } from '../../../worker/services/money/ledger-export';
import { call, createAdmin, registerAndLogin, unique, withDb } from '../../support/api';

const exported = (query: { userId: number }, pageRows: number) =>
  withDb(async (db) => new Response(await exportTransactionsCsv(db, query, { pageRows })).text());

describe('the ledger export', () => {
  it('streams a ledger longer than a page whole, newest first, each row once, where rows share a timestamp or differ by a microsecond', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    for (let i = 0; i < 5; i += 1) {
      const credited = await call('user/admin-credit-user-wallet', {
        token: admin.accessToken,
        body: { amount: 100 + i, reference: unique('credit'), userId: user.id },
      });
      expect(credited.status, JSON.stringify(credited.body)).toBe(200);
    }
    // The three oldest rows at one instant with a microsecond part, the next two a microsecond apart after it: a keyset
    // carried through a JavaScript Date (milliseconds) would skip the rows of the page's edge.
    const ids = await withDb(async (db) => {
      const { rows } = await db.execute<{ id: string }>(sql`select id from wallet_transactions where user_id = ${user.id} order by id`);
      await db.execute(sql`
        update wallet_transactions t set created_at = date_trunc('second', now()) + interval '0.123456 second'
          + (greatest(r.n - 3, 0) * interval '1 microsecond')
        from (select id, row_number() over (order by id) as n from wallet_transactions where user_id = ${user.id}) r
        where t.id = r.id`);
      return rows.map((row) => Number(row.id));
    });
    expect(ids).toHaveLength(5);

    const byPagesOfTwo = await exported({ userId: user.id }, 2);
    const lines = byPagesOfTwo.trimEnd().split('\r\n');
    expect(lines[0]).toBe('id,user_id,email,type,amount_ngn,balance_after_ngn,source,reference,description,created_at');
    expect(lines.slice(1).map((line) => Number(JSON.parse(line.split(',')[0])))).toEqual([...ids].reverse());
    expect(lines[1]).toContain('"104.00"');
    // The same file as in one page, and as a page exactly as long as the ledger.
    expect(await exported({ userId: user.id }, 1000)).toBe(byPagesOfTwo);
    expect(await exported({ userId: user.id }, 5)).toBe(byPagesOfTwo);
  });

  it('leaves out a row written while the file is being read, and has it in the next export, first', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const credit = async (amount: number) => {
      const credited = await call('user/admin-credit-user-wallet', {
        token: admin.accessToken,
        body: { amount, reference: unique('credit'), userId: user.id },
      });
      expect(credited.status, JSON.stringify(credited.body)).toBe(200);
    };
    for (const amount of [100, 101, 102]) await credit(amount);
    const before = await exported({ userId: user.id }, 1000);

    const during = await withDb(async (db) => {
      const reader = (await exportTransactionsCsv(db, { userId: user.id }, { pageRows: 1 })).getReader();
      const decoder = new TextDecoder();
      let text = decoder.decode((await reader.read()).value, { stream: true });
      await credit(103);
      for (let part = await reader.read(); !part.done; part = await reader.read()) text += decoder.decode(part.value, { stream: true });
      return text;
    });
    expect(during).toBe(before);

    const after = (await exported({ userId: user.id }, 1000)).trimEnd().split('\r\n');
    expect(after).toHaveLength(5);
    expect(after[1]).toContain('"103.00"');
    expect(after.slice(2).join('\r\n')).toBe(before.trimEnd().split('\r\n').slice(1).join('\r\n'));
  });
});
