// Bank transfers whose webhook came before they could be credited (Paystack had not settled them, or their
// account was not yet tied to a user): the payment-events queue brings each back with growing delays
// until it is credited or known not to be ours. One still waiting after the last try is shown to the
// administrators with its amount and why, to credit by hand: money that arrived is never silently dropped.
import { z } from 'zod';
import { formatNaira } from '../../lib/decimal';
import { queueConsumer } from '../../queue-consumer';
import { recordWarning } from '../oversight';
import { creditTransfer } from './bank-transfers';

/** Tries before a person is asked: with the delays below, about a day. */
export const TRANSFER_ATTEMPTS = 20;
/** One minute, doubling, at most two hours between tries. */
export const retryDelaySeconds = (attempt: number) => Math.min(60 * 2 ** Math.max(attempt - 1, 0), 7200);

const paymentEvent = z.object({ kind: z.literal('transfer'), reference: z.string().min(1).max(200), transactionId: z.string().max(100).nullable() });

/** The queue's consumer for payment-events. */
export const consumePaymentEvents = queueConsumer({
  what: 'payment event',
  message: paymentEvent,
  run: async (db, env, { reference, transactionId }, attempts) => {
    const result = await creditTransfer(db, env, reference, transactionId ?? undefined);
    if (result.outcome !== 'waiting') return 'done';
    if (attempts < TRANSFER_ATTEMPTS) return { retryInSeconds: retryDelaySeconds(attempts) };
    const amount = result.amountKobo ? ` of ${formatNaira(result.amountKobo)}` : '';
    await recordWarning(db, {
      kind: 'transfer_unclaimed',
      message: `A bank transfer (${reference})${amount} could not be credited after ${attempts} tries over about a day: ${result.why}. Find whose it is and credit it by hand.`,
      details: { reference, amountKobo: result.amountKobo === null ? null : String(result.amountKobo), why: result.why },
    });
    return 'done';
  },
  // Paystack or the database not answering: the same try again later.
  retryAfterError: retryDelaySeconds,
});
