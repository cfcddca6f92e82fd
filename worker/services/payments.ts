// Card funding of the wallet. The browser is never trusted: every credit follows the
// provider's own verify answer, and the payment intent's status is claimed in the same
// transaction as the ledger credit, so return page, webhook, cron and retries credit once.
import { and, asc, eq, gt, isNull, lt, ne, or, sql } from 'drizzle-orm';
import { paymentIntents } from '../../drizzle/schema';
import type { Db, DbOrTx } from '../db';
import type { Env } from '../env';
import { hmacHex, toHex, verifyHmacHex } from '../lib/crypto';
import { koboToNumber, nairaToKobo } from '../lib/decimal';
import { AppError, invalid, notFound, rateLimited } from '../lib/errors';
import { log } from '../lib/log';
import { type PaymentProvider, PaymentProviderError, type PaymentProviderName, type VerifiedPayment } from '../providers/payments/types';
import { ORDER_STATUS, type VerifyPaymentInput } from '../schemas/wallet';
import { receiveTransfer, transferBeforeItsReversal } from './bank-transfers';
import { applyReversal, reportUnreadableReversal } from './chargebacks';
import { afterDepositCredited } from './deposit-credited';
import { applyLedgerEntry } from './ledger';
import { recordProviderRefusal } from './payment-health';
import { keysProblem, paymentAdapter, providerKeys, TEST_PAYMENT_IN_LIVE_MODE } from './payment-settings';
import { settleDebt } from './reversal-moves';
import { getPaymentSettings, type PaymentMode } from './settings';

// The wallet route reads it with the payment calls; the SPA imports it from worker/schemas/wallet.
export const INVALID_PAYMENT_PAYLOAD = 'This payment could not be verified. Please start the deposit again.';
/** The same answer for a reference that is unknown and for one of another user's payments. */
export const PAYMENT_NOT_FOUND = 'We found no payment with this reference on your account.';

const NOT_CONFIGURED = 'Card payments are not configured yet. Please contact support.';
export const UNAVAILABLE = 'Card payments are unavailable right now. Please try again later or contact support.';

/**
 * Deposits a payer may have waiting (started, neither paid nor refused) within the window: more is
 * a script or a payer starting over and over, each one a checkout the provider keeps open.
 */
export const PENDING_DEPOSITS_CAP = 5;
const PENDING_WINDOW_MINUTES = 30;
export const TOO_MANY_PENDING_DEPOSITS = `You have ${PENDING_DEPOSITS_CAP} payments waiting. Finish or cancel one, or wait ${PENDING_WINDOW_MINUTES} minutes.`;
/** First key of the advisory lock that queues one payer's deposit starts (the second is the payer's id). */
const DEPOSIT_START_LOCK = 0x6465_706f;

export interface PaymentGateway {
  provider: PaymentProvider;
  /** What the shop takes now: in live mode only live transactions are credited. */
  mode: PaymentMode;
}

/**
 * The adapter for a provider (by default the one chosen in payment settings), with the shop's mode.
 * Intents are always verified with the provider they were started with, even after an administrator
 * switches. Keys that cannot take payments in this mode refuse every call: the customer is told
 * plainly, the administrator reads why in the log, on the dashboard and in Payment Settings.
 */
export async function paymentGateway(db: DbOrTx, env: Env, name?: PaymentProviderName): Promise<PaymentGateway> {
  const settings = await getPaymentSettings(db, env);
  const providerName = name ?? settings.provider;
  const keys = await providerKeys(settings, env, providerName);
  const problem = keysProblem(settings.mode, providerName, keys);
  if (problem) {
    log.error('card payments refused', { provider: providerName, mode: settings.mode, reason: problem.message });
    throw new AppError('unavailable', problem.kind === 'missing' ? NOT_CONFIGURED : UNAVAILABLE);
  }
  return { provider: paymentAdapter(env, providerName, keys.secretKey!.value, keys.webhookSecretHash?.value), mode: settings.mode };
}

/**
 * The customer's answer when the provider refuses the shop's own key (401/403: mistyped, revoked,
 * a blocked account): no partner's words, just that card payments are down. The refusal is logged
 * and counted for the administrator's dashboard. Any other failure is returned as it is.
 */
export async function refusalToCustomer(db: Db, provider: PaymentProviderName, error: unknown): Promise<unknown> {
  // Only an authentication refusal says the shop's key is bad; a 4xx about one payment (an email the
  // provider dislikes, a rate limit) must not raise the administrator's alarm or be counted by customers.
  const refusesTheShop = error instanceof PaymentProviderError && error.kind === 'rejected' && (error.httpStatus === 401 || error.httpStatus === 403);
  if (!refusesTheShop) return error;
  log.error('payment provider refused the shop', { provider, httpStatus: error.httpStatus, error: error.message });
  try {
    await recordProviderRefusal(db, provider, error.message);
  } catch (recordError) {
    log.error('could not record a payment provider refusal', { provider, error: String(recordError) });
  }
  return new AppError('unavailable', UNAVAILABLE);
}

/**
 * Records the intent unless the payer already has PENDING_DEPOSITS_CAP waiting. The count and the
 * insert run under a per-payer lock: as one statement alone, two requests at once would each miss
 * the other's new row (a statement sees only rows committed before it began).
 */
async function recordIntent(db: Db, intent: { reference: string; userId: number; provider: PaymentProviderName; amountKobo: bigint }) {
  // Interactive: the per-payer advisory lock is held by the transaction that counts and inserts.
  const inserted = await db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(${DEPOSIT_START_LOCK}::int, ${intent.userId}::int)`);
    const result = await tx.execute(sql`
      insert into ${paymentIntents} (reference, user_id, provider, amount_kobo)
      select ${intent.reference}::text, ${intent.userId}::int, ${intent.provider}::text, ${intent.amountKobo.toString()}::bigint
      where (select count(*) from ${paymentIntents}
             where user_id = ${intent.userId}::int and status = 'pending' and created_at > now() - make_interval(mins => ${PENDING_WINDOW_MINUTES}::int)) < ${PENDING_DEPOSITS_CAP}
      returning id`);
    return result.rows.length;
  });
  if (inserted === 0) throw rateLimited(TOO_MANY_PENDING_DEPOSITS);
}

/** The payload signature names the reference and binds it to the amount, the checkout URL and the payer. */
async function signPayload(secret: string, reference: string, amountKobo: bigint, userId: number, checkoutUrl: string) {
  return hmacHex(`payment-payload:${secret}`, `${reference}|${amountKobo}|${userId}|${checkoutUrl}`);
}

export interface DepositStart {
  checkoutUrl: string;
  signature: string;
  amount: number;
  reference: string;
}

export async function startDeposit(db: Db, env: Env, payer: { id: number; email: string }, amountNaira: string): Promise<DepositStart> {
  const amountKobo = nairaToKobo(amountNaira);
  const settings = await getPaymentSettings(db, env);
  const [min, max] = [BigInt(settings.minDepositKobo), BigInt(settings.maxDepositKobo)];
  if (amountKobo < min || amountKobo > max) {
    throw invalid(`Amount must be between ₦${(min / 100n).toLocaleString('en-US')} and ₦${(max / 100n).toLocaleString('en-US')}`);
  }
  const { provider } = await paymentGateway(db, env);
  // Paystack allows only letters, digits, '-', '.' and '=' in references.
  const reference = `dep-${toHex(crypto.getRandomValues(new Uint8Array(12)))}`;
  // Recorded before checkout starts, so a webhook can never arrive for an intent we do not know.
  await recordIntent(db, { reference, userId: payer.id, provider: provider.name, amountKobo });
  let checkoutUrl: string;
  try {
    ({ checkoutUrl } = await provider.initialize({
      reference,
      amountKobo,
      email: payer.email,
      currency: 'NGN',
      callbackUrl: `${env.APP_URL}/user/confirm-payment`,
      metadata: { userId: String(payer.id) },
    }));
  } catch (error) {
    // No checkout link reached the payer, so nothing waits on this intent and it stops counting
    // towards the cap. Should the provider report a payment anyway, it is still credited.
    await db
      .update(paymentIntents)
      .set({
        status: 'failed',
        providerStatus: `checkout not started: ${String(error instanceof Error ? error.message : error).slice(0, 200)}`,
        lastCheckedAt: new Date(),
      })
      .where(and(eq(paymentIntents.reference, reference), eq(paymentIntents.status, 'pending')));
    throw await refusalToCustomer(db, provider.name, error);
  }
  await db.update(paymentIntents).set({ checkoutUrl }).where(eq(paymentIntents.reference, reference));
  const signature = `${reference}.${await signPayload(env.JWT_SECRET, reference, amountKobo, payer.id, checkoutUrl)}`;
  return { checkoutUrl, signature, amount: koboToNumber(amountKobo), reference };
}

type Intent = typeof paymentIntents.$inferSelect;

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

async function verifyIntent(db: Db, env: Env, intent: Intent, transactionId?: string): Promise<number> {
  if (intent.status === 'success') return ORDER_STATUS.success;
  const { provider, mode } = await paymentGateway(db, env, intent.provider as PaymentProviderName);
  let verified = await provider.verify(intent.reference, transactionId);
  // A transaction id can come from a return address the payer can edit: one the provider does not
  // know must not fail a paid deposit, so the reference, which is ours, decides.
  if (verified.status === 'not_found' && transactionId !== undefined) verified = await provider.verify(intent.reference);
  return applyVerification(db, intent, verified, mode);
}

/** The payer's intent of that reference: a query, so the route can send it with the session check. */
export const payerIntentQuery = (db: Db, userId: number, reference: string) =>
  db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.reference, reference), eq(paymentIntents.userId, userId)));

/** The reference a verify-payment call names: the one its signed payload carries, or the return address's. */
export const claimedReference = (input: VerifyPaymentInput): string => ('signature' in input ? input.signature.split('.')[0] : input.reference);

/**
 * The return page's call, with the payer's intent of the claimed reference already read (with the
 * session check). With the stored payload, our own signature is checked first; with only the
 * reference from the return address, the intent must be the caller's. Either way the provider is
 * then asked, so a reference alone can only ever reveal, never change, a payment's outcome.
 */
export async function verifyDeposit(db: Db, env: Env, userId: number, input: VerifyPaymentInput, intent: Intent | undefined): Promise<number> {
  if ('signature' in input) {
    const [reference, mac] = input.signature.split('.');
    const amountKobo = nairaToKobo(input.amount);
    if (!reference || !mac || !(await verifyHmacHex(`payment-payload:${env.JWT_SECRET}`, `${reference}|${amountKobo}|${userId}|${input.checkoutUrl}`, mac))) {
      throw invalid(INVALID_PAYMENT_PAYLOAD);
    }
    if (!intent) throw invalid(INVALID_PAYMENT_PAYLOAD);
  } else if (!intent) {
    throw notFound(PAYMENT_NOT_FOUND);
  }
  try {
    return await verifyIntent(db, env, intent, 'transactionId' in input ? input.transactionId : undefined);
  } catch (error) {
    throw await refusalToCustomer(db, intent.provider as PaymentProviderName, error);
  }
}

/**
 * A provider webhook: authenticated from the raw bytes, then re-verified like any other claim.
 * Any authentic event naming one of our intents triggers that verification; the verify answer,
 * not the event, decides whether money is credited. A refund or dispute (authentic, and only ever
 * taking back what the provider took) is applied by chargebacks.ts once the payment it reverses
 * is settled here: a reversal can overtake the credit's own webhook.
 */
export async function handlePaymentWebhook(
  db: Db,
  env: Env,
  name: PaymentProviderName,
  rawBody: ArrayBuffer,
  headers: Headers,
): Promise<'processed' | 'ignored'> {
  const { provider } = await paymentGateway(db, env, name);
  const event = await provider.parseWebhook(rawBody, headers);
  if (!event) throw new AppError('unauthenticated', 'Invalid webhook signature');
  if (event.unreadable) {
    await reportUnreadableReversal(db, name, event.event, event.unreadable);
    return 'ignored';
  }
  if (!event.reference) return 'ignored';
  const [intent] = await db
    .select()
    .from(paymentIntents)
    .where(and(eq(paymentIntents.reference, event.reference), eq(paymentIntents.provider, name)));
  // A paid transaction we never started may be a bank transfer to a user's dedicated account.
  if (!intent) {
    if (name !== 'paystack') return 'ignored';
    if (!event.reversal) return event.event === 'charge.success' ? receiveTransfer(db, env, { ...event, reference: event.reference }) : 'ignored';
    // A refund or dispute of a transfer whose own webhook has not come yet: the transfer is credited first.
    if ((await transferBeforeItsReversal(db, env, event.reference)) === 'ignored') return 'ignored';
    const [credited] = await db
      .select()
      .from(paymentIntents)
      .where(and(eq(paymentIntents.reference, event.reference), eq(paymentIntents.provider, name)));
    return applyReversal(db, credited, event.reversal);
  }
  await verifyIntent(db, env, intent, event.transactionId);
  if (!event.reversal) return 'processed';
  const [settled] = await db.select().from(paymentIntents).where(eq(paymentIntents.id, intent.id));
  return applyReversal(db, settled, event.reversal);
}

/** Cron: intents left pending (the payer closed the tab) are asked about again, a batch at a time, the longest unchecked first. */
export async function reverifyPendingDeposits(db: Db, env: Env, limit = 25): Promise<{ checked: number; credited: number }> {
  const due = await db
    .select()
    .from(paymentIntents)
    .where(
      and(
        eq(paymentIntents.status, 'pending'),
        lt(paymentIntents.createdAt, sql`now() - interval '2 minutes'`),
        gt(paymentIntents.createdAt, sql`now() - interval '2 days'`),
        or(isNull(paymentIntents.lastCheckedAt), lt(paymentIntents.lastCheckedAt, sql`now() - interval '2 minutes'`)),
      ),
    )
    // Never-checked first (Postgres sorts nulls last by default), so abandoned checkouts cannot starve new ones.
    .orderBy(sql`${paymentIntents.lastCheckedAt} asc nulls first`, asc(paymentIntents.createdAt))
    .limit(limit);
  let credited = 0;
  for (const intent of due) {
    try {
      if ((await verifyIntent(db, env, intent)) === ORDER_STATUS.success) credited += 1;
    } catch (error) {
      log.warn('payment re-verification failed', { reference: intent.reference, error: String(error) });
      await db.update(paymentIntents).set({ lastCheckedAt: new Date() }).where(eq(paymentIntents.id, intent.id));
    }
  }
  return { checked: due.length, credited };
}
