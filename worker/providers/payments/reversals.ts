// Refund and dispute (chargeback) webhooks, read with zod into one PaymentReversal shape. Only the
// events that move money are read: a refund once the processor has sent the money back, a dispute
// when it opens and when it is resolved. Field names follow each provider's published payloads:
//   Paystack: refund.processed {transaction_reference, refund_reference, amount (kobo), currency},
//     charge.dispute.create / .remind / .resolve {id, refund_amount (kobo), currency, status,
//     resolution, transaction {reference, amount}, dueAt} (paystack.com/docs/payments/webhooks, whose
//     samples are in PaystackOSS/doc-code-snippets: the deadline is camelCase `dueAt` there, beside
//     `resolvedAt`, while the rest of the object is snake_case);
//   Flutterwave: refund.completed with a refund object {id, tx_id, amount_refunded (naira), status},
//     chargeback.created / .updated with a chargeback object {id, amount (naira), status, stage,
//     transaction_id, due_date} (developer.flutterwave.com: refunds, chargebacks, webhooks).
// An event we name but cannot read is reported as unreadable: it moves nothing and is shown to an administrator.
// A dispute's deadline is read apart and never refuses its event: one we cannot read is null.
import { z } from 'zod';
import { nairaToKobo } from '../../lib/decimal';
import type { PaymentReversal, ReversalState } from './types';

/** A reversal as Flutterwave states it: by its own transaction id, without our reference or the currency. */
export interface StatedReversal extends Omit<PaymentReversal, 'reference' | 'currency'> {
  reference: string | null;
  transactionId: string;
}

/** null: not a reversal event at all (charge.success, refund.pending, ...). */
export type ReversalReading<T> = { read: T } | { unreadable: string } | null;

const id = z.union([z.number().int().positive(), z.string().regex(/^[A-Za-z0-9_.:-]{1,100}$/)]).transform(String);
const text = z.string().trim().min(1).max(200);
/** Whole kobo, as Paystack sends it: a number or a string of digits. */
const koboOrZero = z.union([z.number().int().nonnegative().max(Number.MAX_SAFE_INTEGER), z.string().regex(/^\d{1,18}$/)]).transform((value) => BigInt(value));
const kobo = koboOrZero.refine((value) => value > 0n, { error: 'must be more than zero' });
/** Naira with at most two decimals, as Flutterwave sends it. */
const naira = z.union([z.number().positive(), z.string().regex(/^\d{1,15}(\.\d{1,2})?$/)]).transform((value, ctx) => {
  try {
    const amount = nairaToKobo(value);
    if (amount > 0n) return amount;
  } catch {
    // falls through to the issue below
  }
  ctx.addIssue({ code: 'custom', message: 'not a positive naira amount with at most two decimals' });
  return z.NEVER;
});

/** An ISO 8601 date, or date and time (a space for the T, seconds and fractions optional); without a zone it is UTC. */
const DEADLINE = /^(\d{4})-(\d{2})-(\d{2})(?:[T ](\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})?)?$/i;

/**
 * A dispute's deadline as the provider states it (the first candidate that reads), or null when it states
 * none we can trust: missing, empty or garbled, a day or time that does not exist, or outside 2000..2100.
 */
export function readDeadline(...candidates: unknown[]): Date | null {
  for (const value of candidates) {
    const parts = typeof value === 'string' ? DEADLINE.exec(value.trim()) : null;
    if (!parts) continue;
    const [year, month, day, hour = 0, minute = 0, second = 0] = parts.slice(1, 7).map((part) => (part === undefined ? undefined : Number(part))) as number[];
    if (year < 2000 || year > 2100 || hour > 23 || minute > 59 || second > 59) continue;
    // A day that does not exist (Feb 30) rolls over in Date.UTC: it must come back as written.
    const calendar = new Date(Date.UTC(year, month - 1, day));
    if (calendar.getUTCMonth() !== month - 1 || calendar.getUTCDate() !== day) continue;
    const zone = (parts[8] ?? 'Z').toUpperCase().replace(/^([+-]\d{2})(\d{2})$/, '$1:$2');
    const fraction = (parts[7] ?? '').slice(0, 4);
    const at = new Date(`${parts[1]}-${parts[2]}-${parts[3]}T${parts[4] ?? '00'}:${parts[5] ?? '00'}:${parts[6] ?? '00'}${fraction}${zone}`);
    if (!Number.isNaN(at.getTime())) return at;
  }
  return null;
}

// ---------------------------------------------------------------- Paystack

const paystackRefund = z.object({
  status: z.literal('processed'),
  transaction_reference: text,
  refund_reference: text,
  amount: kobo,
  currency: text,
});

const paystackDispute = z.object({
  id,
  refund_amount: koboOrZero.nullish(),
  currency: text,
  status: text,
  resolution: text.nullish(),
  transaction: z.object({ reference: text, amount: kobo }),
});

/** Paystack's final words on a dispute: "declined" is the customer's claim refused, so the money is ours again. */
const PAYSTACK_RESOLUTIONS = new Map<string, ReversalState>([
  ['declined', 'won'],
  ['auto-declined', 'won'],
  ['merchant-accepted', 'lost'],
  ['auto-accepted', 'lost'],
]);

const PAYSTACK_DISPUTE_EVENTS = new Set(['charge.dispute.create', 'charge.dispute.remind', 'charge.dispute.resolve']);

export function readPaystackReversal(event: string, data: Record<string, unknown>): ReversalReading<PaymentReversal> {
  if (event === 'refund.processed') {
    const parsed = paystackRefund.safeParse(data);
    if (!parsed.success) return unreadable(event, data.transaction_reference, parsed.error);
    const refund = parsed.data;
    return {
      read: {
        kind: 'refund',
        key: `refund:${refund.transaction_reference}:${refund.refund_reference}`,
        reference: refund.transaction_reference,
        amountKobo: refund.amount,
        currency: refund.currency.toUpperCase(),
        state: 'taken',
        details: { event, refundReference: refund.refund_reference, status: refund.status },
      },
    };
  }
  if (!PAYSTACK_DISPUTE_EVENTS.has(event)) return null;
  const parsed = paystackDispute.safeParse(data);
  if (!parsed.success) return unreadable(event, (data.transaction as { reference?: unknown } | undefined)?.reference, parsed.error);
  const dispute = parsed.data;
  let state: ReversalState = 'open';
  if (event === 'charge.dispute.resolve') {
    const resolved = dispute.resolution ? PAYSTACK_RESOLUTIONS.get(dispute.resolution) : undefined;
    if (!resolved) return { unreadable: `${event} for ${dispute.transaction.reference} has a resolution we do not know: ${String(dispute.resolution)}` };
    state = resolved;
  }
  return {
    read: {
      kind: 'dispute',
      key: `dispute:${dispute.id}`,
      reference: dispute.transaction.reference,
      // The disputed amount; while Paystack states none, the whole transaction is in dispute.
      amountKobo: dispute.refund_amount ? dispute.refund_amount : dispute.transaction.amount,
      currency: dispute.currency.toUpperCase(),
      state,
      // Paystack's samples name it dueAt; the snake_case spelling of its other fields is read too.
      dueAt: readDeadline(data.dueAt, data.due_at),
      details: { event, disputeId: dispute.id, status: dispute.status, resolution: dispute.resolution ?? null },
    },
  };
}

// ---------------------------------------------------------------- Flutterwave

const flutterwaveRefund = z.object({
  id,
  tx_id: id,
  tx_ref: text.optional(),
  amount_refunded: naira,
  status: z.literal('completed'),
});

const flutterwaveChargeback = z.object({
  id,
  transaction_id: id,
  tx_ref: text.optional(),
  amount: naira,
  status: text,
  stage: text.nullish(),
});

/** Flutterwave's chargeback statuses: the merchant accepting one loses it; declining it (with proof) waits for the bank. */
const FLUTTERWAVE_CHARGEBACK_STATES = new Map<string, ReversalState>([
  ['initiated', 'open'],
  ['pending', 'open'],
  ['declined', 'open'],
  ['won', 'won'],
  ['lost', 'lost'],
  ['accepted', 'lost'],
]);

export function readFlutterwaveReversal(event: string, data: Record<string, unknown>): ReversalReading<StatedReversal> {
  if (event === 'refund.completed') {
    const parsed = flutterwaveRefund.safeParse(data);
    if (!parsed.success) return unreadable(event, data.tx_ref ?? data.tx_id, parsed.error);
    const refund = parsed.data;
    return {
      read: {
        kind: 'refund',
        key: `refund:${refund.id}`,
        reference: refund.tx_ref ?? null,
        transactionId: refund.tx_id,
        amountKobo: refund.amount_refunded,
        state: 'taken',
        details: { event, refundId: refund.id, status: refund.status },
      },
    };
  }
  if (event !== 'chargeback.created' && event !== 'chargeback.updated') return null;
  const parsed = flutterwaveChargeback.safeParse(data);
  if (!parsed.success) return unreadable(event, data.tx_ref ?? data.transaction_id, parsed.error);
  const chargeback = parsed.data;
  const state = FLUTTERWAVE_CHARGEBACK_STATES.get(chargeback.status.toLowerCase());
  if (!state) return { unreadable: `${event} ${chargeback.id} has a status we do not know: ${chargeback.status}` };
  return {
    read: {
      kind: 'dispute',
      key: `chargeback:${chargeback.id}`,
      reference: chargeback.tx_ref ?? null,
      transactionId: chargeback.transaction_id,
      amountKobo: chargeback.amount,
      state,
      // v3 objects say due_date; the newer API due_datetime.
      dueAt: readDeadline(data.due_date, data.due_datetime),
      details: { event, chargebackId: chargeback.id, status: chargeback.status, stage: chargeback.stage ?? null },
    },
  };
}

function unreadable(event: string, reference: unknown, error: z.ZodError): { unreadable: string } {
  const about = typeof reference === 'string' || typeof reference === 'number' ? ` about ${String(reference).slice(0, 100)}` : '';
  const problems = error.issues
    .slice(0, 3)
    .map((issue) => `${issue.path.join('.') || 'data'}: ${issue.message}`)
    .join('; ');
  return { unreadable: `${event}${about} could not be read (${problems})` };
}
