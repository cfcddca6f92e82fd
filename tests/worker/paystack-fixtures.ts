// Driving the sandbox Paystack from worker tests: its controls, the signed webhooks it recorded
// (test scopes keep them undelivered, so a test decides when, how often and in what order they
// arrive), delivering one to the Worker, and a card deposit paid and confirmed as its payer would.
import { SELF } from 'cloudflare:test';
import { expect, inject } from 'vitest';
import { BASE, call, type TestAccount } from '../support/api';

const paystack = inject('paystackUrl');

export interface PaystackHook {
  event: string;
  reference: string;
  body: string;
  signature: string;
}

/** What the fake answers at each path the tests POST to: its controls, and its API as Paystack answers it. */
interface PaystackFakeAnswers {
  '/__complete': { changed: boolean; status: string; callbackLocation: string | null };
  '/__transfer': { reference: string; id: number };
  '/__refund': { webhook: PaystackHook };
  '/__dispute': { dispute: { id: number }; webhook: PaystackHook };
  '/__dispute/resolve': { webhook: PaystackHook };
  '/customer': { data: { customer_code: string } };
  '/dedicated_account': { data: { account_number: string } };
  '/transaction/initialize': { data: { authorization_url: string; access_code: string; reference: string } };
}

/** POSTs to the fake (a control like /__refund, or its API with a key in `headers`); its JSON answer. */
export async function paystackFake<Path extends keyof PaystackFakeAnswers>(
  path: Path,
  body: Record<string, unknown>,
  headers: Record<string, string> = {},
): Promise<PaystackFakeAnswers[Path]> {
  const response = await fetch(`${paystack}${path}`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', ...headers },
    body: JSON.stringify(body),
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return response.json<PaystackFakeAnswers[Path]>();
}

export async function paystackHooksFor(reference: string): Promise<PaystackHook[]> {
  const { webhooks } = (await (await fetch(`${paystack}/__webhooks`)).json()) as { webhooks: PaystackHook[] };
  return webhooks.filter((hook) => hook.reference === reference);
}

/** Delivers a recorded webhook to the Worker; its answer's message ("Webhook processed", "Webhook ignored"). */
export async function deliverPaystackHook(hook: Pick<PaystackHook, 'body' | 'signature'>): Promise<string> {
  const response = await SELF.fetch(`${BASE}/webhooks/paystack`, {
    method: 'POST',
    body: hook.body,
    headers: { 'content-type': 'application/json', 'x-paystack-signature': hook.signature },
  });
  expect(response.status, await response.clone().text()).toBe(200);
  return ((await response.json()) as { message: string }).message;
}

/** A card deposit paid on the sandbox checkout and confirmed by the return page; its reference. */
export async function depositByCard(account: TestAccount, naira: number, paidWith: { card?: string } = {}): Promise<string> {
  const started = await call('user/add-fund', { token: account.accessToken, body: { amount: naira } });
  expect(started.status, JSON.stringify(started.body)).toBe(201);
  const { reference, checkoutUrl, signature, amount } = started.body;
  await paystackFake('/__complete', { reference, outcome: 'success', ...paidWith });
  const verified = await call('user/verify-payment', { token: account.accessToken, body: { checkoutUrl, signature, amount } });
  expect(verified.body.data?.orderStatus, JSON.stringify(verified.body)).toBe(2);
  return reference;
}
