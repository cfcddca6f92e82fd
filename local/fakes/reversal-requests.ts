// What the local Paystack's and Flutterwave's refund and dispute (chargeback) endpoints share: a
// request names a paid transaction and may ask for less than what is left of it (all of it
// otherwise); anything else is refused in the provider's own words and error shape. What is left
// is what was paid less refunds and disputes lost (reversedKobo): an open dispute holds none of it.

import type { ServerResponse } from 'node:http';
import { type FakeRequest, readFields, sendJson } from './http';
import type { WebhookRecord } from './webhooks';

/** Sends one signed event about `transaction` and answers its record. */
export type SendEvent<T> = (transaction: T, event: string, data: Record<string, unknown>) => Promise<WebhookRecord>;

/** A fake's reversal endpoints by path: each answers its request, with the webhook it sent. */
export type ReversalRoutes = Record<string, (request: FakeRequest, response: ServerResponse) => Promise<void>>;

/** How one provider reads a reversal request and words its refusals. */
export interface ReversalDialect<T extends { reversedKobo: number }> {
  isPaid(transaction: T): boolean;
  paidKobo(transaction: T): number;
  /** The request's amount in kobo; NaN when it is not an amount. */
  koboOf(amount: unknown): number;
  notFound: string;
  /** An error answer's body, as the provider writes it. */
  refusal(message: string): unknown;
}

/** The request being answered: the transaction its fields name, and the provider's words for it. */
export interface ReversalAsked<T> {
  find(fields: Record<string, unknown>): T | undefined;
  /** The reversal's name in a refusal: "Refund", "Dispute", "Chargeback". */
  what: string;
  /** The provider's refusal of an unpaid transaction. */
  unpaid: string;
}

/**
 * A refund or dispute endpoint: once the transaction a request names is paid and the amount asked
 * fits what is left of it (all of that by default), `reverse` acts and its result is the answer;
 * otherwise the provider's refusal.
 */
export function reversalEndpoint<B extends { reversedKobo: number }, T extends B>(
  dialect: ReversalDialect<B>,
  asked: ReversalAsked<T>,
  reverse: (transaction: T, amount: number) => Promise<Record<string, unknown>>,
): ReversalRoutes[string] {
  return async (request, response) => {
    const fields = readFields(request);
    const transaction = asked.find(fields);
    const refuse = (status: number, message: string) => sendJson(response, status, dialect.refusal(message));
    if (!transaction) return refuse(404, dialect.notFound);
    if (!dialect.isPaid(transaction)) return refuse(400, asked.unpaid);
    const left = dialect.paidKobo(transaction) - transaction.reversedKobo;
    const amount = fields.amount === undefined ? left : dialect.koboOf(fields.amount);
    if (!Number.isSafeInteger(amount) || amount <= 0 || amount > left)
      return refuse(400, `${asked.what} amount cannot be more than what is left of the transaction`);
    sendJson(response, 200, await reverse(transaction, amount));
  };
}
