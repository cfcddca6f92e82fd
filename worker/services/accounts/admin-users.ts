// The administrators' view of accounts: searching, suspending or reactivating them, and counting their orders.
import { and, asc, count, desc, eq, ilike, inArray, or, type SQL, sql } from 'drizzle-orm';
import { orders, users, wallets } from '../../../drizzle/schema';
import type { OrderStatus } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { forbidden, notFound } from '../../lib/errors';
import { type CappedTotal, cappedCountQuery, cappedTotal, pageIdsQuery } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import type { UserListQuery } from '../../schemas/admin';

import { recordAudit } from '../oversight';
import { revokeAllSessions } from './auth';
import { type Profile, publicUserColumns, toProfile, toPublicUser } from './users';

const SORTS = {
  newest: [desc(users.createdAt), desc(users.id)],
  oldest: [asc(users.createdAt), asc(users.id)],
  name: [asc(users.fullName), asc(users.id)],
  balance: [desc(sql`coalesce(${wallets.balanceKobo}, 0)`), asc(users.id)],
  last_login: [sql`${users.lastLogin} desc nulls last`, asc(users.id)],
} satisfies Record<UserListQuery['sort'], SQL[]>;

/**
 * The ids of a page of accounts by balance, read in order from the wallets' balance index (every account has its wallet
 * from the transaction that made it: auth.ts), where sorting users ⋈ wallets read every account.
 */
const balancePageIds = (db: Db, where: SQL | undefined, page: { page: number; limit: number }) =>
  pageIdsQuery(
    db,
    wallets.userId,
    where ? inArray(wallets.userId, db.select({ id: users.id }).from(users).where(where)) : undefined,
    [desc(wallets.balanceKobo), asc(wallets.userId)],
    page,
  );

/** A page of accounts with their balances; the total is capped (paging.ts): a shop of 200,000 accounts is not counted on every page. */
export async function listUsers(db: Db, query: UserListQuery): Promise<{ data: Profile[] } & CappedTotal> {
  const term = query.search ? containsPattern(query.search) : null;
  const where = and(
    term ? or(ilike(users.fullName, term), ilike(users.email, term), ilike(users.username, term)) : undefined,
    query.status ? eq(users.status, query.status) : undefined,
    query.userType ? eq(users.userType, query.userType) : undefined,
  );
  const pageIds = query.sort === 'balance' ? balancePageIds(db, where, query) : pageIdsQuery(db, users.id, where, SORTS[query.sort], query);
  const [rows, counted] = await db.batch([
    db
      .select({ ...publicUserColumns, balanceKobo: sql<string>`coalesce(${wallets.balanceKobo}, 0)` })
      .from(users)
      .leftJoin(wallets, eq(wallets.userId, users.id))
      .where(inArray(users.id, pageIds))
      .orderBy(...SORTS[query.sort]),
    cappedCountQuery(db, users, where),
  ]);
  return { data: rows.map((row) => toProfile(toPublicUser(row), BigInt(row.balanceKobo))), ...cappedTotal(counted) };
}

/**
 * Suspension ends the person's sessions (and so every token) in the same transaction. Their reseller
 * API keys are left in place: every API call checks the owner's status in the query that resolves
 * the key (apiCallerQuery), so the keys stop at once and work again on reactivation.
 */
export async function setUserStatus(db: Db, actorId: number, userId: number, status: 'active' | 'suspended'): Promise<void> {
  if (userId === actorId) throw forbidden('You cannot change the status of your own account');
  // Interactive: a missing user fails before any session is revoked or the audit row written.
  await db.transaction(async (tx) => {
    const [updated] = await tx.update(users).set({ status, updatedAt: new Date() }).where(eq(users.id, userId)).returning({ id: users.id });
    if (!updated) throw notFound('User not found');
    if (status === 'suspended') await revokeAllSessions(tx, userId);
    await recordAudit(tx, { actorId, action: status === 'suspended' ? 'user.suspend' : 'user.reactivate', target: { type: 'user', id: userId } });
  });
}

export interface OrderCounts {
  total: number;
  /** Orders per status; statuses the user has no orders in are left out. */
  byStatus: Partial<Record<OrderStatus, number>>;
}

/** How many orders a user has in each status, over all of them (the detail screen lists only the newest). */
export async function orderCountsOf(db: DbOrTx, userId: number): Promise<OrderCounts> {
  const rows = await db.select({ status: orders.status, n: count() }).from(orders).where(eq(orders.userId, userId)).groupBy(orders.status);
  return {
    total: rows.reduce((sum, row) => sum + row.n, 0),
    byStatus: Object.fromEntries(rows.map((row) => [row.status, row.n])),
  };
}
