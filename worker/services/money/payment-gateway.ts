// Which payment provider answers, with which keys, in the shop's mode; and what the customer is told
// when the provider refuses the shop's own key. Card deposits and bank transfers both go through it.
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { AppError } from '../../lib/errors';
import { log } from '../../lib/log';
import { type InitializePaymentInput, type PaymentProvider, PaymentProviderError, type PaymentProviderName } from '../../providers/payments/types';
import { getPaymentSettings, type PaymentMode, type StoredPaymentSettings } from '../settings';
import { keyFingerprint, recordKeyUse, recordProviderRefusal } from './payment-health';
import { keysProblem, paymentAdapter, providerKeys } from './payment-settings';

const NOT_CONFIGURED = 'Card payments are not configured yet. Please contact support.';
export const UNAVAILABLE = 'Card payments are unavailable right now. Please try again later or contact support.';

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
 * `settingsRead`: the payment settings, when the caller read them already beside its own statements.
 */
export async function paymentGateway(db: DbOrTx, env: Env, name?: PaymentProviderName, settingsRead?: StoredPaymentSettings): Promise<PaymentGateway> {
  const settings = settingsRead ?? (await getPaymentSettings(db, env));
  const providerName = name ?? settings.provider;
  const keys = await providerKeys(settings, env, providerName);
  const problem = keysProblem(settings.mode, providerName, keys);
  if (problem) {
    log.error('card payments refused', { provider: providerName, mode: settings.mode, reason: problem.message });
    throw new AppError('unavailable', problem.kind === 'missing' ? NOT_CONFIGURED : UNAVAILABLE);
  }
  const secretKey = keys.secretKey!.value;
  return { provider: recordingKeyUse(db, env, paymentAdapter(env, providerName, secretKey, keys.webhookSecretHash?.value), secretKey), mode: settings.mode };
}

/**
 * The adapter, noting the first answer to a call made with the secret key (a checkout started, a payment
 * verified) as proof the key works, so Payment Settings reads a key taking deposits as in use, not
 * "Not verified". Once per gateway: the reconciliation's twenty re-verifications write it once. Noting it
 * never fails the payment.
 */
function recordingKeyUse<P extends PaymentProvider>(db: DbOrTx, env: Env, adapter: P, secretKey: string): P {
  let noted: Promise<void> | undefined;
  const noteUse = () =>
    (noted ??= (async () => {
      try {
        await recordKeyUse(db, adapter.name, await keyFingerprint(env, secretKey));
      } catch (error) {
        log.warn('could not record a payment key in use', { provider: adapter.name, error: String(error) });
      }
    })());
  // The adapters are plain objects of closures: spread, they keep their other calls (dedicated accounts).
  return {
    ...adapter,
    initialize: async (input: InitializePaymentInput) => {
      const started = await adapter.initialize(input);
      await noteUse();
      return started;
    },
    verify: async (reference: string, transactionId?: string) => {
      const verified = await adapter.verify(reference, transactionId);
      await noteUse();
      return verified;
    },
  };
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
