// The payments behind the dashboard's "Pending payments": started (a checkout opened) but neither
// credited nor refused yet, newest first, each naming its payer, so the number has a list to open.
import { desc, eq, sql } from 'drizzle-orm';
import { paymentIntents, users } from '../../../drizzle/schema';
import type { DbOrTx } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import type { Pagination } from '../../schemas/common';

/** The same predicate as the dashboard's count, so the list and the number always agree. */
export const isPendingPayment = eq(paymentIntents.status, 'pending');

export async function listPendingPayments(db: DbOrTx, query: Pagination) {
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
      total: sql<number>`count(*) over ()`.mapWith(Number),
    })
    .from(paymentIntents)
    .innerJoin(users, eq(users.id, paymentIntents.userId))
    .where(isPendingPayment)
    .orderBy(desc(paymentIntents.createdAt), desc(paymentIntents.id))
    .limit(query.limit)
    .offset((query.page - 1) * query.limit);
  // A page past the last carries no row with the total; it is counted apart only then.
  const total =
    rows[0]?.total ??
    (query.page > 1
      ? (
          await db
            .select({ total: sql<number>`count(*)`.mapWith(Number) })
            .from(paymentIntents)
            .where(isPendingPayment)
        )[0].total
      : 0);
  const data = rows.map(({ total: _total, amountKobo, createdAt, lastCheckedAt, ...row }) => ({
    ...row,
    amount: koboToNaira(amountKobo),
    created_at: createdAt.toISOString(),
    lastCheckedAt: lastCheckedAt?.toISOString() ?? null,
  }));
  return { data, page: query.page, limit: query.limit, total };
}
