// A payment the provider has verified, applied to its intent: credited exactly once, refused, or
// flagged when a live shop sees sandbox money. Card deposits and bank transfers both end here.
import { and, eq, ne, sql } from 'drizzle-orm';
import { paymentIntents } from '../../../drizzle/schema';
import { ORDER_STATUS } from '../../../vocabulary';
import type { Db } from '../../db';
import { log } from '../../lib/log';
import type { PaymentProviderName, VerifiedPayment } from '../../providers/payments/types';

import type { PaymentMode } from '../settings';
import { afterDepositCredited } from './deposit-credited';
import { applyLedgerEntry } from './ledger';
import { TEST_PAYMENT_IN_LIVE_MODE } from './payment-settings';
import { settleDebt } from './reversal-moves';

export type Intent = typeof paymentIntents.$inferSelect;

/**
 * Applies the provider's verdict to an intent. Success with the expected amount and currency
 * credits the wallet exactly once: the status claim (only from a non-success state) and the
 * ledger row commit together, and the ledger's unique (payment, reference) backs it up.
 * A live shop credits only live money: a sandbox payment is flagged for the administrator instead.
 */
export async function applyVerification(db: Db, intent: Intent, verified: VerifiedPayment, mode: PaymentMode): Promise<number> {
  if (verified.status === 'success' && mode === 'live' && verified.domain !== 'live') return flagTestPayment(db, intent, verified);
  const matches = verified.status === 'success' && verified.amountKobo === intent.amountKobo && verified.currency.toUpperCase() === intent.currency;
  if (matches) {
    // Interactive: the credit, the debt settlement and the referral commission follow only a won claim, and each reads what the last wrote.
    await db.transaction(async (tx) => {
      const [claimed] = await tx
        .update(paymentIntents)
        .set({
          status: 'success',
          providerStatus: verified.rawStatus,
          settledAt: new Date(),
          lastCheckedAt: new Date(),
          payerFingerprint: verified.payerFingerprint ?? null,
        })
        .where(and(eq(paymentIntents.id, intent.id), ne(paymentIntents.status, 'success')))
        .returning({ id: paymentIntents.id });
      if (!claimed) return;
      await applyLedgerEntry(tx, {
        userId: intent.userId,
        direction: 'credit',
        amountKobo: intent.amountKobo,
        source: 'payment',
        sourceRef: intent.reference,
        description: `Wallet funding by ${intent.channel === 'bank_transfer' ? 'bank transfer' : 'card'} (${intent.reference})`,
      });
      // A debt left by a reversed payment is paid before the new money can be spent.
      await settleDebt(tx, intent.userId, `payment:${intent.reference}`);
      await afterDepositCredited(tx, {
        intentId: intent.id,
        userId: intent.userId,
        amountKobo: intent.amountKobo,
        reference: intent.reference,
        channel: intent.channel,
        provider: intent.provider as PaymentProviderName,
      });
    });
    return ORDER_STATUS.success;
  }
  // A success whose amount or currency differs is tampering or a provider error: never credit it.
  const failed = verified.status === 'failed' || verified.status === 'not_found' || verified.status === 'success';
  const providerStatus = verified.status === 'success' ? `mismatch: ${verified.currency} ${verified.amountKobo}` : verified.rawStatus;
  const [updated] = await db
    .update(paymentIntents)
    .set({ status: failed ? 'failed' : 'pending', providerStatus, lastCheckedAt: new Date() })
    .where(and(eq(paymentIntents.id, intent.id), ne(paymentIntents.status, 'success')))
    .returning({ id: paymentIntents.id });
  // No row: a concurrent verification credited it meanwhile.
  if (!updated) return ORDER_STATUS.success;
  return failed ? ORDER_STATUS.failed : ORDER_STATUS.pending;
}

/** Marks a sandbox payment seen by a live shop as failed and flagged (see payment-settings.ts), warning once in the log. */
async function flagTestPayment(db: Db, intent: Intent, verified: VerifiedPayment): Promise<number> {
  const [flagged] = await db
    .update(paymentIntents)
    .set({ status: 'failed', providerStatus: TEST_PAYMENT_IN_LIVE_MODE, lastCheckedAt: new Date() })
    .where(
      and(
        eq(paymentIntents.id, intent.id),
        ne(paymentIntents.status, 'success'),
        sql`${paymentIntents.providerStatus} is distinct from ${TEST_PAYMENT_IN_LIVE_MODE}`,
      ),
    )
    .returning({ id: paymentIntents.id });
  if (flagged) {
    log.warn('test payment refused in live mode', { reference: intent.reference, provider: intent.provider, userId: intent.userId, domain: verified.domain });
  }
  const [now] = await db.select({ status: paymentIntents.status }).from(paymentIntents).where(eq(paymentIntents.id, intent.id));
  // Credited before the shop went live: that money stays where it is.
  return now?.status === 'success' ? ORDER_STATUS.success : ORDER_STATUS.failed;
}
