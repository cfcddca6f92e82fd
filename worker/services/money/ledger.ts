// The one way money moves. Each entry is a single statement that updates the balance
// conditionally and writes the ledger row with the balance it produced, so the two can
// never disagree, a debit can never take a balance below zero, and a second entry for the
// same (source kind, source reference) fails on the unique index instead of moving money twice.
// Statements that must write something else with the money (the order a debit pays for, the
// audit row of an administrator's entry) are built from the same two steps (ledgerEntrySteps),
// so there is one copy of this SQL. A wallet's debt (what a chargeback took beyond the balance)
// changes only in the same update as the ledger row that explains it, or with the chargeback's
// record when nothing was left to take (addDebt); while it is owed, order debits are refused.
import { eq, type Placeholder, type SQL, sql } from 'drizzle-orm';
import { wallets } from '../../../drizzle/schema';
import { type LEDGER_SOURCES, TRANSACTION_TYPE } from '../../../vocabulary';
import type { DbOrTx } from '../../db';
import { isUniqueViolation } from '../../lib/db-errors';
import { formatNaira } from '../../lib/decimal';
import { AppError } from '../../lib/errors';

/** What caused a balance change (schemas/wallet.ts); with the source reference it names one outside event. */
export type LedgerSource = (typeof LEDGER_SOURCES)[number];

export interface LedgerEntry {
  userId: number;
  direction: 'credit' | 'debit';
  amountKobo: bigint;
  source: LedgerSource;
  sourceRef: string;
  description: string;
  /** The administrator who made a manual entry. */
  createdBy?: number | null;
  /**
   * How the wallet's debt changes with this entry, in the same update: a chargeback adds what the
   * balance no longer held, a settlement takes off what it pays. The debt never goes below zero.
   */
  debtChangeKobo?: bigint;
}

/** An entry inside a larger statement: its reference and description may be SQL over the statement's own CTEs. */
export interface LedgerEntryInStatement extends Omit<LedgerEntry, 'userId' | 'amountKobo' | 'sourceRef' | 'description'> {
  /**
   * Placeholders in a statement built once and filled per call (lib/statement-cache.ts), whose caller checks the
   * amount with assertPositiveAmount as it fills them.
   */
  userId: number | Placeholder;
  amountKobo: bigint | Placeholder;
  sourceRef: string | SQL;
  description: string | SQL;
  /** CTEs of the statement the ledger row is selected together with, for `sourceRef` and `description` to read. */
  alongside?: SQL;
  /** The balance moves only if this also holds (e.g. the ordered service is still on sale as priced). */
  onlyIf?: SQL;
}

export interface AppliedEntry {
  transactionId: number;
  balanceAfterKobo: bigint;
}

export const INSUFFICIENT_BALANCE = 'Insufficient wallet balance';

/** The refusal of an order while a chargeback debt is owed. */
export function walletDebtMessage(debtKobo: bigint): string {
  return `Your wallet owes ${formatNaira(debtKobo)} after a payment was reversed. Add funds to settle it; you can order again once it is paid.`;
}

export class DuplicateLedgerEntry extends Error {
  constructor(
    readonly source: LedgerSource,
    readonly sourceRef: string,
  ) {
    super(`ledger entry ${source}:${sourceRef} already exists`);
  }
}

/** The user has no wallet, which every user gets at registration: there is no such user. */
export class WalletNotFound extends Error {
  constructor(readonly userId: number) {
    super(`user ${userId} has no wallet`);
  }
}

export function assertPositiveAmount(amountKobo: bigint): void {
  if (amountKobo <= 0n) throw new AppError('invalid', 'Amount must be greater than zero');
}

/**
 * An entry as CTEs of one statement:
 *   ledger_balance  updates the balance when the entry fits (and `onlyIf` holds); returns balance_kobo;
 *   ledger_row      writes the ledger row from ledger_balance (and `alongside`); returns id, balance_after_kobo;
 *                   with it, ledger_sum adds the amount to the user's sum for its source (wallet_ledger_sums).
 * The sum's row is written after the wallet's, whose update already holds the user's writers in line, so no
 * statement waits on it longer than on the wallet.
 * A CTE placed between them that selects from ledger_balance is written only if the money moved,
 * and the ledger row can name it (an order and its debit).
 */
export function ledgerEntrySteps(entry: LedgerEntryInStatement): { balance: SQL; row: SQL } {
  if (typeof entry.amountKobo === 'bigint') assertPositiveAmount(entry.amountKobo);
  const change = entry.direction === 'credit' ? sql`+ ${entry.amountKobo}` : sql`- ${entry.amountKobo}`;
  const type = entry.direction === 'credit' ? TRANSACTION_TYPE.deposit : TRANSACTION_TYPE.withdrawal;
  const debt = entry.debtChangeKobo ?? 0n;
  const conditions = [sql`balance_kobo ${change} >= 0`];
  if (debt !== 0n) conditions.push(sql`debt_kobo + ${debt} >= 0`);
  // Whoever owes the shop for a reversed card payment orders again only once it is settled.
  if (entry.source === 'order' && entry.direction === 'debit') conditions.push(sql`debt_kobo = 0`);
  if (entry.onlyIf) conditions.push(entry.onlyIf);
  return {
    balance: sql`ledger_balance as (
      update wallets set balance_kobo = balance_kobo ${change}${debt !== 0n ? sql`, debt_kobo = debt_kobo + ${debt}` : sql``}, updated_at = now()
      where user_id = ${entry.userId} and ${sql.join(conditions, sql` and `)}
      returning balance_kobo
    )`,
    row: sql`ledger_row as (
      insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description, created_by)
      select ${entry.userId}, ${type}, ${entry.amountKobo}, ledger_balance.balance_kobo, ${entry.source}, ${entry.sourceRef}, ${entry.description}, ${entry.createdBy ?? null}
      from ledger_balance${entry.alongside ? sql`, ${entry.alongside}` : sql``}
      returning id, balance_after_kobo
    ), ledger_sum as (
      insert into wallet_ledger_sums (user_id, source_kind, amount_kobo)
      select ${entry.userId}, ${entry.source}, ${entry.amountKobo} from ledger_row
      on conflict (user_id, source_kind) do update set amount_kobo = wallet_ledger_sums.amount_kobo + excluded.amount_kobo
    )`,
  };
}

/** Runs a statement holding `entry`, turning a second entry for the same event into DuplicateLedgerEntry. */
async function runEntryStatement<T extends Record<string, unknown>>(db: DbOrTx, entry: LedgerEntry, statement: SQL): Promise<T | undefined> {
  try {
    return (await db.execute<T>(statement)).rows[0] as T | undefined;
  } catch (error) {
    if (isUniqueViolation(error, 'wallet_transactions_source_key')) throw new DuplicateLedgerEntry(entry.source, entry.sourceRef);
    throw error;
  }
}

/**
 * Applies one entry. Throws AppError 'invalid' (Insufficient wallet balance) when a debit
 * does not fit, and DuplicateLedgerEntry when the event was already applied; either way
 * nothing is written. Inside a transaction, both errors abort it: callers that treat a
 * duplicate as success claim the event first (e.g. the payment intent's status) or catch it outside.
 */
export async function applyLedgerEntry(db: DbOrTx, entry: LedgerEntry): Promise<AppliedEntry> {
  const { balance, row } = ledgerEntrySteps(entry);
  const applied = await runEntryStatement<{ id: string; balance_after_kobo: string }>(
    db,
    entry,
    sql`
    with ${balance}, ${row}
    select id, balance_after_kobo from ledger_row`,
  );
  if (!applied) throw entry.source === 'order' ? await refusedDebit(db, entry.userId) : new AppError('invalid', INSUFFICIENT_BALANCE);
  return { transactionId: Number(applied.id), balanceAfterKobo: BigInt(applied.balance_after_kobo) };
}

/** Why an order's debit wrote nothing: a chargeback debt still owed, else too little balance. */
export async function refusedDebit(db: DbOrTx, userId: number): Promise<AppError> {
  const [wallet] = await db.select({ debtKobo: wallets.debtKobo }).from(wallets).where(eq(wallets.userId, userId));
  return new AppError('invalid', wallet && wallet.debtKobo > 0n ? walletDebtMessage(wallet.debtKobo) : INSUFFICIENT_BALANCE);
}

/**
 * Debt with no money moved: a chargeback found nothing left in the wallet to take. There is no
 * ledger row (nothing moved); the caller's reversal record, written in the same transaction, is its record.
 */
export async function addDebt(tx: DbOrTx, userId: number, debtKobo: bigint): Promise<void> {
  if (debtKobo <= 0n) throw new AppError('invalid', 'Debt must be greater than zero');
  await tx
    .update(wallets)
    .set({ debtKobo: sql`${wallets.debtKobo} + ${debtKobo}`, updatedAt: new Date() })
    .where(eq(wallets.userId, userId));
}

/**
 * applyLedgerEntry with records of the entry in the same statement, so all are written or
 * none: each of `records` is an INSERT that selects from ledger_row (id, balance_after_kobo), such as an
 * administrator's audit row naming the transaction, or the owner's notification. Unlike applyLedgerEntry
 * it tells a user without a wallet (WalletNotFound) apart from a debit that does not fit.
 */
export async function applyRecordedLedgerEntry(db: DbOrTx, entry: LedgerEntry, records: SQL | readonly SQL[]): Promise<AppliedEntry> {
  const { balance, row } = ledgerEntrySteps(entry);
  const recordSteps = [records].flat().map((record, i) => sql`${sql.raw(`record_${i}`)} as (${record})`);
  const applied = await runEntryStatement<{ has_wallet: boolean; id: string | null; balance_after_kobo: string | null }>(
    db,
    entry,
    sql`
    with ${balance}, ${row}, ${sql.join(recordSteps, sql`, `)}
    select exists (select 1 from wallets where user_id = ${entry.userId}) as has_wallet,
      (select id from ledger_row) as id, (select balance_after_kobo from ledger_row) as balance_after_kobo`,
  );
  if (!applied?.has_wallet) throw new WalletNotFound(entry.userId);
  if (applied.id === null || applied.balance_after_kobo === null) throw new AppError('invalid', INSUFFICIENT_BALANCE);
  return { transactionId: Number(applied.id), balanceAfterKobo: BigInt(applied.balance_after_kobo) };
}
