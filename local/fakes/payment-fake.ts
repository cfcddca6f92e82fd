// What the local payment providers (Paystack, Flutterwave) share around their own APIs: secret keys
// that each see one domain, checkout links that lead into a scope, and a server that hands every
// request its scope's state, lists the scope's webhooks at GET /__webhooks, and stops delayed
// webhook deliveries when it closes. Also the made-up cards and bank accounts payers pay with: a test
// names one by any text (`card`, `senderAccount` on the fakes' controls) and gets the same one every time.

import { createHash } from 'node:crypto';
import type { ServerResponse } from 'node:http';
import { type FakeRequest, type RunningFake, type Scopes, sendJson, startFakeServer } from './http';
import type { WebhookRecord, WebhookSender } from './webhooks';

export type Domain = 'test' | 'live';

/** As on both providers, a secret key sees one domain: the test key test payments, a live key live ones. */
export function domainsOfKeys(keys: { secretKey: string; liveSecretKey?: string }): Map<string, Domain> {
  const domains = new Map<string, Domain>([[keys.secretKey, 'test']]);
  if (keys.liveSecretKey) domains.set(keys.liveSecretKey, 'live');
  return domains;
}

/** Checkout links are global, like the providers': each leads to one payment of one scope. */
export class CheckoutLinks<State, Payment> {
  private readonly links = new Map<string, { scope: string; paymentKey: string }>();
  constructor(
    private readonly scopes: Scopes<State>,
    private readonly paymentOf: (state: State, paymentKey: string) => Payment | undefined,
  ) {}

  add(code: string, scope: string, paymentKey: string): void {
    this.links.set(code, { scope, paymentKey });
  }

  /** The scope's state and the payment the link leads to; undefined for a link never handed out. */
  open(code: string): { state: State; payment: Payment } | undefined {
    const link = this.links.get(code);
    if (!link) return undefined;
    const state = this.scopes.get(link.scope);
    const payment = this.paymentOf(state, link.paymentKey);
    return payment && { state, payment };
  }
}

type Route<State> = (request: FakeRequest, response: ServerResponse, state: State, scope: string) => Promise<void> | void;

/** Starts the fake on `port` (any free one by default), `route` answering all but GET /__webhooks. */
export function servePaymentFake<State extends { webhooks: WebhookRecord[] }>(
  port: number | undefined,
  scopes: Scopes<State>,
  webhooks: WebhookSender,
  route: Route<State>,
): Promise<RunningFake> {
  return startFakeServer(
    port ?? 0,
    async (request, response, scope) => {
      const state = scopes.get(scope);
      if (request.method === 'GET' && request.path === '/__webhooks') return sendJson(response, 200, { webhooks: state.webhooks });
      return route(request, response, state, scope);
    },
    () => webhooks.close(),
  );
}

/** A payer's card as a provider reports it: never the whole number, and the same card for the same name. */
export interface TestCard {
  /** The first six digits (the issuer's BIN). */
  bin: string;
  last4: string;
  /** "01".."12". */
  expMonth: string;
  /** Four digits, e.g. "2031". */
  expYear: string;
  /** Paystack's card signature: one per card, whichever customer pays with it ("SIG_" and 20 letters or digits). */
  signature: string;
}

const ALPHANUMERIC = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789';

function digest(kind: string, name: string): Buffer {
  return createHash('sha256').update(`${kind}\0${name}`, 'utf8').digest();
}

/** The card a test calls `name` (any text; by default the payer's email): Visa or Mastercard, expiring 2027 to 2034. */
export function testCard(name: string): TestCard {
  const bytes = digest('card', name);
  const digits = (from: number, count: number) => [...bytes.subarray(from, from + count)].map((byte) => String(byte % 10)).join('');
  return {
    bin: (bytes[0] % 2 === 0 ? '4' : '5') + digits(1, 5),
    last4: digits(6, 4),
    expMonth: String((bytes[10] % 12) + 1).padStart(2, '0'),
    expYear: String(2027 + (bytes[11] % 8)),
    signature: `SIG_${[...bytes.subarray(12, 32)].map((byte) => ALPHANUMERIC[byte % ALPHANUMERIC.length]).join('')}`,
  };
}

/** The bank account a test calls `name`: a 10-digit number used as given, any other text mapped to one. */
export function testBankAccount(name: string): { accountNumber: string; holder: string } {
  const bytes = digest('account', name);
  const accountNumber = /^\d{10}$/.test(name) ? name : [...bytes.subarray(0, 10)].map((byte) => String(byte % 10)).join('');
  // One holder per account: the number's own letters, so two accounts alike in their last four digits still differ by name.
  const letters = [...digest('holder', accountNumber).subarray(0, 6)].map((byte) => ALPHANUMERIC[byte % 26]).join('');
  return { accountNumber, holder: `TEST SENDER ${letters}` };
}
