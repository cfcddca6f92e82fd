// What the local payment providers (Paystack, Flutterwave) share around their own APIs: secret keys
// that each see one domain, checkout links that lead into a scope, and a server that hands every
// request its scope's state, lists the scope's webhooks at GET /__webhooks, and stops delayed
// webhook deliveries when it closes.

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
