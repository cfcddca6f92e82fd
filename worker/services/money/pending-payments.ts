// The payments behind the dashboard's "Pending payments": started (a checkout opened) but neither
// credited nor refused yet, newest first, each naming its payer, so the number has a list to open.
import { count, desc, eq, sql } from 'drizzle-orm';
import { paymentIntents, users } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import { totalOfPage, windowTotal } from '../../lib/paging';
import type { Pagination } from '../../schemas/common';

/** The same predicate as the dashboard's count, so the list and the number always agree. */
export const isPendingPayment = eq(paymentIntents.status, 'pending');

export async function listPendingPayments(db: DbOrTx, query: Pagination) {
  // The page is picked, and the total counted, from the pending payments alone (their index); only the page's rows are joined to their payers.
  const page = db
    .select({ id: paymentIntents.id, total: windowTotal().as('total') })
    .from(paymentIntents)
    .where(isPendingPayment)
    .orderBy(desc(paymentIntents.createdAt), desc(paymentIntents.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit)
    .as('page');
  const rows = await db
    .select({
      id: paymentIntents.id,
      reference: paymentIntents.reference,
      provider: paymentIntents.provider,
      channel: paymentIntents.channel,
      amountKobo: paymentIntents.amountKobo,
      providerStatus: paymentIntents.providerStatus,
      createdAt: paymentIntents.createdAt,
      lastCheckedAt: paymentIntents.lastCheckedAt,
      userId: paymentIntents.userId,
      userFullName: users.fullName,
      userEmail: users.email,
      total: sql<number>`${page.total}`.mapWith(Number),
    })
    .from(page)
    .innerJoin(paymentIntents, eq(paymentIntents.id, page.id))
    .innerJoin(users, eq(users.id, paymentIntents.userId))
    .orderBy(desc(paymentIntents.createdAt), desc(paymentIntents.id));
  const total = await totalOfPage(rows, query.page, async () => (await db.select({ total: count() }).from(paymentIntents).where(isPendingPayment))[0].total);
  const data = rows.map(({ total: _total, amountKobo, createdAt, lastCheckedAt, ...row }) => ({
    ...row,
    amount: koboToNaira(amountKobo),
    created_at: createdAt.toISOString(),
    lastCheckedAt: lastCheckedAt?.toISOString() ?? null,
  }));
  return { data, page: query.page, limit: query.limit, total };
}
