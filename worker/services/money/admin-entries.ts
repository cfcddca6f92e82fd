// Administrators' manual entries: a credit (the spec's admin credit) or a debit (a correction with a reason). Each moves
// the money, writes its audit row and tells the wallet's owner (bell, and email unless they turned it off), all in one
// statement: all three or none, so a refused or duplicate entry is never told and a told one always happened.
import { sql } from 'drizzle-orm';
import { auditLog } from '../../../drizzle/schema';
import type { Db } from '../../db';
import { nairaToKobo } from '../../lib/decimal';
import { conflict, notFound } from '../../lib/errors';
import type { AuditAction } from '../../schemas/admin';
import type { AdminCreditInput, AdminDebitInput } from '../../schemas/wallet';
import { walletAdjustedNotice } from '../notifications';
import { type AppliedEntry, applyRecordedLedgerEntry, DuplicateLedgerEntry, WalletNotFound } from './ledger';

export const REFERENCE_ALREADY_USED = 'This reference has already been used. Please use a new reference.';

/**
 * An administrator's credit or debit, its audit row and the owner's notification, written by one statement (all or
 * none). `description` is the ledger row's text, which the owner's history shows; the notification says no more than
 * it does (the amount, the reference, a debit's reason). An unknown user has no wallet, which the same statement
 * reports: 404.
 */
async function manualEntry(
  db: Db,
  actorId: number,
  input: AdminCreditInput & { reason?: string },
  direction: 'credit' | 'debit',
  description: string,
): Promise<AppliedEntry> {
  const amountKobo = nairaToKobo(input.amount);
  const details = { amount: input.amount, reference: input.reference, reason: description };
  const auditRow = sql`
    insert into ${auditLog} (actor_id, action, target_type, target_id, details)
    select ${actorId}, ${`wallet.${direction}` satisfies AuditAction}, 'user', ${String(input.userId)}, ${JSON.stringify(details)}::jsonb || jsonb_build_object('transactionId', ledger_row.id)
    from ledger_row`;
  const notice = walletAdjustedNotice({ userId: input.userId, direction, amountKobo, reference: input.reference, reason: input.reason }, sql`ledger_row`);
  try {
    return await applyRecordedLedgerEntry(
      db,
      {
        userId: input.userId,
        direction,
        amountKobo,
        source: direction === 'credit' ? 'admin_credit' : 'admin_debit',
        sourceRef: input.reference,
        description,
        createdBy: actorId,
      },
      [auditRow, notice],
    );
  } catch (error) {
    if (error instanceof DuplicateLedgerEntry) throw conflict(REFERENCE_ALREADY_USED);
    if (error instanceof WalletNotFound) throw notFound('User not found');
    throw error;
  }
}

export async function adminCredit(db: Db, actorId: number, input: AdminCreditInput): Promise<AppliedEntry> {
  return manualEntry(db, actorId, input, 'credit', `Credit by administrator (ref ${input.reference})`);
}

export async function adminDebit(db: Db, actorId: number, input: AdminDebitInput): Promise<AppliedEntry> {
  return manualEntry(db, actorId, input, 'debit', `Correction by administrator: ${input.reason} (ref ${input.reference})`);
}
