// Refunds and chargebacks on the local Flutterwave, for tests and operators, each sending a webhook
// (verif-hash) whose data is Flutterwave's v3 refund or chargeback object
// (developer.flutterwave.com: refunds, chargebacks, webhooks):
//   POST /__refund {tx_ref | id, amount?}          refunds a successful transaction (naira; all that
//                                                  is left by default): refund.completed
//   POST /__chargeback {tx_ref | id, amount?}      a chargeback is raised: chargeback.created
//   POST /__chargeback/resolve {id, status,        "won", "lost", "accepted" or "declined": chargeback.updated
//                               amount?}           amount (naira, up to the chargeback's): one lost or accepted
//                                                  for less, sent as the chargeback object's amount.
//   Flutterwave documents no partial acceptance in v3 (PUT /v3/chargebacks/:id takes only {action,
//   comment}); the fake assumes a chargeback that ends for less reports the amount taken where the
//   object states its amount, the only amount a chargeback object has.
// An open chargeback holds no part of the transaction (a lien on the merchant's balance, not a
// refund), so a refund can still be made while it is open, and both events are sent.
// Like Flutterwave's, these objects name the transaction by its id only (tx_id, transaction_id).
// Each answers the webhook it sent ({webhook: {event, body, signature, ...}}), so a test can deliver or replay it.

import { randomBytes } from 'node:crypto';
import { koboToNaira, nairaToKobo } from '../../worker/lib/decimal';
import { readFields, sendJson } from './http';
import { type ReversalDialect, type ReversalRoutes, reversalEndpoint, type SendEvent } from './reversal-requests';

export interface ReversibleTransaction {
  id: number;
  txRef: string;
  flwRef: string;
  amountKobo: number;
  status: 'successful' | 'failed';
  reversedKobo: number;
}

interface Chargeback {
  id: number;
  transactionId: number;
  amountKobo: number;
  status: 'initiated' | 'won' | 'lost' | 'accepted' | 'declined';
  stage: 'new' | 'second';
  createdAt: string;
}

export interface ReversalState<T extends ReversibleTransaction> {
  transactions: Map<number, T>;
  payments: Map<string, { transactionId: number | null }>;
  chargebacks: Map<number, Chargeback>;
}

const RESOLUTIONS = new Set<Chargeback['status']>(['won', 'lost', 'accepted', 'declined']);
let nextRefundId = 75_900;
let nextChargebackId = 1_130;

function transactionOf<T extends ReversibleTransaction>(state: ReversalState<T>, fields: Record<string, unknown>): T | undefined {
  if (typeof fields.tx_ref === 'string') {
    const id = state.payments.get(fields.tx_ref)?.transactionId;
    return id == null ? undefined : state.transactions.get(id);
  }
  return state.transactions.get(Number(fields.id));
}

const FLUTTERWAVE: ReversalDialect<ReversibleTransaction> = {
  isPaid: (transaction) => transaction.status === 'successful',
  paidKobo: (transaction) => transaction.amountKobo,
  // Flutterwave takes naira.
  koboOf: (amount) => {
    try {
      return Number(nairaToKobo(amount as string | number));
    } catch {
      return NaN;
    }
  },
  notFound: 'No transaction was found for this id',
  refusal: (message) => ({ status: 'error', message, data: null }),
};

function chargebackData(chargeback: Chargeback, transaction: ReversibleTransaction) {
  return {
    id: chargeback.id,
    amount: Number(koboToNaira(BigInt(chargeback.amountKobo))),
    flw_ref: transaction.flwRef,
    status: chargeback.status,
    stage: chargeback.stage,
    comment: 'Customer disputes the charge',
    meta: {
      uploaded_proof: null,
      history: [{ action: 'initiated', stage: 'new', date: chargeback.createdAt, description: 'Chargeback initiated', source: 'issuer' }],
    },
    due_date: new Date(Date.parse(chargeback.createdAt) + 2 * 86_400_000).toISOString(),
    settlement_id: 'N/A',
    created_at: chargeback.createdAt,
    transaction_id: transaction.id,
  };
}

/** The local Flutterwave's reversal endpoints (POST), by path, on one copy of its state. */
export function flutterwaveReversals<T extends ReversibleTransaction>(state: ReversalState<T>, send: SendEvent<T>): ReversalRoutes {
  const find = (fields: Record<string, unknown>) => transactionOf(state, fields);
  return {
    '/__refund': reversalEndpoint(
      FLUTTERWAVE,
      { find, what: 'Refund', unpaid: 'Only successful transactions can be refunded' },
      async (transaction, amount) => {
        transaction.reversedKobo += amount;
        const webhook = await send(transaction, 'refund.completed', {
          id: nextRefundId++,
          account_id: 73_362,
          tx_id: transaction.id,
          flw_ref: `URF_${Date.now()}_${randomBytes(3).readUIntBE(0, 3)}`,
          wallet_id: 74_639,
          amount_refunded: Number(koboToNaira(BigInt(amount))),
          status: 'completed',
          destination: 'payment_source',
          meta: { source: 'availablebalance' },
          created_at: new Date().toISOString(),
        });
        return { webhook };
      },
    ),

    '/__chargeback': reversalEndpoint(
      FLUTTERWAVE,
      { find, what: 'Chargeback', unpaid: 'Only successful transactions can be charged back' },
      async (transaction, amount) => {
        const chargeback: Chargeback = {
          id: nextChargebackId++,
          transactionId: transaction.id,
          amountKobo: amount,
          status: 'initiated',
          stage: 'new',
          createdAt: new Date().toISOString(),
        };
        state.chargebacks.set(chargeback.id, chargeback);
        return { chargeback: { id: chargeback.id }, webhook: await send(transaction, 'chargeback.created', chargebackData(chargeback, transaction)) };
      },
    ),

    '/__chargeback/resolve': async (request, response) => {
      const fields = readFields(request);
      const chargeback = state.chargebacks.get(Number(fields.id));
      const transaction = chargeback ? state.transactions.get(chargeback.transactionId) : undefined;
      if (!chargeback || !transaction) return sendJson(response, 404, { status: 'error', message: 'Chargeback not found', data: null });
      const status = fields.status as Chargeback['status'];
      if (!RESOLUTIONS.has(status))
        return sendJson(response, 400, { status: 'error', message: 'status must be "won", "lost", "accepted" or "declined"', data: null });
      const taken = status === 'lost' || status === 'accepted';
      if (fields.amount !== undefined) {
        const accepted = FLUTTERWAVE.koboOf(fields.amount);
        if (!taken) return sendJson(response, 400, { status: 'error', message: 'amount is only for a chargeback lost or accepted', data: null });
        if (!Number.isSafeInteger(accepted) || accepted <= 0 || accepted > chargeback.amountKobo)
          return sendJson(response, 400, { status: 'error', message: 'amount cannot be more than the chargeback amount', data: null });
        chargeback.amountKobo = accepted;
      }
      chargeback.status = status;
      if (taken) transaction.reversedKobo = Math.min(transaction.amountKobo, transaction.reversedKobo + chargeback.amountKobo);
      const webhook = await send(transaction, 'chargeback.updated', chargebackData(chargeback, transaction));
      sendJson(response, 200, { webhook });
    },
  };
}
