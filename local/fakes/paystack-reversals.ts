// Refunds and disputes on the local Paystack, for tests and operators, each sending the webhook
// Paystack sends with its payload shape (paystack.com/docs/payments/webhooks):
//   POST /__refund {reference, amount?}             refunds a paid transaction (kobo; all that is left
//                                                   by default): refund.processed
//   POST /__dispute {reference, amount?}            a chargeback is logged: charge.dispute.create
//   POST /__dispute/resolve {id, resolution,        "declined" (the shop keeps the money),
//                            refund_amount?}        "merchant-accepted" or "auto-accepted": charge.dispute.resolve.
//                                                   As with Paystack's PUT /dispute/:id/resolve, a merchant may
//                                                   accept a dispute for less (refund_amount, kobo, up to the
//                                                   disputed amount); the resolve event's refund_amount then
//                                                   carries the amount accepted.
// An open dispute holds no part of the transaction, so a refund can still be made while it is open
// (Paystack sends both events; a shop can see a refund and then the dispute's resolution).
// Each answers the webhook it sent ({webhook: {event, body, signature, ...}}), so a test can
// deliver or replay it itself. A transaction refunded or charged back in full reads "reversed".

import { randomBytes } from 'node:crypto';
import { readFields, sendJson } from './http';
import { type ReversalDialect, type ReversalRoutes, reversalEndpoint, type SendEvent } from './reversal-requests';

export interface ReversibleTransaction {
  id: number;
  domain: 'test' | 'live';
  reference: string;
  /** Kobo. */
  amount: number;
  currency: string;
  email: string;
  status: 'abandoned' | 'success' | 'failed' | 'reversed';
  createdAt: string;
  paidAt: string | null;
  customerId: number;
  /** Kobo refunded or charged back so far. */
  reversedKobo: number;
}

interface Dispute {
  id: number;
  reference: string;
  amount: number;
  status: 'awaiting-merchant-feedback' | 'resolved';
  resolution: string | null;
  createdAt: string;
  resolvedAt: string | null;
}

export interface ReversalState<T extends ReversibleTransaction> {
  transactions: Map<string, T>;
  disputes: Map<number, Dispute>;
}

const RESOLUTIONS = new Set(['declined', 'merchant-accepted', 'auto-accepted']);
let nextDisputeId = 358_900;

const PAYSTACK: ReversalDialect<ReversibleTransaction> = {
  isPaid: (transaction) => transaction.status === 'success',
  paidKobo: (transaction) => transaction.amount,
  // Paystack takes kobo, as a number or a string of digits.
  koboOf: (amount) => (typeof amount === 'number' ? amount : typeof amount === 'string' && /^\d+$/.test(amount) ? Number(amount) : NaN),
  notFound: 'No such transaction',
  refusal: (message) => ({ error: message }),
};

/** The transaction a request's reference names. */
const byReference =
  <T extends ReversibleTransaction>(state: ReversalState<T>) =>
  (fields: Record<string, unknown>) =>
    typeof fields.reference === 'string' ? state.transactions.get(fields.reference) : undefined;

function customer(transaction: ReversibleTransaction) {
  return {
    id: transaction.customerId,
    first_name: 'Test',
    last_name: 'Payer',
    email: transaction.email,
    customer_code: `CUS_${transaction.customerId.toString(36)}`,
    phone: null,
    metadata: {},
    risk_action: 'default',
    international_format_phone: null,
  };
}

function disputeData(dispute: Dispute, transaction: ReversibleTransaction) {
  return {
    id: dispute.id,
    refund_amount: dispute.amount,
    currency: transaction.currency,
    status: dispute.status,
    resolution: dispute.resolution,
    domain: transaction.domain,
    transaction: {
      id: transaction.id,
      domain: transaction.domain,
      status: transaction.status,
      reference: transaction.reference,
      amount: transaction.amount,
      message: null,
      gateway_response: 'Approved',
      paid_at: transaction.paidAt,
      created_at: transaction.createdAt,
      channel: 'card',
      currency: transaction.currency,
      ip_address: null,
      metadata: '',
      log: null,
      fees: null,
      fees_split: null,
      authorization: {},
      customer: { international_format_phone: null },
      plan: {},
      subaccount: {},
      split: {},
      order_id: null,
      paidAt: transaction.paidAt,
      requested_amount: transaction.amount,
      pos_transaction_data: null,
    },
    transaction_reference: null,
    category: 'chargeback',
    customer: customer(transaction),
    bin: '408408',
    last4: '4081',
    dueAt: new Date(Date.parse(dispute.createdAt) + 2 * 86_400_000).toISOString(),
    resolvedAt: dispute.resolvedAt,
    evidence: null,
    attachments: null,
    note: null,
    history: [{ status: 'pending', by: transaction.email, createdAt: dispute.createdAt }],
    messages: [{ sender: transaction.email, body: 'Customer complained about debit without value', createdAt: dispute.createdAt }],
    created_at: dispute.createdAt,
    updated_at: dispute.resolvedAt ?? dispute.createdAt,
  };
}

function reverse(transaction: ReversibleTransaction, amount: number): void {
  // A refund made while a dispute was open and the dispute then lost: never more than was paid.
  transaction.reversedKobo = Math.min(transaction.amount, transaction.reversedKobo + amount);
  if (transaction.reversedKobo >= transaction.amount) transaction.status = 'reversed';
}

/** The local Paystack's reversal endpoints (POST), by path, on one copy of its state. */
export function paystackReversals<T extends ReversibleTransaction>(state: ReversalState<T>, send: SendEvent<T>): ReversalRoutes {
  const find = byReference(state);
  return {
    '/__refund': reversalEndpoint(
      PAYSTACK,
      { find, what: 'Refund', unpaid: 'Transaction has not been paid, or is already reversed' },
      async (transaction, amount) => {
        reverse(transaction, amount);
        const webhook = await send(transaction, 'refund.processed', {
          status: 'processed',
          transaction_reference: transaction.reference,
          refund_reference: randomBytes(6).readUIntBE(0, 6).toString().padStart(12, '0'),
          // Paystack sends this amount as a string of kobo.
          amount: String(amount),
          currency: transaction.currency,
          processor: 'mpgs_zen',
          customer: { first_name: 'Test', last_name: 'Payer', email: transaction.email },
          integration: 412_829,
          domain: transaction.domain,
        });
        return { webhook };
      },
    ),

    '/__dispute': reversalEndpoint(PAYSTACK, { find, what: 'Dispute', unpaid: 'Only a paid transaction can be disputed' }, async (transaction, amount) => {
      const dispute: Dispute = {
        id: nextDisputeId++,
        reference: transaction.reference,
        amount,
        status: 'awaiting-merchant-feedback',
        resolution: null,
        createdAt: new Date().toISOString(),
        resolvedAt: null,
      };
      state.disputes.set(dispute.id, dispute);
      return { dispute: { id: dispute.id }, webhook: await send(transaction, 'charge.dispute.create', disputeData(dispute, transaction)) };
    }),

    '/__dispute/resolve': async (request, response) => {
      const fields = readFields(request);
      const dispute = state.disputes.get(Number(fields.id));
      const transaction = dispute ? state.transactions.get(dispute.reference) : undefined;
      if (!dispute || !transaction) return sendJson(response, 404, { error: 'No such dispute' });
      if (typeof fields.resolution !== 'string' || !RESOLUTIONS.has(fields.resolution)) {
        return sendJson(response, 400, { error: 'resolution must be "declined", "merchant-accepted" or "auto-accepted"' });
      }
      if (dispute.status === 'resolved') return sendJson(response, 400, { error: 'Dispute is already resolved' });
      if (fields.refund_amount !== undefined) {
        const accepted = PAYSTACK.koboOf(fields.refund_amount);
        if (fields.resolution !== 'merchant-accepted') return sendJson(response, 400, { error: 'refund_amount is only for a dispute the merchant accepts' });
        if (!Number.isSafeInteger(accepted) || accepted <= 0 || accepted > dispute.amount)
          return sendJson(response, 400, { error: 'refund_amount cannot be more than the disputed amount' });
        dispute.amount = accepted;
      }
      dispute.status = 'resolved';
      dispute.resolution = fields.resolution;
      dispute.resolvedAt = new Date().toISOString();
      if (dispute.resolution !== 'declined') reverse(transaction, dispute.amount);
      const webhook = await send(transaction, 'charge.dispute.resolve', disputeData(dispute, transaction));
      sendJson(response, 200, { webhook });
    },
  };
}
