// Funding by bank transfer: a personal account number per user (Paystack Dedicated Virtual
// Accounts), and the transfers to it. A transfer is told by Paystack's charge.success webhook
// with a reference we never issued; it is verified with Paystack, tied to the user by the
// customer code of the VERIFIED transaction (never by the webhook body), recorded as a
// bank-transfer payment intent and credited by applyVerification like a card payment: once
// (the intent's unique reference, the ledger's unique source), with the same chargeback,
// reconciliation, referral and notification paths. Money that arrives is credited even after the
// method was turned off: the customer sent it to the account we gave them, and one that cannot be credited
// at once is tried again from a queue until it can, or an administrator is told.
import { and, eq, sql } from 'drizzle-orm';
import { dedicatedAccounts, paymentIntents, users } from '../../../drizzle/schema';
import type { Db } from '../../db';
import { type Env, isLocalEnvironment } from '../../env';
import { AppError, invalid } from '../../lib/errors';
import { log } from '../../lib/log';
import type { DedicatedAccount, DedicatedAccountProvider, PaymentProvider, WebhookEvent } from '../../providers/payments/types';
import { enforceRateLimit } from '../accounts';
import { recordWarning } from '../oversight';
import { bankTransferOffered, getPaymentSettings, type PaymentMode } from '../settings';
import { paymentGateway, refusalToCustomer } from './payment-gateway';
import { applyVerification } from './verified-payments';

/** Seconds before a transfer that could not be credited is first tried again. */
export const TRANSFER_RETRY_FIRST_DELAY = 60;

export const BANK_TRANSFER_OFF = 'Bank transfer funding is not available right now. Please pay by card.';
/** Asking for an account number calls Paystack twice: a few tries per hour is plenty. */
const REQUESTS_PER_HOUR = 5;

const canAssignAccounts = (provider: PaymentProvider): provider is PaymentProvider & DedicatedAccountProvider => 'createDedicatedAccount' in provider;

type AccountRow = typeof dedicatedAccounts.$inferSelect;

/**
 * The account as its owner sees it. On the local stack in test mode it also names the Paystack
 * fake's page that sends a test transfer, as a bank app would; a real deployment has none.
 */
function accountView(row: AccountRow, env: Env, mode: PaymentMode) {
  const sandbox = mode === 'test' && env.PAYSTACK_BASE_URL && isLocalEnvironment(env) ? `${env.PAYSTACK_BASE_URL.replace(/\/$/, '')}/transfer` : null;
  return {
    status: row.status,
    accountNumber: row.accountNumber,
    accountName: row.accountName,
    bankName: row.bankName,
    provider: row.provider,
    sandboxTransferUrl: sandbox,
  };
}

/** GET user/dedicated-account: the user's account number, or null before they asked for one. */
export async function dedicatedAccountOf(db: Db, env: Env, userId: number) {
  const [[row], settings] = await Promise.all([db.select().from(dedicatedAccounts).where(eq(dedicatedAccounts.userId, userId)), getPaymentSettings(db, env)]);
  return row ? accountView(row, env, settings.mode) : null;
}

/** POST user/dedicated-account: the account number, made with Paystack the first time; the same one after. */
export async function requestDedicatedAccount(db: Db, env: Env, userId: number) {
  const [[existing], settings, [user]] = await Promise.all([
    db.select().from(dedicatedAccounts).where(eq(dedicatedAccounts.userId, userId)),
    getPaymentSettings(db, env),
    db.select({ email: users.email, fullName: users.fullName }).from(users).where(eq(users.id, userId)),
  ]);
  if (existing?.status === 'active') return accountView(existing, env, settings.mode);
  if (!bankTransferOffered(settings)) throw invalid(BANK_TRANSFER_OFF);
  await enforceRateLimit(db, [`dedicated-account:${userId}`], REQUESTS_PER_HOUR, 3600);
  const { provider } = await paymentGateway(db, env, 'paystack');
  if (!canAssignAccounts(provider)) throw invalid(BANK_TRANSFER_OFF);
  const [firstName, ...rest] = user.fullName.trim().split(/\s+/);
  let account: DedicatedAccount;
  try {
    account = await provider.createDedicatedAccount({ email: user.email, firstName, lastName: rest.join(' ') || firstName });
  } catch (error) {
    throw await refusalToCustomer(db, 'paystack', error);
  }
  const values = { ...account, status: 'active' as const, error: null, updatedAt: new Date() };
  const [saved] = await db
    .insert(dedicatedAccounts)
    .values({ userId, provider: 'paystack', ...values })
    .onConflictDoUpdate({ target: dedicatedAccounts.userId, set: values })
    .returning();
  return accountView(saved, env, settings.mode);
}

/** A transfer that could not be credited yet, and why: Paystack has not settled it, or its account is not (yet) ours. */
export interface TransferWait {
  outcome: 'waiting';
  why: string;
  amountKobo: bigint | null;
}

/**
 * A charge.success about a reference we never issued: a transfer to a dedicated account, when Paystack's own
 * answer says so, credited once. A card payment we did not start, or a transaction Paystack calls failed, is
 * not ours ('ignored'); a transfer Paystack has not settled yet, or to an account we cannot tie to a user yet,
 * waits to be tried again (transfer-retries.ts), never dropped.
 */
export async function creditTransfer(
  db: Db,
  env: Env,
  reference: string,
  transactionId?: string,
): Promise<{ outcome: 'processed' | 'ignored' } | TransferWait> {
  const { provider, mode } = await paymentGateway(db, env, 'paystack');
  const verified = await provider.verify(reference, transactionId);
  if (verified.status === 'pending' || verified.status === 'not_found') {
    return { outcome: 'waiting', why: `Paystack calls it ${verified.rawStatus || verified.status}`, amountKobo: verified.amountKobo || null };
  }
  if (verified.channel !== 'dedicated_nuban' || verified.status !== 'success' || verified.amountKobo <= 0n) return { outcome: 'ignored' };
  // Wallets hold naira: a transfer in any other currency is the administrator's to settle by hand.
  if (verified.currency !== 'NGN') {
    log.warn('bank transfer not in naira', { reference, currency: verified.currency });
    await recordWarning(db, {
      kind: 'transfer_unclaimed',
      message: `A bank transfer (${reference}) of ${verified.currency} ${verified.amountKobo} minor units arrived; wallets hold naira, so nothing was credited. Settle it by hand.`,
      details: { reference, currency: verified.currency, amount: String(verified.amountKobo) },
    });
    return { outcome: 'ignored' };
  }
  const [account] = verified.customerCode
    ? await db
        .select({ userId: dedicatedAccounts.userId })
        .from(dedicatedAccounts)
        .where(and(eq(dedicatedAccounts.provider, 'paystack'), eq(dedicatedAccounts.customerCode, verified.customerCode)))
    : [];
  if (!account) {
    log.warn('bank transfer to an account we do not know yet', { reference, customerCode: verified.customerCode });
    return { outcome: 'waiting', why: `its account (customer ${verified.customerCode ?? 'unknown'}) belongs to no user here`, amountKobo: verified.amountKobo };
  }
  await db.execute(sql`
    insert into ${paymentIntents} (reference, user_id, provider, channel, amount_kobo, currency)
    values (${reference}, ${account.userId}, 'paystack', 'bank_transfer', ${verified.amountKobo}, ${verified.currency})
    on conflict (reference) do nothing`);
  const [intent] = await db.select().from(paymentIntents).where(eq(paymentIntents.reference, reference));
  // The reference is Paystack's: only a transfer intent of this very account may be credited by it.
  if (intent.channel !== 'bank_transfer' || intent.userId !== account.userId) return { outcome: 'ignored' };
  await applyVerification(db, intent, verified, mode);
  return { outcome: 'processed' };
}

/**
 * A refund or dispute about a reference we never issued may be of a transfer whose own webhook is late: it is
 * credited first, so the reversal then has its payment. One that cannot be credited yet is refused (503) so that
 * Paystack sends the reversal again; one that is not a transfer of ours (or that Paystack calls failed, a transfer
 * refunded whole before we credited it) is 'ignored'.
 */
export async function transferBeforeItsReversal(db: Db, env: Env, reference: string): Promise<'processed' | 'ignored'> {
  const result = await creditTransfer(db, env, reference);
  if (result.outcome === 'waiting') throw new AppError('unavailable', `This transfer cannot be credited yet (${result.why}); send the event again later`);
  return result.outcome;
}

/** The webhook's part: credit the transfer now, or put it on the payment-events queue to be tried again. */
export async function receiveTransfer(db: Db, env: Env, event: WebhookEvent & { reference: string }): Promise<'processed' | 'ignored'> {
  const result = await creditTransfer(db, env, event.reference, event.transactionId);
  if (result.outcome !== 'waiting') return result.outcome;
  await env.PAYMENT_EVENTS.send(
    { kind: 'transfer', reference: event.reference, transactionId: event.transactionId ?? null },
    { delaySeconds: TRANSFER_RETRY_FIRST_DELAY },
  );
  return 'processed';
}
