// The load's resellers: users who confirm their address from the sandbox mailbox as a real user does, make an API key
// (which needs the confirmed address) and are funded, then call the reseller API v2 (POST /api/v2, form-encoded, as
// panels' tools do): `add` with a request_id (some sent again with the same one: a retry after a lost answer),
// `status` of one order and of up to 20 at once, `balance`, and now and then `services`. Each call goes to the next
// reseller in turn, at LOAD_RESELLER_RATE calls per reseller and second.
import type { RequestTemplate } from 'autocannon';
import type { RunningStack } from '../stack/stack';
import {
  count,
  inBatches,
  type KeyOutcome,
  ORDER_REPEAT_SHARE,
  type OrderAttempt,
  type Orderable,
  pick,
  SETUP_PARALLELISM,
  type SignedInAccount,
  type Tally,
} from './load-settings';
import { callApi, signUp } from './shop-client';

const RESELLER_CREDIT_NAIRA = 200_000;
/** The share of calls per action (the rest are `add`; `status` falls back to `add` while the reseller has no order yet). */
const SERVICES_SHARE = 0.01;
const BALANCE_SHARE = 0.1;
const STATUS_SHARE = 0.45;
const MULTI_STATUS_MAX = 20;

export interface Reseller extends SignedInAccount {
  apiKey: string;
  /** The orders its `add` calls answered, newest last: what it polls. */
  orderIds: number[];
  recent: OrderAttempt[];
}

/** The confirmation link of the address's newest message in the sandbox mailbox (sent by the Worker in the background). */
async function confirmationToken(mailboxUrl: string, email: string): Promise<string> {
  for (let tries = 0; tries < 50; tries++) {
    const inbox = (await (await fetch(`${mailboxUrl}/__messages?to=${encodeURIComponent(email)}`)).json()) as { messages: Array<{ text: string }> };
    const link = inbox.messages.map((message) => /verify-email\?token=(\S+)/.exec(message.text)).findLast((found) => found !== null);
    if (link) return decodeURIComponent(link[1]);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`no confirmation link was emailed to ${email}`);
}

export async function prepareResellers(stack: RunningStack, adminToken: string, howMany: number, password: () => string): Promise<Reseller[]> {
  const indexes = Array.from({ length: howMany }, (_, i) => i);
  return inBatches(indexes, SETUP_PARALLELISM, async (i) => {
    const email = `load-${process.pid}-r${i}@example.com`;
    const ip = `10.251.${(i >> 8) & 255}.${i & 255}`;
    const secret = password();
    const user = await signUp(stack.url, { fullName: `Load Reseller ${i}`, email, password: secret, ip });
    await callApi(stack.url, 'POST', 'auth/verify-email', { ip, body: { token: await confirmationToken(stack.fakes.mailboxUrl, email) } });
    const { data } = await callApi<{ data: { key: string } }>(stack.url, 'POST', 'user/api-keys', { token: user.token, body: { name: 'Load reseller tool' } });
    await callApi(stack.url, 'POST', 'user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: RESELLER_CREDIT_NAIRA, reference: `load-credit-${process.pid}-r${i}`, userId: user.id },
    });
    return { ...user, email, password: secret, ip, signedInAt: Date.now(), apiKey: data.key, orderIds: [], recent: [] };
  });
}

type Call =
  | { action: 'add'; reseller: Reseller; attempt: OrderAttempt }
  | { action: 'status'; reseller: Reseller; orders: number[]; multi: boolean }
  | { action: 'balance' | 'services'; reseller: Reseller };

/**
 * The resellers' calls as one autocannon request. Every `add` is written down in `keys` (checked with the customers'
 * Idempotency-Keys afterwards); an answer with {"error"} (the protocol's refusal, HTTP 200) is counted in `refusals`
 * by action and message, as is a `status` entry that says it.
 */
export function resellerRequest(resellers: Reseller[], orderable: Orderable[], keys: Map<string, KeyOutcome>, refusals: Tally): RequestTemplate {
  let turn = 0;
  let sequence = 0;

  const nextAdd = (reseller: Reseller): OrderAttempt => {
    if (reseller.recent.length > 0 && Math.random() < ORDER_REPEAT_SHARE) return pick(reseller.recent);
    const service = pick(orderable);
    const n = ++sequence;
    const link = `https://instagram.com/p/load-${process.pid}-r${n}`;
    const key = `load-${process.pid}-r${n}`;
    const quantity = service.min * (1 + (n % 3));
    const body = new URLSearchParams({ key: reseller.apiKey, action: 'add', service: String(service.id), link, quantity: String(quantity), request_id: key });
    const attempt: OrderAttempt = { userId: reseller.id, token: reseller.apiKey, key, link, body: body.toString(), via: 'reseller' };
    reseller.recent.push(attempt);
    if (reseller.recent.length > 20) reseller.recent.shift();
    keys.set(key, { attempt, statuses: [], orderIds: new Set(), created: 0 });
    return attempt;
  };

  const nextCall = (): Call => {
    const reseller = resellers[turn++ % resellers.length];
    const roll = Math.random();
    if (roll < SERVICES_SHARE) return { action: 'services', reseller };
    if (roll < SERVICES_SHARE + BALANCE_SHARE) return { action: 'balance', reseller };
    if (roll < SERVICES_SHARE + BALANCE_SHARE + STATUS_SHARE && reseller.orderIds.length > 0) {
      const multi = Math.random() < 0.5;
      const newest = reseller.orderIds.slice(-100);
      const orders = multi ? [...new Set(Array.from({ length: Math.min(MULTI_STATUS_MAX, newest.length) }, () => pick(newest)))] : [pick(newest)];
      return { action: 'status', reseller, orders, multi };
    }
    return { action: 'add', reseller, attempt: nextAdd(reseller) };
  };

  const bodyOf = (call: Call): string => {
    const key = call.reseller.apiKey;
    switch (call.action) {
      case 'add':
        return call.attempt.body;
      case 'status':
        return new URLSearchParams({
          key,
          action: 'status',
          ...(call.multi ? { orders: call.orders.join(',') } : { order: String(call.orders[0]) }),
        }).toString();
      default:
        return new URLSearchParams({ key, action: call.action }).toString();
    }
  };

  return {
    setupRequest: (request, context) => {
      const call = nextCall();
      context.call = call;
      return {
        ...request,
        method: 'POST',
        path: '/api/v2',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: bodyOf(call),
      };
    },
    onResponse: (status, body, context) => {
      const call = context.call as Call;
      const name = call.action === 'status' ? (call.multi ? 'status (multi)' : 'status') : call.action;
      let answer: unknown;
      try {
        answer = JSON.parse(body);
      } catch {
        answer = undefined;
      }
      const refusal =
        status === 200 && typeof answer === 'object' && answer !== null && 'error' in answer ? String((answer as { error: unknown }).error) : null;
      if (refusal !== null) count(refusals, `${name}: ${refusal}`);
      if (status === 200 && answer === undefined) count(refusals, `${name}: not JSON: ${body.slice(0, 100)}`);
      if (call.action === 'add') {
        const outcome = keys.get(call.attempt.key) as KeyOutcome;
        outcome.statuses.push(refusal === null ? status : 400);
        const order = status === 200 && refusal === null ? Number((answer as { order?: unknown }).order) : Number.NaN;
        if (Number.isInteger(order)) {
          outcome.orderIds.add(order);
          if (!call.reseller.orderIds.includes(order)) call.reseller.orderIds.push(order);
        } else if (status === 200 && refusal === null) count(refusals, `add: no order in ${body.slice(0, 100)}`);
      }
      if (call.action === 'status' && call.multi && status === 200 && refusal === null && typeof answer === 'object' && answer !== null) {
        for (const entry of Object.values(answer as Record<string, unknown>))
          if (typeof entry === 'object' && entry !== null && 'error' in entry)
            count(refusals, `status (multi) entry: ${String((entry as { error: unknown }).error)}`);
      }
    },
  };
}
