// What the wallet-funding code needs from a card payment provider. Each adapter
// (Paystack, Flutterwave) speaks its provider's real API behind this interface.

import { ProviderError } from '../http';

export type PaymentProviderName = 'paystack' | 'flutterwave';

/** Which of the provider's two worlds a key or a transaction belongs to: sandbox money or real money. */
export type PaymentDomain = 'test' | 'live';

export interface InitializePaymentInput {
  /** Our unique reference for this payment; the provider keys the transaction by it. */
  reference: string;
  amountKobo: bigint;
  email: string;
  /** Where the provider sends the payer's browser after checkout. */
  callbackUrl: string;
  currency: 'NGN';
  metadata?: Record<string, string>;
}

export type VerifiedPaymentStatus =
  | 'success'
  /** Declined, reversed or refunded: no money for us. */
  | 'failed'
  /** Checkout started but the payer never finished it. */
  | 'abandoned'
  /** Still being processed by the provider; ask again later. */
  | 'pending'
  /** The provider has no transaction with this reference. */
  | 'not_found';

export interface VerifiedPayment {
  reference: string;
  status: VerifiedPaymentStatus;
  /** What the provider says was charged; 0n when not found. Callers must compare it with what they expected. */
  amountKobo: bigint;
  /** ISO code as the provider reports it, e.g. "NGN"; empty when not found. */
  currency: string;
  /** ISO timestamp of payment, when paid. */
  paidAt: string | null;
  /** The provider's own status word, for logs and support. */
  rawStatus: string;
  /** Why a declined payment was declined, in the provider's words, for the payer (who can then try again); absent otherwise. */
  declineReason?: string;
  /** Test or live money, as the provider says; null when it says neither (a live shop credits only 'live'). */
  domain: PaymentDomain | null;
  /** How it was paid, as the provider names it ('card', Paystack's 'dedicated_nuban' for a transfer to a dedicated account). */
  channel?: string | null;
  /** The provider's code of the paying customer, which ties a transfer to a dedicated account's owner. */
  customerCode?: string | null;
  /**
   * A stable name of the payment instrument, never a card number: the same card or sending bank account
   * gives the same text on every payment, whoever's account it pays into. Compare them only for equality:
   * - `paystack-card:<signature>`: Paystack's card signature (its fingerprint of one card);
   * - `bank:<BANK>:<account number>` for a bank transfer to a dedicated account: the sending bank and account,
   *   followed by `:<SENDER NAME>` when the provider masks the number (as Paystack does: `XXXXXX0011`), since
   *   a bank and four digits alone are shared by strangers;
   * - `flutterwave-card:<first 6 digits>:<last 4 digits>:<MM/YY>`: Flutterwave's truncated card and its expiry.
   * Null when the provider named no instrument we can read (another channel, fields missing or garbled);
   * absent when the transaction was not found.
   */
  payerFingerprint?: string | null;
}

/** A personal account number for bank transfers (Paystack Dedicated Virtual Accounts). */
export interface DedicatedAccount {
  customerCode: string;
  accountNumber: string;
  accountName: string;
  bankName: string;
  providerAccountId: string;
}

/** Providers that can give a customer their own account number to fund the wallet by bank transfer. */
export interface DedicatedAccountProvider {
  /** Creates (or finds) the customer, then their dedicated account: asking twice answers the same account. */
  createDedicatedAccount(customer: { email: string; firstName: string; lastName: string }): Promise<DedicatedAccount>;
}

export interface WebhookEvent {
  /** The provider's event name, e.g. "charge.success". */
  event: string;
  /**
   * The transaction reference the event is about. Null for authentic events
   * that carry none (subscription or customer events): acknowledge and ignore those.
   */
  reference: string | null;
  /** The provider's own id of the transaction, when the event carries one it can be verified by. */
  transactionId?: string;
  /** A refund or dispute of a payment: money the provider takes back (or, for a dispute won, gives back). */
  reversal?: PaymentReversal;
  /**
   * An authentic refund or dispute event we cannot read: it moves no money, and an administrator
   * is shown why (with the event name and reference when known) to handle it by hand.
   */
  unreadable?: string;
}

/** Where a dispute stands; a refund is always 'taken'. */
export type ReversalState = 'taken' | 'open' | 'won' | 'lost';

export interface PaymentReversal {
  kind: 'refund' | 'dispute';
  /** With the provider, names this one refund or dispute: every event about it carries the same key. */
  key: string;
  /** Our reference of the payment it reverses. */
  reference: string;
  /** What the provider takes back (a dispute's disputed amount). */
  amountKobo: bigint;
  currency: string;
  state: ReversalState;
  /** A dispute's deadline for the shop's answer, when the provider gives one. */
  dueAt?: Date | null;
  /** The provider's own words (ids, statuses, reasons), kept for the administrator. */
  details: Record<string, unknown>;
}

export interface PaymentProvider {
  readonly name: PaymentProviderName;
  /** Starts a checkout; the payer's browser goes to `checkoutUrl`. */
  initialize(input: InitializePaymentInput): Promise<{ checkoutUrl: string }>;
  /**
   * Asks the provider for the authoritative state of a transaction: by the provider's own id when
   * known (a webhook's), else by our reference. Either way the answer must be about `reference`.
   */
  verify(reference: string, transactionId?: string): Promise<VerifiedPayment>;
  /**
   * Authenticates a webhook from its exact raw bytes and headers; null when the
   * signature is missing or wrong. Throws PaymentProviderError('rejected') when an
   * authentic body is not a readable event.
   */
  parseWebhook(rawBody: ArrayBuffer, headers: Headers): Promise<WebhookEvent | null>;
  /**
   * Proves the secret key with an authenticated read that moves no money and changes nothing.
   * Throws PaymentProviderError('rejected') with the provider's reason when it refuses the key,
   * 'unavailable' when the provider could not be asked.
   */
  checkKey(): Promise<void>;
}

export class PaymentProviderError extends ProviderError {
  constructor(
    readonly provider: PaymentProviderName,
    ...error: ConstructorParameters<typeof ProviderError>
  ) {
    super(...error);
  }
}

/** A provider's free text as the payer may read it: trimmed and bounded, or undefined when it sent none. */
export function providerWords(value: unknown): string | undefined {
  if (typeof value !== 'string' || value.trim() === '') return undefined;
  return value.trim().slice(0, 200);
}
