// The wallet's ledger kinds and payment states the Worker, the API and the SPA share, without zod: a
// screen that only names them does not build the wallet schemas (wallet.ts) to do so.

/** A ledger row's transaction_type: money in (deposits, refunds, credits) or out (orders, debits). */
export const TRANSACTION_TYPE = { deposit: 1, withdrawal: 2 } as const;

/** data.orderStatus of verify-payment; the spec names 2 as success. */
export const ORDER_STATUS = { pending: 1, success: 2, failed: 3 } as const;

/**
 * What can cause a balance change (a ledger row's source kind). A card payment the provider took
 * back is a 'chargeback' (a refund or a dispute), one a dispute gave back a 'chargeback_return', and
 * money a credit paid towards the debt a chargeback left a 'debt_settlement'. A referral commission
 * follows its deposit: taken back with it ('commission_reversal'), given back with it ('commission_return').
 */
export const LEDGER_SOURCES = [
  'payment',
  'admin_credit',
  'admin_debit',
  'order',
  'order_refund',
  'chargeback',
  'chargeback_return',
  'debt_settlement',
  'referral_commission',
  'commission_reversal',
  'commission_return',
] as const;

/** Where a refund or dispute of a payment stands: a refund is 'taken' at once; a dispute opens, then is won or lost. */
export const REVERSAL_STATUSES = ['taken', 'dispute_open', 'dispute_won', 'dispute_lost'] as const;
export type ReversalStatus = (typeof REVERSAL_STATUSES)[number];
