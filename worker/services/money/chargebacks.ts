// Money a payment provider takes back after it was credited to a wallet: a refund, or a dispute
// (chargeback). One state per payment: payment_intents.reversed_kobo is what the payer's wallet has
// given up for it, and after every event it is brought to
//     min(payment, Σ claims)   where a refund claims its amount, a dispute open or lost its (accepted)
//                              amount, a dispute won nothing,
// by taking the difference back (from the balance, the rest as debt, which refuses orders until credits
// settle it) or giving it back. So every order of the same events, replayed or concurrent, ends in the
// same state: a dispute won after a refund gives back only what the refund does not still need, a refund
// capped by an open dispute takes its amount when the dispute lets go, a dispute accepted for less keeps
// only the accepted amount. The commission the payment earned its referrer follows in the same transaction
// (referral-commissions.ts). Each event is recorded once ((provider, event key) is unique) and only moves
// a dispute forward (open -> won or lost); events about one payment run one at a time under its row lock.
// Every reversal, and every event that could not be applied, is a warning for the administrators.
import { and, eq, sql } from 'drizzle-orm';
import { paymentIntents, paymentReversalMoves, paymentReversals, users, wallets } from '../../../drizzle/schema';
import type { ReversalStatus } from '../../../vocabulary';
import type { Db, DbOrTx } from '../../db';
import { formatNaira, koboToNaira } from '../../lib/decimal';
import { log } from '../../lib/log';
import type { PaymentProviderName, PaymentReversal, ReversalState } from '../../providers/payments/types';
import { PAYMENT_PROVIDER_LABELS } from '../../schemas/settings';

import { notify } from '../notifications';
import { recordWarning } from '../oversight';
import { followDeposit } from './referral-commissions';
import { giveBack, takeBack } from './reversal-moves';

type Intent = typeof paymentIntents.$inferSelect;
type Reversal = typeof paymentReversals.$inferSelect;

const STATUS_OF_STATE: Record<ReversalState, ReversalStatus> = { taken: 'taken', open: 'dispute_open', won: 'dispute_won', lost: 'dispute_lost' };

/** The ledger reference of one step of a reversal: the provider's own name for it, unique per provider, and the step. */
const ledgerRef = (provider: string, eventKey: string, step: ReversalStatus) => `${provider}:${eventKey}:${step}`;

/** Who the administrators are told about, in the warning. */
async function describeUser(tx: DbOrTx, userId: number): Promise<string> {
  const [user] = await tx.select({ email: users.email }).from(users).where(eq(users.id, userId));
  return user ? `${user.email} (user #${userId})` : `user #${userId}`;
}

async function warn(tx: DbOrTx, intent: Intent, reversal: PaymentReversal, message: string, extra: Record<string, unknown> = {}): Promise<void> {
  await recordWarning(tx, {
    kind: 'payment_reversed',
    message: `${PAYMENT_PROVIDER_LABELS[intent.provider as PaymentProviderName] ?? intent.provider} ${reversal.kind} of ${intent.reference}, ${await describeUser(tx, intent.userId)}: ${message}`,
    details: {
      userId: intent.userId,
      reference: intent.reference,
      provider: intent.provider,
      kind: reversal.kind,
      key: reversal.key,
      state: reversal.state,
      amountKobo: String(reversal.amountKobo),
      ...extra,
    },
  });
}

/**
 * Records what the event says: a new reversal, or an open dispute's verdict (a dispute accepted for less
 * carries the accepted amount). Answers the reversal and the step it just took, or null when the event
 * changes nothing (a replay, a stale "open", a verdict contradicting an earlier one: the last is reported).
 */
async function recordEvent(tx: DbOrTx, intent: Intent, reversal: PaymentReversal): Promise<{ row: Reversal; step: ReversalStatus } | null> {
  // A dispute accepted for nothing took nothing: for the money it is won.
  const next = reversal.state === 'lost' && reversal.amountKobo === 0n ? 'dispute_won' : STATUS_OF_STATE[reversal.state];
  if (reversal.amountKobo <= 0n && next !== 'dispute_won') {
    await warn(tx, intent, reversal, 'the provider names no amount taken back; no money moved. Check it with the provider.');
    return null;
  }
  const [existing] = await tx
    .select()
    .from(paymentReversals)
    .where(and(eq(paymentReversals.provider, intent.provider), eq(paymentReversals.eventKey, reversal.key)));
  if (!existing) {
    const [row] = await tx
      .insert(paymentReversals)
      .values({
        intentId: intent.id,
        userId: intent.userId,
        provider: intent.provider,
        kind: reversal.kind,
        eventKey: reversal.key,
        status: next,
        amountKobo: reversal.amountKobo,
        providerDetails: reversal.details,
        dueAt: reversal.dueAt ?? null,
        resolvedAt: next === 'dispute_open' ? null : new Date(),
      })
      .returning();
    return { row, step: next };
  }
  if (existing.intentId !== intent.id) {
    await warn(
      tx,
      intent,
      reversal,
      `the provider's ${reversal.key} was already recorded against another payment; no money moved. Check it with the provider.`,
    );
    return null;
  }
  // A reminder can bring the deadline, or move it: the administrators see the provider's latest.
  if (reversal.dueAt && existing.dueAt?.getTime() !== reversal.dueAt.getTime()) {
    await tx.update(paymentReversals).set({ dueAt: reversal.dueAt }).where(eq(paymentReversals.id, existing.id));
  }
  if (existing.status !== 'dispute_open' || (next !== 'dispute_won' && next !== 'dispute_lost')) {
    if (existing.status !== next && existing.status !== 'taken' && next !== 'dispute_open' && next !== 'taken') {
      await warn(
        tx,
        intent,
        reversal,
        `the provider now says "${reversal.state}" of a dispute recorded as ${existing.status.replace('dispute_', '')}; no money moved. Check it with the provider.`,
      );
    }
    return null;
  }
  const [row] = await tx
    .update(paymentReversals)
    .set({
      status: next,
      amountKobo: next === 'dispute_lost' ? reversal.amountKobo : existing.amountKobo,
      resolvedAt: new Date(),
      providerDetails: sql`${paymentReversals.providerDetails} || ${JSON.stringify({ resolved: reversal.details })}::jsonb`,
    })
    .where(and(eq(paymentReversals.id, existing.id), eq(paymentReversals.status, 'dispute_open')))
    .returning();
  return row ? { row, step: next } : null;
}

/** What the payment's reversals claim together, never more than the payment: the state its wallet must be in. */
async function claimed(tx: DbOrTx, intent: Intent): Promise<bigint> {
  const [{ claims }] = await tx
    .select({ claims: sql<string>`coalesce(sum(case when ${paymentReversals.status} = 'dispute_won' then 0 else ${paymentReversals.amountKobo} end), 0)` })
    .from(paymentReversals)
    .where(eq(paymentReversals.intentId, intent.id));
  const total = BigInt(claims);
  return total < intent.amountKobo ? total : intent.amountKobo;
}

function describeEvent(reversal: PaymentReversal, row: Reversal): string {
  const amount = formatNaira(row.amountKobo);
  if (reversal.kind === 'refund') return `a refund of ${amount}`;
  if (row.status === 'dispute_open') return `a dispute of ${amount}`;
  if (row.status === 'dispute_won') return `a dispute of ${amount} resolved in the shop's favour`;
  return `a dispute lost (${amount} accepted)`;
}

/** The payer hears of every move of their wallet a reversal makes. */
async function tellPayer(tx: DbOrTx, intent: Intent, reversal: PaymentReversal, move: { reversalId: number; step: ReversalStatus }, delta: bigint) {
  const payment = `your ${formatNaira(intent.amountKobo)} deposit (${intent.reference})`;
  await notify(tx, {
    userId: intent.userId,
    kind: 'deposit_reversed',
    eventKey: `${move.reversalId}:${move.step}`,
    link: '/user/transactions',
    title: delta > 0n ? (reversal.kind === 'refund' ? 'Deposit refunded' : 'Deposit disputed') : 'Dispute resolved',
    body:
      delta > 0n
        ? `${formatNaira(delta)} of ${payment} was ${reversal.kind === 'refund' ? 'refunded to your card or account' : 'disputed with your bank'}, so it was taken back from your wallet.`
        : `The dispute of ${payment} was resolved: ${formatNaira(-delta)} was returned to your wallet.`,
  });
}

/** Brings the payment and its wallets to the state its reversals claim, in the caller's transaction. */
async function settleReversals(tx: DbOrTx, intent: Intent, reversal: PaymentReversal, row: Reversal, step: ReversalStatus): Promise<void> {
  const target = await claimed(tx, intent);
  const delta = target - intent.reversedKobo;
  const move = {
    reversalId: row.id,
    intentId: intent.id,
    userId: intent.userId,
    party: 'payer' as const,
    step,
    ledgerRef: ledgerRef(intent.provider, row.eventKey, step),
  };
  const what = describeEvent(reversal, row);
  let outcome: string;
  let extra: Record<string, unknown> = {};
  if (delta > 0n) {
    const words = reversal.kind === 'refund' ? `Payment refunded (${intent.reference})` : `Payment disputed (${intent.reference})`;
    const taken = await takeBack(tx, move, delta, words);
    if (!taken) return;
    extra = { takenKobo: String(taken.takenKobo), debtKobo: String(taken.debtKobo) };
    const owed =
      taken.debtKobo > 0n ? ` The wallet held less: ${formatNaira(taken.debtKobo)} is recorded as debt, and orders are refused until deposits settle it.` : '';
    outcome = `took ${formatNaira(taken.takenKobo)} back from the wallet.${owed}`;
  } else if (delta < 0n) {
    if (!(await giveBack(tx, move, -delta, `Payment dispute resolved in your favour (${intent.reference})`))) return;
    extra = { returnedKobo: String(-delta) };
    outcome = `${formatNaira(-delta)} given back to the wallet (settling any debt first).`;
  } else {
    outcome = 'no money moved: ';
    outcome +=
      step === 'dispute_won' || step === 'dispute_lost'
        ? 'what the payment owes the other refunds and disputes stays taken.'
        : 'what is left of this payment after earlier reversals was already taken. Check it with the provider.';
  }
  await tx.update(paymentIntents).set({ reversedKobo: target }).where(eq(paymentIntents.id, intent.id));
  const reversedKobo = target;
  if (delta !== 0n) await tellPayer(tx, intent, reversal, move, delta);
  await followDeposit(tx, { ...intent, reversedKobo }, { ...move, reversalId: row.id });
  const stands = `${formatNaira(reversedKobo)} of this ${formatNaira(intent.amountKobo)} payment now stands reversed.`;
  await warn(tx, intent, reversal, `${what} ${outcome} ${stands}`, { ...extra, reversedKobo: String(reversedKobo) });
}

/**
 * Applies a refund or dispute event to the payment it reverses. The payment must already be
 * credited (payments.ts verifies it first): one that never was is only reported, so that a replay
 * after a late credit still takes it back.
 */
export async function applyReversal(db: Db, intent: Intent, reversal: PaymentReversal): Promise<'processed' | 'ignored'> {
  if (intent.status !== 'success' || reversal.currency !== intent.currency) {
    const why =
      intent.status !== 'success'
        ? 'the payment was never credited here, so nothing was taken.'
        : `it is in ${reversal.currency}, the payment in ${intent.currency}; no money moved.`;
    await warn(db, intent, reversal, why);
    return 'ignored';
  }
  // Interactive: locks the payment, records the event, then moves the wallets by what the records now claim.
  await db.transaction(async (tx) => {
    const [locked] = await tx.select().from(paymentIntents).where(eq(paymentIntents.id, intent.id)).for('update');
    const recorded = await recordEvent(tx, locked, reversal);
    if (recorded) await settleReversals(tx, locked, reversal, recorded.row, recorded.step);
  });
  return 'processed';
}

/** An authentic refund or dispute event we could not read: no money moves, the administrators are told. */
export async function reportUnreadableReversal(db: DbOrTx, provider: PaymentProviderName, event: string, problem: string): Promise<void> {
  log.warn('unreadable payment reversal', { provider, event, problem });
  await recordWarning(db, { kind: 'payment_reversed', message: `${problem}. No money moved; check it with the provider.`, details: { provider, event } });
}

/** The admin user page's view of a user's reversals (what each took, left as debt and gave back) and debt. */
export async function reversalsForUser(db: DbOrTx, userId: number, limit = 50) {
  const moved = db
    .select({
      reversalId: paymentReversalMoves.reversalId,
      taken: sql<string>`sum(${paymentReversalMoves.takenKobo})`.as('taken'),
      debt: sql<string>`sum(${paymentReversalMoves.debtKobo})`.as('debt'),
      returned: sql<string>`sum(${paymentReversalMoves.returnedKobo})`.as('returned'),
    })
    .from(paymentReversalMoves)
    .where(eq(paymentReversalMoves.party, 'payer'))
    .groupBy(paymentReversalMoves.reversalId)
    .as('moved');
  const [rows, [wallet]] = await Promise.all([
    db
      .select({ reversal: paymentReversals, reference: paymentIntents.reference, taken: moved.taken, debt: moved.debt, returned: moved.returned })
      .from(paymentReversals)
      .innerJoin(paymentIntents, eq(paymentIntents.id, paymentReversals.intentId))
      .leftJoin(moved, eq(moved.reversalId, paymentReversals.id))
      .where(eq(paymentReversals.userId, userId))
      .orderBy(sql`${paymentReversals.createdAt} desc, ${paymentReversals.id} desc`)
      .limit(limit),
    db.select({ debtKobo: wallets.debtKobo }).from(wallets).where(eq(wallets.userId, userId)),
  ]);
  return {
    debt: koboToNaira(wallet?.debtKobo ?? 0n),
    reversals: rows.map(({ reversal, reference, taken, debt, returned }) => ({
      id: reversal.id,
      reference,
      provider: reversal.provider,
      kind: reversal.kind,
      status: reversal.status,
      amount: koboToNaira(reversal.amountKobo),
      taken: koboToNaira(BigInt(taken ?? 0)),
      debt: koboToNaira(BigInt(debt ?? 0)),
      returned: koboToNaira(BigInt(returned ?? 0)),
      created_at: reversal.createdAt.toISOString(),
      resolved_at: reversal.resolvedAt ? reversal.resolvedAt.toISOString() : null,
    })),
  };
}
