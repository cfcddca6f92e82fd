// Card funding of the wallet. The browser is never trusted: every credit follows the
// provider's own verify answer, and the payment intent's status is claimed in the same
// transaction as the ledger credit, so return page, webhook, cron and retries credit once.
import { and, asc, eq, gt, isNull, lt, or, sql } from 'drizzle-orm';
import { paymentIntents } from '../../../drizzle/schema';
import { ORDER_STATUS } from '../../../vocabulary';
import type { Db } from '../../db';
import type { Env } from '../../env';
import { hmacHex, toHex, verifyHmacHex } from '../../lib/crypto';
import { formatNaira, koboToNumber, nairaToKobo } from '../../lib/decimal';
import { AppError, invalid, notFound, rateLimited } from '../../lib/errors';
import { log } from '../../lib/log';
import type { PaymentProviderName } from '../../providers/payments/types';
import type { VerifyPaymentInput } from '../../schemas/wallet';
import { getPaymentSettings } from '../settings';
import { receiveTransfer, transferBeforeItsReversal } from './bank-transfers';
import { applyReversal, reportUnreadableReversal } from './chargebacks';
import { paymentGateway, refusalToCustomer } from './payment-gateway';
import { applyVerification, type Intent } from './verified-payments';

// The wallet route reads it with the payment calls; the SPA imports it from worker/schemas/wallet.
export const INVALID_PAYMENT_PAYLOAD = 'This payment could not be verified. Please start the deposit again.';
/** The same answer for a reference that is unknown and for one of another user's payments. */
export const PAYMENT_NOT_FOUND = 'We found no payment with this reference on your account.';

/**
 * Deposits a payer may have waiting (started, neither paid nor refused) within the window: more is
 * a script or a payer starting over and over, each one a checkout the provider keeps open.
 */
export const PENDING_DEPOSITS_CAP = 5;
const PENDING_WINDOW_MINUTES = 30;
export const TOO_MANY_PENDING_DEPOSITS = `You have ${PENDING_DEPOSITS_CAP} payments waiting. Finish or cancel one, or wait ${PENDING_WINDOW_MINUTES} minutes.`;
/** First key of the advisory lock that queues one payer's deposit starts (the second is the payer's id). */
const DEPOSIT_START_LOCK = 0x6465_706f;

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
    throw invalid(`Amount must be between ${formatNaira(min)} and ${formatNaira(max)}`);
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

/** A deposit's outcome (ORDER_STATUS) and, for a decline, the provider's reason, which the payer reads before trying again. */
export interface DepositCheck {
  orderStatus: number;
  declineReason: string | null;
}

async function checkIntent(db: Db, env: Env, intent: Intent, transactionId?: string): Promise<DepositCheck> {
  if (intent.status === 'success') return { orderStatus: ORDER_STATUS.success, declineReason: null };
  const { provider, mode } = await paymentGateway(db, env, intent.provider as PaymentProviderName);
  let verified = await provider.verify(intent.reference, transactionId);
  // A transaction id can come from a return address the payer can edit: one the provider does not
  // know must not fail a paid deposit, so the reference, which is ours, decides.
  if (verified.status === 'not_found' && transactionId !== undefined) verified = await provider.verify(intent.reference);
  const orderStatus = await applyVerification(db, intent, verified, mode);
  return { orderStatus, declineReason: orderStatus === ORDER_STATUS.failed && verified.status === 'failed' ? (verified.declineReason ?? null) : null };
}

const verifyIntent = async (db: Db, env: Env, intent: Intent, transactionId?: string): Promise<number> =>
  (await checkIntent(db, env, intent, transactionId)).orderStatus;

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
export async function checkDeposit(db: Db, env: Env, userId: number, input: VerifyPaymentInput, intent: Intent | undefined): Promise<DepositCheck> {
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
    return await checkIntent(db, env, intent, 'transactionId' in input ? input.transactionId : undefined);
  } catch (error) {
    throw await refusalToCustomer(db, intent.provider as PaymentProviderName, error);
  }
}

/** checkDeposit's outcome alone. */
export const verifyDeposit = async (...args: Parameters<typeof checkDeposit>): Promise<number> => (await checkDeposit(...args)).orderStatus;

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
