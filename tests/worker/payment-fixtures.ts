// Shared setup for the payment-mode and Flutterwave tests. Payment settings are one row for the
// whole shop, and other test files take deposits at the same time: so each test here changes them
// inside a transaction that is rolled back, and drives the payment services on that transaction.
import { env } from 'cloudflare:test';
import { eq, sql, TransactionRollbackError } from 'drizzle-orm';
import { expect } from 'vitest';
import { paymentReversals, settings, wallets } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../../worker/db';
import type { Env } from '../../worker/env';
import { encryptSecret } from '../../worker/lib/crypto';
import type { VerifyPaymentInput } from '../../worker/schemas/wallet';
import { claimedReference, payerIntentQuery, verifyDeposit } from '../../worker/services/money/payments';
import { reconcile } from '../../worker/services/money/reconciliation';
import type { SecretName, StoredPaymentSettings } from '../../worker/services/settings/settings';
import { DEFAULT_PAYMENT_SETTINGS } from '../../worker/services/settings/settings';
import { withDb } from '../support/api';

/** Payment settings as an administrator would have saved them; keys are given in plain text. */
export interface PaymentSettingsFixture {
  provider?: StoredPaymentSettings['provider'];
  mode?: StoredPaymentSettings['mode'];
  keys?: Partial<Record<SecretName, string>>;
}

/**
 * Runs fn on a transaction in which the payment settings are `fixture` (or absent, for null), then
 * checks the books still reconcile and rolls everything back, so parallel files never see it.
 */
export async function withPaymentSettings(fixture: PaymentSettingsFixture | null, fn: (db: Db) => Promise<void>): Promise<void> {
  const secrets: StoredPaymentSettings['secrets'] = {};
  for (const [name, value] of Object.entries(fixture?.keys ?? {})) secrets[name as SecretName] = await encryptSecret(env.ENCRYPTION_KEY, value);
  await withDb((db) =>
    db
      .transaction(async (tx) => {
        if (fixture === null) {
          await tx.delete(settings).where(eq(settings.key, 'payment'));
        } else {
          const value = { ...DEFAULT_PAYMENT_SETTINGS, ...(fixture.mode ? { mode: fixture.mode } : {}), provider: fixture.provider ?? 'paystack', secrets };
          await tx.insert(settings).values({ key: 'payment', value }).onConflictDoUpdate({ target: settings.key, set: { value } });
        }
        await fn(tx as unknown as Db);
        const report = await reconcile(tx);
        expect(report.ok, JSON.stringify(report)).toBe(true);
        tx.rollback();
      })
      .catch((error) => {
        if (!(error instanceof TransactionRollbackError)) throw error;
      }),
  );
}

/** verify-payment as its route runs it: the payer's intent of the claimed reference read first, then verified. */
export async function verifyAsPayer(db: Db, bindings: Env, userId: number, input: VerifyPaymentInput): Promise<number> {
  const [intent] = await payerIntentQuery(db, userId, claimedReference(input));
  return verifyDeposit(db, bindings, userId, input, intent);
}

export async function balanceKobo(db: Db, userId: number): Promise<bigint> {
  const [wallet] = await db.select({ balance: wallets.balanceKobo }).from(wallets).where(eq(wallets.userId, userId));
  return wallet.balance;
}

/** A user's refunds and disputes, each with what its moves took from the payer's balance, left as debt and gave back. */
export const reversalsWithMoves = (db: DbOrTx, userId: number) => {
  const moved = (column: string) =>
    sql<string>`(select coalesce(sum(${sql.raw(column)}), 0) from payment_reversal_moves m where m.reversal_id = payment_reversals.id and m.party = 'payer')`.mapWith(
      BigInt,
    );
  return db
    .select({
      kind: paymentReversals.kind,
      status: paymentReversals.status,
      provider: paymentReversals.provider,
      amountKobo: paymentReversals.amountKobo,
      resolvedAt: paymentReversals.resolvedAt,
      takenKobo: moved('m.taken_kobo'),
      debtKobo: moved('m.debt_kobo'),
      returnedKobo: moved('m.returned_kobo'),
    })
    .from(paymentReversals)
    .where(eq(paymentReversals.userId, userId));
};
