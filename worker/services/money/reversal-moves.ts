// How a refund or dispute of a payment moves a wallet: the payer's for the payment, the referrer's for the
// commission that payment earned. A take comes out of the balance, and what the balance no longer holds
// becomes the wallet's debt (orders are refused while it is owed); a give-back is credited and settles any
// debt first. Each is one payment_reversal_moves row with its ledger row in the caller's transaction, and
// (reversal, step, party) is unique, so one step of one reversal moves each wallet once.
import { eq } from 'drizzle-orm';
import { paymentReversalMoves, wallets } from '../../../drizzle/schema';
import type { ReversalStatus } from '../../../vocabulary';
import type { DbOrTx } from '../../db';
import { formatNaira } from '../../lib/decimal';

import { addDebt, applyLedgerEntry } from './ledger';

const min = (a: bigint, b: bigint) => (a < b ? a : b);

export interface MoveOf {
  reversalId: number;
  intentId: number;
  userId: number;
  party: 'payer' | 'referrer';
  /** The reversal's status whose arrival made this move. */
  step: ReversalStatus;
  /** Names the move's ledger rows: `<provider>:<event key>:<step>`. */
  ledgerRef: string;
}

const SOURCES = {
  payer: { take: 'chargeback', giveBack: 'chargeback_return' },
  referrer: { take: 'commission_reversal', giveBack: 'commission_return' },
} as const;

/**
 * Pays what the wallet's balance can towards its debt, in the caller's transaction: called after
 * every deposit credit and every give-back, so that money settles the debt before it can be spent.
 * `sourceRef` names the credit, so each credit settles once.
 */
export async function settleDebt(tx: DbOrTx, userId: number, sourceRef: string): Promise<void> {
  const [wallet] = await tx
    .select({ balanceKobo: wallets.balanceKobo, debtKobo: wallets.debtKobo })
    .from(wallets)
    .where(eq(wallets.userId, userId))
    .for('update');
  const paying = wallet ? min(wallet.balanceKobo, wallet.debtKobo) : 0n;
  if (paying <= 0n) return;
  await applyLedgerEntry(tx, {
    userId,
    direction: 'debit',
    amountKobo: paying,
    source: 'debt_settlement',
    sourceRef,
    debtChangeKobo: -paying,
    description: `Paid towards the ${formatNaira(wallet.debtKobo)} owed after a reversed payment`,
  });
}

/** Takes `amountKobo` back from the wallet: what the balance holds, the rest as debt. Null when this step already moved it. */
export async function takeBack(tx: DbOrTx, move: MoveOf, amountKobo: bigint, description: string): Promise<{ takenKobo: bigint; debtKobo: bigint } | null> {
  const [wallet] = await tx.select({ balanceKobo: wallets.balanceKobo }).from(wallets).where(eq(wallets.userId, move.userId)).for('update');
  const takenKobo = min(wallet?.balanceKobo ?? 0n, amountKobo);
  const debtKobo = amountKobo - takenKobo;
  const [recorded] = await tx
    .insert(paymentReversalMoves)
    .values({ ...move, takenKobo, debtKobo })
    .onConflictDoNothing()
    .returning({ id: paymentReversalMoves.id });
  if (!recorded) return null;
  if (takenKobo > 0n) {
    await applyLedgerEntry(tx, {
      userId: move.userId,
      direction: 'debit',
      amountKobo: takenKobo,
      source: SOURCES[move.party].take,
      sourceRef: move.ledgerRef,
      debtChangeKobo: debtKobo,
      description,
    });
  } else {
    await addDebt(tx, move.userId, debtKobo);
  }
  return { takenKobo, debtKobo };
}

/** Gives `amountKobo` back to the wallet, settling its debt first. False when this step already moved it. */
export async function giveBack(tx: DbOrTx, move: MoveOf, amountKobo: bigint, description: string): Promise<boolean> {
  const [recorded] = await tx
    .insert(paymentReversalMoves)
    .values({ ...move, returnedKobo: amountKobo })
    .onConflictDoNothing()
    .returning({ id: paymentReversalMoves.id });
  if (!recorded) return false;
  const source = SOURCES[move.party].giveBack;
  await applyLedgerEntry(tx, { userId: move.userId, direction: 'credit', amountKobo, source, sourceRef: move.ledgerRef, description });
  await settleDebt(tx, move.userId, `${source}:${move.ledgerRef}`);
  return true;
}
