// The one way money moves. Each entry is a single statement that updates the balance
// conditionally and writes the ledger row with the balance it produced, so the two can
// never disagree, a debit can never take a balance below zero, and a second entry for the
// same (source kind, source reference) fails on the unique index instead of moving money twice.
import { sql } from 'drizzle-orm';
import { TRANSACTION_TYPE } from '../../drizzle/schema';
import type { DbOrTx } from '../db';
import { isUniqueViolation } from '../lib/db-errors';
import { AppError } from '../lib/errors';

/** What caused a balance change; with the source reference it names one outside event. */
export type LedgerSource = 'payment' | 'admin_credit' | 'admin_debit' | 'order' | 'order_refund';

export interface LedgerEntry {
  userId: number;
  direction: 'credit' | 'debit';
  amountKobo: bigint;
  source: LedgerSource;
  sourceRef: string;
  description: string;
  /** The administrator who made a manual entry. */
  createdBy?: number | null;
}

export interface AppliedEntry {
  transactionId: number;
  balanceAfterKobo: bigint;
}

export const INSUFFICIENT_BALANCE = 'Insufficient wallet balance';

export class DuplicateLedgerEntry extends Error {
  constructor(readonly source: LedgerSource, readonly sourceRef: string) {
    super(`ledger entry ${source}:${sourceRef} already exists`);
  }
}

/**
 * Applies one entry. Throws AppError 'invalid' (Insufficient wallet balance) when a debit
 * does not fit, and DuplicateLedgerEntry when the event was already applied; either way
 * nothing is written. Inside a transaction, both errors abort it: callers that treat a
 * duplicate as success claim the event first (e.g. the payment intent's status) or catch it outside.
 */
export async function applyLedgerEntry(db: DbOrTx, entry: LedgerEntry): Promise<AppliedEntry> {
  if (entry.amountKobo <= 0n) throw new AppError('invalid', 'Amount must be greater than zero');
  const delta = entry.direction === 'credit' ? entry.amountKobo : -entry.amountKobo;
  const type = entry.direction === 'credit' ? TRANSACTION_TYPE.deposit : TRANSACTION_TYPE.withdrawal;
  try {
    const result = await db.execute<{ id: string; balance_after_kobo: string }>(sql`
      with changed as (
        update wallets set balance_kobo = balance_kobo + ${delta}, updated_at = now()
        where user_id = ${entry.userId} and balance_kobo + ${delta} >= 0
        returning balance_kobo
      )
      insert into wallet_transactions (user_id, transaction_type, amount_kobo, balance_after_kobo, source_kind, source_ref, description, created_by)
      select ${entry.userId}, ${type}, ${entry.amountKobo}, changed.balance_kobo, ${entry.source}, ${entry.sourceRef}, ${entry.description}, ${entry.createdBy ?? null}
      from changed
      returning id, balance_after_kobo`);
    const [row] = result.rows;
    if (!row) throw new AppError('invalid', INSUFFICIENT_BALANCE);
    return { transactionId: Number(row.id), balanceAfterKobo: BigInt(row.balance_after_kobo) };
  } catch (error) {
    if (isUniqueViolation(error, 'wallet_transactions_source_key')) throw new DuplicateLedgerEntry(entry.source, entry.sourceRef);
    throw error;
  }
}
