// Sending a queued order to its provider with `add`, once. The submissions queue's consumer
// (order-submissions.ts) and an administrator's resend call submitOrder.
//
// Submission rule. `add` is sent only by the process that claimed the order (submission
// 'sending'), claiming a queued one atomically (queued -> sending), so two deliveries of the
// queue's message, or the queue and the sweep, never send the same order. Then:
//   - the provider answers an order id: accepted;
//   - it refuses for lack of balance: back to queued (held; queued again by the sync, refunded after a day);
//   - it refuses for any other reason: canceled and refunded at once;
//   - no readable answer (timeout, network, 5xx, garbage): 'unknown'. The order may exist at the
//     provider and the protocol cannot look orders up by link, so it is never sent again
//     automatically: an administrator checks the provider's panel and either links the provider's
//     order id or confirms it is not there (then it is resent or canceled with a refund).
//   A claim left in 'sending' (the process died mid-call) is treated as unknown after a while.
import { and, eq, sql } from 'drizzle-orm';
import { orders, providers } from '../../../drizzle/schema';
import type { Db } from '../../db';
import type { Env } from '../../env';
import { isUniqueViolation } from '../../lib/db-errors';
import { SmmProviderError } from '../../providers/smm/types';
import { type ProviderRow, providerClient } from '../catalogue';
import { recordWarning, recordWarningOnce } from '../oversight';
import { closeOrder } from './order-closing';
import type { ProviderFields } from './order-plan';

/** Refusals that mean "not now" rather than "never": the order is held and retried. */
const HOLD_REFUSAL = /funds|balance/i;

/** The provider of an order being sent: what `add` needs, and what the outcome's messages name. */
type SubmissionProvider = Pick<ProviderRow, 'id' | 'name' | 'enabled' | 'apiUrl' | 'apiKeyEncrypted' | 'timeoutMs'>;

/** An order this process has claimed for `add` (submission 'sending'), with what the call needs. */
interface ClaimedOrder {
  id: number;
  providerServiceId: string;
  extras: ProviderFields;
  provider: SubmissionProvider;
}

/** An order's columns once its provider has it as `providerOrderId`, whether `add` answered or an administrator found it there. */
export function acceptedAs(providerOrderId: string) {
  const now = new Date();
  return { submission: 'accepted', providerOrderId, status: 'Pending', submittedAt: now, submissionError: null, statusReason: null, updatedAt: now } as const;
}

/** Sends a queued order to its provider (see the submission rule at the top), after claiming it. */
export async function submitOrder(db: Db, env: Pick<Env, 'ENCRYPTION_KEY'>, orderId: number): Promise<void> {
  const [claimed] = await db
    .update(orders)
    .set({ submission: 'sending', submitAttempts: sql`${orders.submitAttempts} + 1`, submissionStartedAt: new Date(), updatedAt: new Date() })
    .from(providers)
    .where(and(eq(orders.id, orderId), eq(orders.submission, 'queued'), eq(orders.status, 'Pending Submission'), eq(providers.id, orders.providerId)))
    .returning({
      id: orders.id,
      providerServiceId: orders.providerServiceId,
      extras: orders.extras,
      providerId: providers.id,
      providerName: providers.name,
      providerEnabled: providers.enabled,
      providerApiUrl: providers.apiUrl,
      providerApiKeyEncrypted: providers.apiKeyEncrypted,
      providerTimeoutMs: providers.timeoutMs,
    });
  if (!claimed) return;
  await sendClaimedOrder(db, env, {
    id: claimed.id,
    providerServiceId: claimed.providerServiceId,
    extras: claimed.extras as ProviderFields,
    provider: {
      id: claimed.providerId,
      name: claimed.providerName,
      enabled: claimed.providerEnabled,
      apiUrl: claimed.providerApiUrl,
      apiKeyEncrypted: claimed.providerApiKeyEncrypted,
      timeoutMs: claimed.providerTimeoutMs,
    },
  });
}

/**
 * Calls `add` for an order this process claimed and records the answer. Never throws for a
 * provider failure: the outcome is recorded on the order.
 */
async function sendClaimedOrder(db: Db, env: Pick<Env, 'ENCRYPTION_KEY'>, claimed: ClaimedOrder): Promise<void> {
  const { id: orderId, provider } = claimed;
  // An administrator may close the order while `add` is in flight; nothing then reopens it.
  const stillSending = and(eq(orders.id, orderId), eq(orders.submission, 'sending'), eq(orders.status, 'Pending Submission'));
  const hold = (reason: string) =>
    db
      .update(orders)
      .set({ submission: 'queued', submissionError: reason, statusReason: 'Waiting for the provider to accept orders again', updatedAt: new Date() })
      .where(stillSending);

  if (!provider.enabled) {
    await hold('The provider is disabled');
    return;
  }
  let providerOrderId: string;
  try {
    const client = await providerClient(env, provider);
    ({ orderId: providerOrderId } = await client.add({ service: claimed.providerServiceId, ...claimed.extras }));
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    if (error instanceof SmmProviderError && error.kind === 'rejected' && HOLD_REFUSAL.test(message)) {
      await hold(message);
      await recordWarningOnce(db, {
        kind: 'provider_low_balance',
        providerId: provider.id,
        message: `${provider.name} refused an order for lack of balance: ${message}. Orders are held until it is topped up.`,
      });
    } else if (error instanceof SmmProviderError && error.kind === 'rejected') {
      // Interactive: closeOrder refunds through the ledger only if its guarded close matched.
      await db.transaction((tx) =>
        closeOrder(tx, orderId, {
          status: 'Canceled',
          reason: `The provider refused the order: ${message}`,
          from: ['Pending Submission'],
          where: eq(orders.submission, 'sending'),
          set: { submission: 'rejected', submissionError: message },
        }),
      );
    } else {
      await db.update(orders).set({ submission: 'unknown', submissionError: message, updatedAt: new Date() }).where(stillSending);
      await recordWarning(db, {
        kind: 'submission_unknown',
        providerId: provider.id,
        orderId,
        message: `Order #${orderId}: ${provider.name} did not confirm it (${message}). Look for it in the provider's panel, then link its id or resend it.`,
      });
    }
    return;
  }
  try {
    const [accepted] = await db.update(orders).set(acceptedAs(providerOrderId)).where(stillSending).returning({ id: orders.id });
    if (!accepted) {
      await recordWarning(db, {
        kind: 'submission_unknown',
        providerId: provider.id,
        orderId,
        message: `Order #${orderId} was closed while being sent, but ${provider.name} accepted it as order ${providerOrderId}: cancel it there.`,
      });
    }
  } catch (error) {
    // The provider order exists; if it cannot be recorded, the sweep turns the claim into 'unknown' for an administrator.
    if (!isUniqueViolation(error, 'orders_provider_order_key')) throw error;
    await db
      .update(orders)
      .set({ submission: 'unknown', submissionError: `The provider answered order id ${providerOrderId}, which another order already has` })
      .where(stillSending);
  }
}
