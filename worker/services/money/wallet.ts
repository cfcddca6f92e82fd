// The wallet as people see it: balances, history and the admin user-detail view
// (administrators' manual entries are admin-entries.ts).
import { and, desc, eq, gte, ilike, inArray, lt, or, type SQL, sql } from 'drizzle-orm';
import { paymentIntents, users, walletLedgerSums, walletTransactions } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import { koboToNaira } from '../../lib/decimal';
import { cappedCountQuery, cappedTotal, pageIdsQuery } from '../../lib/paging';
import { containsPattern } from '../../lib/search';
import { PAYMENT_PROVIDER_LABELS } from '../../schemas/settings';
import type { AdminTransactionQuery, TransactionQuery } from '../../schemas/wallet';
import { getProfile, orderCountsOf } from '../accounts';

import { reversalsForUser } from './chargebacks';
import type { LedgerSource } from './ledger';

export interface TransactionView {
  id: number;
  userId: number;
  transaction_type: number;
  amount: string;
  balance_after: string;
  source: string;
  reference: string;
  /** What the row is, in the customer's words ("Refund for order #102"). */
  description: string;
  /** The text written with the row when the money moved: the service ordered, an administrator's reason, the payment reference. */
  note: string;
  created_at: string;
}

type LedgerRow = typeof walletTransactions.$inferSelect;

/**
 * What a ledger row is, named for the customer. Its type alone would call a refund or an
 * administrator's credit a deposit; the source kind and reference say which it is.
 */
export function describeLedgerRow(row: Pick<LedgerRow, 'sourceKind' | 'sourceRef' | 'description'>, deposit: DepositOfRow): string {
  switch (row.sourceKind as LedgerSource) {
    case 'payment': {
      const how = deposit?.channel === 'bank_transfer' ? 'bank transfer' : 'card';
      const label = deposit ? PAYMENT_PROVIDER_LABELS[deposit.provider as keyof typeof PAYMENT_PROVIDER_LABELS] : undefined;
      return label ? `Deposit by ${how} (${label})` : `Deposit by ${how}`;
    }
    case 'admin_credit':
      return 'Credit by administrator';
    case 'admin_debit':
      return 'Debit by administrator';
    case 'order':
      return `Order #${row.sourceRef}`;
    case 'order_refund':
      return `Refund for order #${row.sourceRef}`;
    case 'chargeback':
      return 'Card deposit taken back';
    case 'chargeback_return':
      return 'Card deposit given back';
    case 'debt_settlement':
      return 'Paid towards a reversed deposit';
    case 'commission_reversal':
      return 'Referral commission taken back';
    case 'commission_return':
      return 'Referral commission returned';
    default:
      return row.description;
  }
}

/** The payment a deposit's ledger row credited: which provider, and by card or bank transfer. */
type DepositOfRow = { provider: string; channel: string } | null;

/** Joins a ledger row to the payment it credited (deposits only), for the provider's name and the channel. */
const paymentOfRow = and(eq(walletTransactions.sourceKind, 'payment'), eq(paymentIntents.reference, walletTransactions.sourceRef));
const depositColumns = { provider: paymentIntents.provider, channel: paymentIntents.channel };

function toTransactionView(row: LedgerRow, deposit: DepositOfRow): TransactionView {
  return {
    id: row.id,
    userId: row.userId,
    transaction_type: row.transactionType,
    amount: koboToNaira(row.amountKobo),
    balance_after: koboToNaira(row.balanceAfterKobo),
    source: row.sourceKind,
    reference: row.sourceRef,
    description: describeLedgerRow(row, deposit),
    note: row.description,
    created_at: row.createdAt.toISOString(),
  };
}

export function transactionFilter(query: Partial<Omit<AdminTransactionQuery, 'page' | 'limit'>>): SQL | undefined {
  const term = query.search ? containsPattern(query.search) : null;
  return and(
    query.userId ? eq(walletTransactions.userId, query.userId) : undefined,
    // A subquery on the unique email index rather than a join, so the count statement filters the same way.
    query.email ? eq(walletTransactions.userId, sql`(select ${users.id} from ${users} where ${users.email} = ${query.email})`) : undefined,
    query.type ? eq(walletTransactions.transactionType, query.type) : undefined,
    query.source ? eq(walletTransactions.sourceKind, query.source) : undefined,
    query.from ? gte(walletTransactions.createdAt, new Date(`${query.from}T00:00:00Z`)) : undefined,
    query.to ? lt(walletTransactions.createdAt, sql`${`${query.to}T00:00:00Z`}::timestamptz + interval '1 day'`) : undefined,
    term ? or(ilike(walletTransactions.sourceRef, term), ilike(walletTransactions.description, term)) : undefined,
  );
}

const pageColumns = { row: walletTransactions, deposit: depositColumns };
export const newestFirst = [desc(walletTransactions.createdAt), desc(walletTransactions.id)];

/** One page of a filtered ledger, newest first, each row with its user, and its capped total, in one round trip. */
async function ledgerPage(db: Db, query: TransactionQuery & Partial<AdminTransactionQuery>) {
  const where = transactionFilter(query);
  // The page's rows are picked first, from the ledger alone (its newest-first indexes), and only they are joined to
  // their users and deposits: joined before the sort, every matching row would be (a hash join over all payments).
  const pageIds = pageIdsQuery(db, walletTransactions.id, where, newestFirst, query);
  const [rows, counted] = await db.batch([
    db
      .select({ ...pageColumns, userFullName: users.fullName, userEmail: users.email })
      .from(walletTransactions)
      .innerJoin(users, eq(users.id, walletTransactions.userId))
      .leftJoin(paymentIntents, paymentOfRow)
      .where(inArray(walletTransactions.id, pageIds))
      .orderBy(...newestFirst),
    cappedCountQuery(db, walletTransactions, where),
  ]);
  return { rows, page: query.page, limit: query.limit, ...cappedTotal(counted) };
}

/** One page of a user's own ledger (or any filtered one). */
export async function listTransactions(db: Db, query: TransactionQuery & Partial<AdminTransactionQuery>) {
  const { rows, ...page } = await ledgerPage(db, query);
  return { data: rows.map(({ row, deposit }) => toTransactionView(row, deposit)), ...page };
}

/** The administrators' ledger page: each row naming its user (full name, email). */
export async function listAdminTransactions(db: Db, query: AdminTransactionQuery) {
  const { rows, ...page } = await ledgerPage(db, query);
  return { data: rows.map(({ row, deposit, userFullName, userEmail }) => ({ ...toTransactionView(row, deposit), userFullName, userEmail })), ...page };
}

/** Naira text per kind of money, so that refunds and administrators' credits are never counted as deposits. */
export interface WalletTotals {
  /** Money paid in by card. */
  totalDeposits: string;
  /** Orders paid for, less what their refunds gave back. */
  totalSpent: string;
  /** What refunds of canceled and partly delivered orders gave back. */
  totalRefunds: string;
  totalAdminCredits: string;
  totalAdminDebits: string;
  /** Card deposits taken back (refunds and chargebacks) and debts they left, less what disputes gave back. */
  totalCardReversals: string;
}

/**
 * A user's ledger summed by kind in one query: over the whole history from the sums the ledger's statements keep
 * (a reseller with 100,000 rows reads a dozen), over the given days (YYYY-MM-DD, inclusive) from those days' rows.
 */
export async function walletTotals(db: DbOrTx, userId: number, range: Pick<TransactionQuery, 'from' | 'to'> = {}): Promise<WalletTotals> {
  const sums =
    range.from || range.to
      ? await db
          .select({ source: walletTransactions.sourceKind, kobo: sql<string>`sum(${walletTransactions.amountKobo})` })
          .from(walletTransactions)
          .where(transactionFilter({ ...range, userId }))
          .groupBy(walletTransactions.sourceKind)
      : await db
          .select({ source: walletLedgerSums.sourceKind, kobo: sql<string>`${walletLedgerSums.amountKobo}` })
          .from(walletLedgerSums)
          .where(eq(walletLedgerSums.userId, userId));
  const of = (source: LedgerSource) => BigInt(sums.find((s) => s.source === source)?.kobo ?? 0);
  return {
    totalDeposits: koboToNaira(of('payment')),
    totalSpent: koboToNaira(of('order') - of('order_refund')),
    totalRefunds: koboToNaira(of('order_refund')),
    totalAdminCredits: koboToNaira(of('admin_credit')),
    totalAdminDebits: koboToNaira(of('admin_debit')),
    totalCardReversals: koboToNaira(of('chargeback') + of('debt_settlement') - of('chargeback_return')),
  };
}

export const USER_DETAIL_HISTORY_LIMIT = 100;

/**
 * The admin user-detail screen (spec sections 2 and 3): profile, wallet history and totals, order
 * counts over all the user's orders, and any chargebacks and debt.
 */
export async function userWalletDetail(db: DbOrTx, userId: number) {
  const [profile, history, totals, orderCounts, chargebacks] = await Promise.all([
    getProfile(db, userId),
    db
      .select({ row: walletTransactions, deposit: depositColumns })
      .from(walletTransactions)
      .leftJoin(paymentIntents, paymentOfRow)
      .where(eq(walletTransactions.userId, userId))
      .orderBy(desc(walletTransactions.createdAt), desc(walletTransactions.id))
      .limit(USER_DETAIL_HISTORY_LIMIT),
    walletTotals(db, userId),
    orderCountsOf(db, userId),
    reversalsForUser(db, userId),
  ]);
  return {
    profile,
    walletHistory: history.map(({ row, deposit }) => ({
      id: row.id,
      transaction_type: row.transactionType,
      amount: koboToNaira(row.amountKobo),
      description: describeLedgerRow(row, deposit),
      note: row.description,
      created_at: row.createdAt.toISOString(),
    })),
    summary: { availableBalance: profile.wallet.balance, ...totals, debt: chargebacks.debt },
    orderCounts,
    reversals: chargebacks.reversals,
  };
}
