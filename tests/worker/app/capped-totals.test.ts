// Lists that grow with the shop (the ledger, orders, accounts, tickets) count their matches no further than COUNT_CAP, so a page of
// a table of millions reads a page and at most ten thousand index entries, never every row; below the cap the total
// is exact. The cap is tried on rate-limit rows, which carry no money, so no other test's books are touched.
import { and, eq, like } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { rateLimits } from '../../../drizzle/schema';
import { COUNT_CAP, cappedCountQuery, cappedTotal } from '../../../worker/lib/paging';
import { call, createAdmin, registerAndLogin, unique, withDb } from '../../support/api';

describe('a capped total', () => {
  it('counts exactly up to the cap, and past it says the cap and that there are more', async () => {
    const prefix = unique('capped-total:');
    const matching = like(rateLimits.key, `${prefix}%`);
    const totalOf = () => withDb(async (db) => cappedTotal(await cappedCountQuery(db, rateLimits, matching)));
    try {
      await withDb((db) => db.execute(`insert into rate_limits (key) select '${prefix}' || n from generate_series(1, ${COUNT_CAP}) n`));
      expect(await totalOf()).toEqual({ total: COUNT_CAP, totalCapped: false });
      await withDb((db) => db.insert(rateLimits).values([{ key: `${prefix}a` }, { key: `${prefix}b` }]));
      expect(await totalOf()).toEqual({ total: COUNT_CAP, totalCapped: true });
      expect(await withDb(async (db) => cappedTotal(await cappedCountQuery(db, rateLimits, and(matching, eq(rateLimits.key, `${prefix}a`)))))).toEqual({
        total: 1,
        totalCapped: false,
      });
    } finally {
      await withDb((db) => db.delete(rateLimits).where(matching));
    }
  });

  it('is what the ledger and order lists answer, exact for a list under the cap', async () => {
    const admin = await createAdmin();
    const user = await registerAndLogin();
    const credited = await call('user/admin-credit-user-wallet', {
      token: admin.accessToken,
      body: { amount: 250, reference: unique('credit'), userId: user.id },
    });
    expect(credited.status, JSON.stringify(credited.body)).toBe(200);
    const subject = unique('Capped list ticket');
    const opened = await call('user/tickets', { token: user.accessToken, body: { subject, kind: 'other', message: 'Please help.' } });
    expect(opened.status, JSON.stringify(opened.body)).toBe(201);
    const email = encodeURIComponent(user.email);
    for (const [path, token, total] of [
      [`admin/transactions?userId=${user.id}`, admin.accessToken, 1],
      ['user/transactions', user.accessToken, 1],
      [`admin/orders?userId=${user.id}`, admin.accessToken, 0],
      ['user/orders', user.accessToken, 0],
      [`admin/users?search=${email}`, admin.accessToken, 1],
      ['user/tickets', user.accessToken, 1],
      [`admin/tickets?search=${encodeURIComponent(subject)}`, admin.accessToken, 1],
      // The owner's address finds the ticket too, through the accounts it matches.
      [`admin/tickets?search=${email}`, admin.accessToken, 1],
    ] as const) {
      const listed = await call(path, { token });
      expect(listed.status, path).toBe(200);
      expect({ total: listed.body.total, totalCapped: listed.body.totalCapped, rows: listed.body.data.length }, path).toEqual({
        total,
        totalCapped: false,
        rows: total,
      });
    }
  });
});
