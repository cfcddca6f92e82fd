// A Paystack transaction as the fake keeps it, and as Paystack's wire shows it: the verify answer's data, the
// charge.success event's, a card's authorization or, for a bank transfer, the accounts it went between.

import { type Domain, testCard } from './payment-fake';
import type { ReversibleTransaction } from './paystack-reversals';
import { type FakeDedicatedAccount, type TransferSender, transferAuthorization } from './paystack-transfers';

type TransactionStatus = ReversibleTransaction['status'];

export interface Transaction {
  id: number;
  domain: Domain;
  reference: string;
  accessCode: string;
  /** Kobo, a safe integer as on Paystack's wire. */
  amount: number;
  currency: string;
  email: string;
  callbackUrl: string | null;
  metadata: unknown;
  status: TransactionStatus;
  createdAt: string;
  paidAt: string | null;
  customerId: number;
  reversedKobo: number;
  /** 'dedicated_nuban' for a bank transfer to a dedicated account, paid as it arrives. */
  channel: 'card' | 'dedicated_nuban';
  /** The dedicated account's customer and account, and the account it came from, for a transfer. */
  customerCode?: string;
  receiverAccount?: FakeDedicatedAccount;
  sender?: TransferSender;
  /** The name of the card paid or declined with (the control's `card`, else the payer's email); null until then. */
  card: string | null;
}

/** One-shot lies for the next verify answer, to test the caller's tamper checks. */
export interface VerifyOverrides {
  overrideAmount: number | null;
  overrideCurrency: string | null;
  overrideDomain: string | null;
}

/** The verify answer's data; the overrides lie once, in this answer only. */
export function verifyData(transaction: Transaction, controls: VerifyOverrides) {
  const amount = controls.overrideAmount ?? transaction.amount;
  const currency = controls.overrideCurrency ?? transaction.currency;
  const domain = controls.overrideDomain ?? transaction.domain;
  controls.overrideAmount = null;
  controls.overrideCurrency = null;
  controls.overrideDomain = null;
  const gatewayResponse = { abandoned: 'The transaction was not completed', success: 'Successful', failed: 'Declined', reversed: 'Approved' }[
    transaction.status
  ];
  return {
    id: transaction.id,
    domain,
    status: transaction.status,
    reference: transaction.reference,
    receipt_number: null,
    amount,
    message: null,
    gateway_response: gatewayResponse,
    paid_at: transaction.paidAt,
    created_at: transaction.createdAt,
    channel: transaction.channel,
    currency,
    ip_address: '127.0.0.1',
    metadata: transaction.metadata ?? '',
    fees: transaction.status === 'success' ? Math.min(Math.floor(transaction.amount * 0.015) + (transaction.amount >= 250_000 ? 10_000 : 0), 200_000) : null,
    customer: customerOf(transaction),
    authorization: authorizationOf(transaction),
    requested_amount: transaction.amount,
  };
}

function customerOf(transaction: Transaction) {
  return { id: transaction.customerId, email: transaction.email, customer_code: transaction.customerCode ?? `CUS_${transaction.customerId.toString(36)}` };
}

/** A card's authorization, or, for a transfer, the accounts it went between (as Paystack reports a dedicated_nuban payment). */
function authorizationOf(transaction: Transaction) {
  if (transaction.status === 'abandoned') return {};
  if (transaction.receiverAccount && transaction.sender) return transferAuthorization(transaction.receiverAccount, transaction.reference, transaction.sender);
  const card = testCard(transaction.card ?? transaction.email.toLowerCase());
  const brand = card.bin.startsWith('4') ? 'visa' : 'mastercard';
  return {
    authorization_code: `AUTH_${transaction.accessCode.slice(0, 10)}`,
    bin: card.bin,
    last4: card.last4,
    exp_month: card.expMonth,
    exp_year: card.expYear,
    channel: 'card',
    card_type: brand,
    bank: 'TEST BANK',
    country_code: 'NG',
    brand,
    reusable: true,
    signature: card.signature,
    account_name: null,
  };
}

/** charge.success's data, as Paystack sends it for a paid card or a transfer. */
export function chargeSuccessData(transaction: Transaction) {
  return {
    id: transaction.id,
    domain: transaction.domain,
    status: 'success',
    reference: transaction.reference,
    amount: transaction.amount,
    message: null,
    gateway_response: 'Successful',
    paid_at: transaction.paidAt,
    created_at: transaction.createdAt,
    channel: transaction.channel,
    currency: transaction.currency,
    ip_address: '127.0.0.1',
    metadata: transaction.metadata ?? '',
    customer: customerOf(transaction),
    authorization: authorizationOf(transaction),
  };
}
