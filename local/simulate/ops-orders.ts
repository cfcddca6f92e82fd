// A customer's order operations, from the SPA's API (/api/v1) and the reseller API (/api/v2): placing
// an order of any service type (once, twice at once under one Idempotency-Key or, over /api/v2, one
// request_id, again after hanging up or after an error, or without a key), refills and cancels.
import type { SimService } from './catalogue';
import { buildOrder } from './catalogue';
import { type Answer, call, said } from './http';
import { pickOrder, type TargetOrder } from './targets';
import { expect, fresh, type KeyRecord, type Sim, type SimUser, takeHangUp, tally } from './world';

type Api = 'v1' | 'v2';
type PlaceVariant = 'once' | 'double submit' | 'retry after hang-up' | 'no key';

/** The reseller API's `add` and friends, as a reseller tool posts them (form-encoded, key in the body). */
function resellerCall(sim: Sim, user: SimUser, fields: Record<string, string>, options: { key?: string; abortAfterMs?: number } = {}): Promise<Answer> {
  return call(`${sim.stack.url}/api/v2`, {
    form: { key: user.apiKey ?? '', ...fields },
    headers: options.key ? { 'idempotency-key': options.key } : {},
    ip: user.session.ip,
    abortAfterMs: options.abortAfterMs,
  });
}

/** The order an answer names, if it names one. */
function orderIdOf(api: Api, answer: Answer): number | null {
  if (answer.kind !== 'answered') return null;
  if (api === 'v1') return (answer.status === 200 || answer.status === 201) && typeof answer.body?.data?.id === 'number' ? answer.body.data.id : null;
  return answer.status === 200 && answer.body?.order !== undefined ? Number(answer.body.order) : null;
}

/** Whether a client would send the request again under its key: it never heard a plain yes or no. */
const unsure = (answer: Answer) => answer.kind !== 'answered' || answer.status >= 500 || answer.status === 429;

const EXPECTED: Record<Api, number[]> = { v1: [200, 201, 400, 503], v2: [200, 429, 503] };

export async function placeOrder(sim: Sim, services: readonly SimService[], api: Api): Promise<string> {
  const { rng, world } = sim;
  // Only a confirmed address has a key to call the reseller API with.
  const user = rng.pick(api === 'v2' ? world.users.filter((candidate) => candidate.apiKey) : world.users);
  const request = buildOrder(sim, services);
  const variant = rng.weighted<PlaceVariant>({ once: 5, 'double submit': 3, 'retry after hang-up': 2, 'no key': 1 });
  tally(sim, `order ${api} (${variant})`);
  const key = variant === 'no key' ? undefined : fresh(world, 'key');
  // A reseller tool names its request with the Idempotency-Key header or, as leading panels take it, a request_id field.
  const asRequestId = api === 'v2' && key !== undefined && rng.chance(0.5);
  if (asRequestId) tally(sim, 'order v2 under a request_id');
  const send = (abortAfterMs?: number) =>
    api === 'v1'
      ? user.session.api('user/orders', { body: request.v1, headers: key ? { 'idempotency-key': key } : {}, abortAfterMs })
      : asRequestId
        ? resellerCall(sim, user, { action: 'add', ...request.v2, request_id: key! }, { abortAfterMs })
        : resellerCall(sim, user, { action: 'add', ...request.v2 }, { key, abortAfterMs });
  const hangUp = takeHangUp(sim) ?? (variant === 'retry after hang-up' ? rng.int(0, 150) : undefined);
  const answers: Answer[] = [];
  if (variant === 'double submit') {
    answers.push(...(await Promise.all([send(hangUp), send()])));
  } else {
    answers.push(await send(hangUp));
    // A client that holds a key sends the same request again until it hears yes or no.
    while (key && unsure(answers[answers.length - 1]) && answers.length < 4) answers.push(await send());
  }
  const record: KeyRecord | null = key ? { userId: user.id, key, link: String(request.v1.link ?? request.v1.username), orderIds: new Set(), created: 0 } : null;
  for (const answer of answers) {
    expect(sim, `${api === 'v1' ? 'POST user/orders' : 'api/v2 add'}`, answer, EXPECTED[api]);
    const orderId = orderIdOf(api, answer);
    if (orderId === null) continue;
    world.orderIds.add(orderId);
    record?.orderIds.add(orderId);
    if (record && answer.kind === 'answered' && answer.status === 201) record.created += 1;
  }
  if (record) world.keys.set(key!, record);
  // The same request again under its key is never "a different order": the shop broke its promise (/api/v2 says so in an HTTP 200 error).
  const reused = answers.find(
    (answer) =>
      answer.kind === 'answered' && (answer.status === 422 || /already used for an order with different details/.test(String(answer.body?.error ?? ''))),
  );
  if (reused?.kind === 'answered')
    throw new Error(
      `the same order sent again under ${asRequestId ? 'request_id' : 'Idempotency-Key'} ${key} was refused: ${reused.status} ${reused.text.slice(0, 200)}`,
    );
  const named = [...new Set(answers.map((answer) => orderIdOf(api, answer)).filter((id) => id !== null))];
  const refusal = answers
    .map((answer) =>
      answer.kind === 'answered' ? (answer.body?.error && api === 'v2' ? answer.body.error : answer.status >= 400 ? answer.body?.message : null) : null,
    )
    .find(Boolean);
  return (
    `order ${api} ${variant} by user ${user.id}: service ${request.service.id} (${request.shape}) → ${answers.map(said).join(', ')}` +
    `${named.length ? ` order ${named.join(', ')}` : ''}${refusal ? ` (${String(refusal).slice(0, 80)})` : ''}`
  );
}

/**
 * Asks for a refill or a cancel of the order as its owner, through the SPA's API or the reseller API
 * (half and half), and checks the answer is one that API may give.
 */
async function askAboutOrder(sim: Sim, order: TargetOrder, action: 'refill' | 'cancel', resellerFields: Record<string, string>, tallyAs: string) {
  const user = sim.world.users.find((candidate) => candidate.id === order.userId)!;
  const api: Api = user.apiKey && sim.rng.chance(0.5) ? 'v2' : 'v1';
  tally(sim, `${tallyAs} ${api}`);
  const abortAfterMs = takeHangUp(sim);
  const answer =
    api === 'v1'
      ? await user.session.api(`user/orders/${order.id}/${action}`, { method: 'POST', abortAfterMs })
      : await resellerCall(sim, user, resellerFields, { abortAfterMs });
  expect(sim, api === 'v1' ? `POST user/orders/:id/${action}` : `api/v2 ${action}`, answer, api === 'v1' ? [200, 400, 409, 502, 503] : [200, 429, 503]);
  return { api, answer };
}

export async function refill(sim: Sim, target?: TargetOrder): Promise<string> {
  const order = target ?? (await pickOrder(sim, sim.rng.chance(0.8) ? 'refillable' : 'any'));
  if (!order) return 'refill: no order yet';
  const { api, answer } = await askAboutOrder(sim, order, 'refill', { action: 'refill', order: String(order.id) }, 'refill');
  return `refill ${api} of order ${order.id} (${order.status}): ${said(answer)}`;
}

export async function userCancel(sim: Sim, target?: TargetOrder): Promise<string> {
  const order = target ?? (await pickOrder(sim, sim.rng.chance(0.85) ? 'open' : 'any'));
  if (!order) return 'cancel: no order yet';
  const { api, answer } = await askAboutOrder(sim, order, 'cancel', { action: 'cancel', orders: String(order.id) }, 'user cancel');
  const detail = answer.kind === 'answered' ? (api === 'v1' ? answer.body?.message : JSON.stringify(answer.body)) : '';
  return `user cancel ${api} of order ${order.id} (${order.status}, ${order.submission}): ${said(answer)} ${String(detail ?? '').slice(0, 80)}`;
}
