// Bank transfers whose webhook came before they could be credited (Paystack had not settled them, or their
// account was not yet tied to a user): the payment-events queue brings each back with growing delays
// until it is credited or known not to be ours. One still waiting after the last try is shown to the
// administrators with its amount and why, to credit by hand: money that arrived is never silently dropped.
import { z } from 'zod';
import { openDatabase } from '../../db';
import type { Env } from '../../env';
import { formatNaira } from '../../lib/decimal';
import { log } from '../../lib/log';
import { recordWarning } from '../oversight';
import { creditTransfer } from './bank-transfers';

/** Tries before a person is asked: with the delays below, about a day. */
export const TRANSFER_ATTEMPTS = 20;
/** One minute, doubling, at most two hours between tries. */
export const retryDelaySeconds = (attempt: number) => Math.min(60 * 2 ** Math.max(attempt - 1, 0), 7200);

const paymentEvent = z.object({ kind: z.literal('transfer'), reference: z.string().min(1).max(200), transactionId: z.string().max(100).nullable() });

/** The queue's consumer for payment-events. */
export async function consumePaymentEvents(batch: MessageBatch<unknown>, env: Env): Promise<void> {
  // As a request's: one-shot statements over HTTP; a Pool opens only for the credit's transaction.
  const { db, close } = openDatabase(env);
  try {
    for (const message of batch.messages) {
      const parsed = paymentEvent.safeParse(message.body);
      if (!parsed.success) {
        log.error('unreadable payment event dropped', { body: message.body });
        message.ack();
        continue;
      }
      const { reference, transactionId } = parsed.data;
      try {
        const result = await creditTransfer(db, env, reference, transactionId ?? undefined);
        if (result.outcome !== 'waiting') {
          message.ack();
        } else if (message.attempts < TRANSFER_ATTEMPTS) {
          message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
        } else {
          const amount = result.amountKobo ? ` of ${formatNaira(result.amountKobo)}` : '';
          await recordWarning(db, {
            kind: 'transfer_unclaimed',
            message: `A bank transfer (${reference})${amount} could not be credited after ${message.attempts} tries over about a day: ${result.why}. Find whose it is and credit it by hand.`,
            details: { reference, amountKobo: result.amountKobo === null ? null : String(result.amountKobo), why: result.why },
          });
          message.ack();
        }
      } catch (error) {
        // Paystack or the database not answering: the same try again later.
        log.warn('bank transfer retry failed', { reference, error: error instanceof Error ? error.message : String(error) });
        message.retry({ delaySeconds: retryDelaySeconds(message.attempts) });
      }
    }
  } finally {
    await close();
  }
}
