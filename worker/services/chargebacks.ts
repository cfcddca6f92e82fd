// Money a payment provider takes back after it was credited to a wallet: a refund, or a dispute
// (chargeback). The rules:
//   - what the wallet still holds is taken back through the ledger ('chargeback'); the part already
//     spent becomes the wallet's debt, which blocks orders (ledger.ts) until credits settle it;
//   - each refund or dispute moves money once: its (provider, event key) row is unique, and every
//     later event about it only moves it forward (open -> won or lost), so replayed, duplicated or
//     reordered webhooks move nothing a second time;
//   - a dispute resolved in the shop's favour gives back what it took ('chargeback_return'), which
//     settles any debt still owed like a deposit does; one resolved against the shop stays taken;
//   - one payment is never reversed for more than it credited, whatever events arrive;
//   - every reversal, and every event that could not be applied, is a warning for the administrators.
// Reversals of one payment run one at a time: each locks its payment intent first.
import { and, eq, ne, sql } from 'drizzle-orm';
import { paymentIntents, paymentReversals, users, wallets } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import { formatNaira, koboToNaira } from '../lib/decimal';
import { log } from '../lib/log';
import type { PaymentProviderName, PaymentReversal, ReversalState } from '../providers/payments/types';
import { PAYMENT_PROVIDER_LABELS } from '../schemas/settings';
import { addDebt, applyLedgerEntry } from './ledger';
import { recordWarning } from './margin';

type Intent = typeof paymentIntents.$inferSelect;
type Reversal = typeof paymentReversals.$inferSelect;
type ReversalStatus = Reversal['status'];

const STATUS_OF_STATE: Record<ReversalState, ReversalStatus> = { taken: 'taken', open: 'dispute_open', won: 'dispute_won', lost: 'dispute_lost' };

const min = (a: bigint, b: bigint) => (a < b ? a : b);

/** The ledger reference of a reversal's entries: the provider's own name for it, unique per provider. */
const ledgerRef = (provider: string, eventKey: string) => `${provider}:${eventKey}`;

/**
 * Pays what the wallet's balance can towards its debt, in the caller's transaction: called after
 * every deposit credit and every dispute given back, so that money settles the debt before it can
 * be spent. `sourceRef` names the credit, so each credit settles once.
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
    description: `Paid towards the ${formatNaira(wallet.debtKobo)} owed after a reversed card payment`,
  });
}

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

/** The first event about a refund or dispute: takes back what it can, and records the rest as debt. */
async function take(tx: DbOrTx, intent: Intent, reversal: PaymentReversal): Promise<void> {
  const status = STATUS_OF_STATE[reversal.state];
  const row = {
    intentId: intent.id,
    userId: intent.userId,
    provider: intent.provider,
    kind: reversal.kind,
    eventKey: reversal.key,
    status,
    amountKobo: reversal.amountKobo,
    providerDetails: reversal.details,
    resolvedAt: status === 'dispute_open' ? null : new Date(),
  };
  if (reversal.state === 'won') {
    // Resolved for the shop before we heard it open: nothing was taken, and nothing is.
    await tx.insert(paymentReversals).values({ ...row, takenKobo: 0n, debtKobo: 0n });
    return warn(
      tx,
      intent,
      reversal,
      `a dispute of ${formatNaira(reversal.amountKobo)} was resolved in the shop's favour before it was opened here; no money moved.`,
    );
  }
  const [{ standing }] = await tx
    .select({ standing: sql<string>`coalesce(sum(${paymentReversals.takenKobo} + ${paymentReversals.debtKobo}), 0)` })
    .from(paymentReversals)
    .where(and(eq(paymentReversals.intentId, intent.id), ne(paymentReversals.status, 'dispute_won')));
  const room = intent.amountKobo - BigInt(standing);
  const reversing = min(reversal.amountKobo, room > 0n ? room : 0n);
  const [wallet] = await tx.select({ balanceKobo: wallets.balanceKobo }).from(wallets).where(eq(wallets.userId, intent.userId)).for('update');
  const taken = min(wallet?.balanceKobo ?? 0n, reversing);
  const debt = reversing - taken;
  await tx.insert(paymentReversals).values({ ...row, takenKobo: taken, debtKobo: debt });
  if (taken > 0n) {
    await applyLedgerEntry(tx, {
      userId: intent.userId,
      direction: 'debit',
      amountKobo: taken,
      source: 'chargeback',
      sourceRef: ledgerRef(intent.provider, reversal.key),
      debtChangeKobo: debt,
      description: reversal.kind === 'refund' ? `Card payment refunded (${intent.reference})` : `Card payment disputed (${intent.reference})`,
    });
  } else if (debt > 0n) {
    await addDebt(tx, intent.userId, debt);
  }
  const what = reversal.kind === 'refund' ? 'a refund' : reversal.state === 'lost' ? 'a dispute, already lost,' : 'a dispute';
  if (reversing < reversal.amountKobo) {
    return warn(
      tx,
      intent,
      reversal,
      `${what} of ${formatNaira(reversal.amountKobo)} exceeds what is left of this ${formatNaira(intent.amountKobo)} payment after earlier reversals; ` +
        `${formatNaira(taken)} taken from the wallet${debt > 0n ? `, ${formatNaira(debt)} recorded as debt` : ''}. Check it with the provider.`,
      { takenKobo: String(taken), debtKobo: String(debt) },
    );
  }
  const owed = debt > 0n ? ` The wallet held less: ${formatNaira(debt)} is recorded as debt, and orders are refused until deposits settle it.` : '';
  return warn(tx, intent, reversal, `${what} of ${formatNaira(reversal.amountKobo)} took ${formatNaira(taken)} back from the wallet.${owed}`, {
    takenKobo: String(taken),
    debtKobo: String(debt),
  });
}

/** A later event about a known dispute: only an open one moves, to won (money back) or lost (stays taken). */
async function advance(tx: DbOrTx, intent: Intent, existing: Reversal, reversal: PaymentReversal): Promise<void> {
  const next = STATUS_OF_STATE[reversal.state];
  if (next === existing.status || reversal.state === 'open' || reversal.state === 'taken') return;
  if (existing.status !== 'dispute_open') {
    // A final verdict contradicting an earlier final one: a person decides, nothing moves here.
    return warn(
      tx,
      intent,
      reversal,
      `the provider now says "${reversal.state}" of a dispute recorded as ${existing.status.replace('dispute_', '')}; no money moved. Check it with the provider.`,
    );
  }
  const [claimed] = await tx
    .update(paymentReversals)
    .set({
      status: next,
      resolvedAt: new Date(),
      providerDetails: sql`${paymentReversals.providerDetails} || ${JSON.stringify({ resolved: reversal.details })}::jsonb`,
    })
    .where(and(eq(paymentReversals.id, existing.id), eq(paymentReversals.status, 'dispute_open')))
    .returning({ id: paymentReversals.id });
  if (!claimed) return;
  if (next === 'dispute_lost')
    return warn(tx, intent, reversal, `the dispute was lost; the ${formatNaira(existing.takenKobo + existing.debtKobo)} stays taken.`);
  const back = existing.takenKobo + existing.debtKobo;
  if (back > 0n) {
    const ref = ledgerRef(intent.provider, existing.eventKey);
    await applyLedgerEntry(tx, {
      userId: intent.userId,
      direction: 'credit',
      amountKobo: back,
      source: 'chargeback_return',
      sourceRef: ref,
      description: `Card payment dispute resolved in your favour (${intent.reference})`,
    });
    await settleDebt(tx, intent.userId, `chargeback_return:${ref}`);
  }
  return warn(tx, intent, reversal, `the dispute was won; ${formatNaira(back)} given back to the wallet (settling any debt first).`);
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
  // Interactive: locks the intent, then takes or advances the reversal by what is recorded.
  await db.transaction(async (tx) => {
    await tx.select({ id: paymentIntents.id }).from(paymentIntents).where(eq(paymentIntents.id, intent.id)).for('update');
    const [existing] = await tx
      .select()
      .from(paymentReversals)
      .where(and(eq(paymentReversals.provider, intent.provider), eq(paymentReversals.eventKey, reversal.key)));
    if (existing) await advance(tx, intent, existing, reversal);
    else await take(tx, intent, reversal);
  });
  return 'processed';
}

/** An authentic refund or dispute event we could not read: no money moves, the administrators are told. */
export async function reportUnreadableReversal(db: DbOrTx, provider: PaymentProviderName, event: string, problem: string): Promise<void> {
  log.warn('unreadable payment reversal', { provider, event, problem });
  await recordWarning(db, { kind: 'payment_reversed', message: `${problem}. No money moved; check it with the provider.`, details: { provider, event } });
}

/** The admin user page's view of a user's reversals and debt. */
export async function reversalsForUser(db: DbOrTx, userId: number, limit = 50) {
  const [rows, [wallet]] = await Promise.all([
    db
      .select({ reversal: paymentReversals, reference: paymentIntents.reference })
      .from(paymentReversals)
      .innerJoin(paymentIntents, eq(paymentIntents.id, paymentReversals.intentId))
      .where(eq(paymentReversals.userId, userId))
      .orderBy(sql`${paymentReversals.createdAt} desc, ${paymentReversals.id} desc`)
      .limit(limit),
    db.select({ debtKobo: wallets.debtKobo }).from(wallets).where(eq(wallets.userId, userId)),
  ]);
  return {
    debt: koboToNaira(wallet?.debtKobo ?? 0n),
    reversals: rows.map(({ reversal, reference }) => ({
      id: reversal.id,
      reference,
      provider: reversal.provider,
      kind: reversal.kind,
      status: reversal.status,
      amount: koboToNaira(reversal.amountKobo),
      taken: koboToNaira(reversal.takenKobo),
      debt: koboToNaira(reversal.debtKobo),
      created_at: reversal.createdAt.toISOString(),
      resolved_at: reversal.resolvedAt ? reversal.resolvedAt.toISOString() : null,
    })),
  };
}
