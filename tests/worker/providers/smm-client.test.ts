import { beforeEach, describe, expect, inject, it } from 'vitest';
import { createSmmClient } from '../../../worker/providers/smm/client';
import { SmmProviderError } from '../../../worker/providers/smm/types';
import { answering, fakeScope, rejection } from './fake-scope';

const apiKey = inject('smmApiKey');
const fake = fakeScope(inject('smmProviderUrl'));
const apiUrl = `${fake.url}/api/v2`;
const smm = createSmmClient({ apiUrl, apiKey, timeoutMs: 2000 });

/** Fake catalogue services used below. */
const FOLLOWERS = '1021'; // Default, $1.45 per 1000, min 100, max 100000, refill + cancel
const LIKES = '1031'; // Default, $0.32, no refill, no cancel, drip-feed
const COMMENTS = '1051'; // Custom Comments, $6.50, min 5
const MENTIONS_HASHTAGS = '1064';
const AUTO_LIKES = '1071'; // Subscriptions
const POLL = '4041';
const WATCH_TIME = '3041'; // Package, $45.00

let linkCounter = 0;
function newLink(): string {
  linkCounter += 1;
  return `https://instagram.com/p/test${Date.now().toString(36)}${linkCounter}`;
}

const failure = (promise: Promise<unknown>) => rejection(promise, SmmProviderError);

async function placeFollowers(quantity = 1000): Promise<string> {
  return (await smm.add({ service: FOLLOWERS, link: newLink(), quantity })).orderId;
}

async function pin(orderId: string, state: Record<string, unknown>): Promise<void> {
  await fake.post(`/__orders/${orderId}`, state);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

beforeEach(async () => {
  await fake.post('/__reset');
});

describe('smm services and balance', () => {
  it('reads the catalogue with exact rates and flags', async () => {
    const { services, unreadable } = await smm.services();
    expect(unreadable).toEqual([]);
    expect(services.length).toBeGreaterThanOrEqual(30);
    expect(services.find((service) => service.id === FOLLOWERS)).toEqual({
      id: FOLLOWERS,
      name: 'Instagram Followers [Real Mixed] [Refill 30D] [Max 100K] [Start 0-1H]',
      type: 'Default',
      category: 'Instagram Followers',
      ratePer1000Micros: 1_450_000n,
      min: 100,
      max: 100_000,
      refill: true,
      cancel: true,
      dripfeed: false,
    });
    expect(services.find((service) => service.id === '2031')?.ratePer1000Micros).toBe(12_000n);
    const types = new Set(services.map((service) => service.type));
    for (const type of [
      'Default',
      'Package',
      'Custom Comments',
      'Mentions with Hashtags',
      'Mentions Custom List',
      'Mentions User Followers',
      'Mentions Media Likers',
      'Poll',
      'Subscriptions',
      'Comment Likes',
    ]) {
      expect(types.has(type), type).toBe(true);
    }
  });

  it('reads numbers sent as JSON numbers the same as strings', async () => {
    const asStrings = await smm.services();
    await fake.post('/__control', { numberFormat: 'number' });
    expect(await smm.services()).toEqual(asStrings);
  });

  it('keeps unreadable catalogue entries aside instead of failing the whole list', async () => {
    const entries = [
      { service: 1, name: 'Good', type: 'Default', category: 'X', rate: '0.90', min: '50', max: '10000', refill: '1', cancel: 0 },
      { service: 2, name: 'No rate', type: 'Default', category: 'X', rate: '', min: '50', max: '10000' },
      { service: 3, name: 'Bad range', type: 'Default', category: 'X', rate: 1, min: '500', max: '10' },
    ];
    const client = createSmmClient({ apiUrl, apiKey, fetchImpl: answering(200, JSON.stringify(entries)) });
    const { services, unreadable } = await client.services();
    expect(services).toEqual([
      {
        id: '1',
        name: 'Good',
        type: 'Default',
        category: 'X',
        ratePer1000Micros: 900_000n,
        min: 50,
        max: 10_000,
        refill: true,
        cancel: false,
        dripfeed: false,
      },
    ]);
    expect(unreadable.map((entry) => (entry.entry as { service: number }).service)).toEqual([2, 3]);
  });

  it('reads the balance exactly', async () => {
    expect(await smm.balance()).toEqual({ balanceMicros: 5_000_000_000n, currency: 'USD' });
    await fake.post('/__control', { balance: '12.34567' });
    expect(await smm.balance()).toEqual({ balanceMicros: 12_345_670n, currency: 'USD' });
  });
});

describe('smm add', () => {
  it('places an order, charged exactly and visible in status', async () => {
    const link = newLink();
    const { orderId } = await smm.add({ service: FOLLOWERS, link, quantity: 1000 });
    expect(orderId).toMatch(/^\d+$/);
    expect(await smm.status(orderId)).toEqual({ chargeMicros: 1_450_000n, startCount: 0, status: 'Pending', remains: 1000, currency: 'USD' });
    expect(await smm.balance()).toEqual({ balanceMicros: 5_000_000_000n - 1_450_000n, currency: 'USD' });
    const { addCallsByLink } = await fake.get('/__orders');
    expect(addCallsByLink[link]).toBe(1);
  });

  it('sends the per-type fields each service type needs', async () => {
    const comments = await smm.add({ service: COMMENTS, link: newLink(), comments: ['Love this', 'Amazing', 'Wow', 'So good', 'Great shot', 'Fire'] });
    const mentions = await smm.add({ service: MENTIONS_HASHTAGS, link: newLink(), quantity: 100, usernames: ['ada', 'tunde'], hashtags: '#lagos\n#naija' });
    const poll = await smm.add({ service: POLL, link: newLink(), quantity: 200, answerNumber: 2 });
    const subscription = await smm.add({ service: AUTO_LIKES, username: 'ada.lovelace', min: 100, max: 200, posts: 5, delay: 30 });
    const dripFeed = await smm.add({ service: LIKES, link: newLink(), quantity: 100, runs: 3, interval: 15 });
    const pack = await smm.add({ service: WATCH_TIME, link: newLink() });
    const { orders } = await fake.get('/__orders');
    const byId = new Map(orders.map((order: { id: number }) => [String(order.id), order]));
    expect(byId.get(comments.orderId)).toMatchObject({ quantity: 6, charge: '0.03900' });
    expect(byId.get(mentions.orderId)).toMatchObject({ quantity: 100 });
    expect(byId.get(poll.orderId)).toMatchObject({ quantity: 200 });
    // Every post is billed up front at the top of the range.
    expect(byId.get(subscription.orderId)).toMatchObject({ link: 'ada.lovelace', quantity: 1000, charge: '0.40000' });
    expect(byId.get(dripFeed.orderId)).toMatchObject({ quantity: 300 });
    expect(byId.get(pack.orderId)).toMatchObject({ quantity: 1, charge: '45.00000' });
  });

  it("is rejected with the panel's own message when the order is invalid", async () => {
    const cases: Array<[Parameters<typeof smm.add>[0], string]> = [
      [{ service: FOLLOWERS, link: newLink(), quantity: 10 }, 'Quantity less than minimal 100'],
      [{ service: FOLLOWERS, link: newLink(), quantity: 100_001 }, 'Quantity more than maximal 100000'],
      [{ service: '999999', link: newLink(), quantity: 100 }, 'Incorrect service ID'],
      [{ service: FOLLOWERS, quantity: 100 }, 'Incorrect link'],
      [{ service: COMMENTS, link: newLink() }, 'Incorrect comments'],
      [{ service: MENTIONS_HASHTAGS, link: newLink(), quantity: 100, usernames: 'ada' }, 'Incorrect hashtags'],
    ];
    for (const [input, message] of cases) {
      const error = await failure(smm.add(input));
      expect(error.kind, message).toBe('rejected');
      expect(error.message).toBe(message);
      expect(error.action).toBe('add');
    }
    expect((await smm.balance()).balanceMicros).toBe(5_000_000_000n);
  });

  it('is rejected when the balance, the key or the panel says no', async () => {
    await fake.post('/__control', { balance: '1.00' });
    expect((await failure(placeFollowers(1000))).message).toBe('Not enough funds on balance');
    await fake.post('/__control', { balance: '100.00', mode: 'active_order' });
    expect((await failure(placeFollowers())).message).toBe('You have active order with this link. Please wait until order being completed.');
    await fake.post('/__control', { mode: 'fail' });
    expect(await failure(placeFollowers())).toMatchObject({ kind: 'rejected', message: 'Service temporarily unavailable', httpStatus: 200 });
    await fake.post('/__control', { mode: 'normal' });
    const stranger = createSmmClient({ apiUrl, apiKey: 'not-the-key' });
    expect(await failure(stranger.balance())).toMatchObject({ kind: 'rejected', message: 'Invalid API key' });
  });

  it('is unavailable on a timeout, and the order may still exist', async () => {
    await fake.post('/__control', { mode: 'accept_then_timeout' });
    const quick = createSmmClient({ apiUrl, apiKey, timeoutMs: 300 });
    const link = newLink();
    const error = await failure(quick.add({ service: FOLLOWERS, link, quantity: 500 }));
    expect(error.kind).toBe('unavailable');
    expect(error.message).toContain('No answer within 300 ms');
    const { orders, addCallsByLink } = await fake.get('/__orders');
    expect(orders.filter((order: { link: string }) => order.link === link)).toHaveLength(1);
    expect(addCallsByLink[link]).toBe(1);
  });

  it('is unavailable when the panel hangs or answers garbage', async () => {
    await fake.post('/__control', { mode: 'timeout' });
    const quick = createSmmClient({ apiUrl, apiKey, timeoutMs: 300 });
    expect((await failure(quick.status('1'))).kind).toBe('unavailable');
    await fake.post('/__control', { mode: 'garbage' });
    expect(await failure(smm.add({ service: FOLLOWERS, link: newLink(), quantity: 100 }))).toMatchObject({ kind: 'unavailable', httpStatus: 500 });
    const offline = createSmmClient({ apiUrl, apiKey, fetchImpl: async () => Promise.reject(new TypeError('connection refused')) });
    expect((await failure(offline.balance())).kind).toBe('unavailable');
  });

  it('treats an add answer without an order id as unknown, not refused', async () => {
    for (const body of ['{}', '{"order":""}', '[]', 'OK']) {
      const client = createSmmClient({ apiUrl, apiKey, fetchImpl: answering(200, body) });
      expect((await failure(client.add({ service: '1', link: 'x', quantity: 1 }))).kind, body).toBe('unavailable');
    }
  });

  it('sends the protocol fields form-encoded', async () => {
    let seen: { contentType: string | null; body: string } | undefined;
    const client = createSmmClient({
      apiUrl: 'https://panel.test/api/v2',
      apiKey: 'k&y',
      fetchImpl: async (input, init) => {
        const request = new Request(input, init);
        seen = { contentType: request.headers.get('content-type'), body: new TextDecoder().decode(await request.arrayBuffer()) };
        return new Response('{"order": 77}');
      },
    });
    expect(await client.add({ service: '5', link: 'https://x.test/a?b=1', quantity: 100, usernames: ['a', 'b'], answerNumber: 3, oldPosts: 2 })).toEqual({
      orderId: '77',
    });
    expect(seen?.contentType).toContain('application/x-www-form-urlencoded');
    expect(Object.fromEntries(new URLSearchParams(seen?.body))).toEqual({
      key: 'k&y',
      action: 'add',
      service: '5',
      link: 'https://x.test/a?b=1',
      quantity: '100',
      usernames: 'a\nb',
      answer_number: '3',
      old_posts: '2',
    });
  });
});

describe('smm status', () => {
  it('follows an order to completion', async () => {
    await fake.post('/__control', { stepMs: 40, forceOutcome: 'completed' });
    const orderId = await placeFollowers(900);
    await sleep(200);
    expect(await smm.status(orderId)).toMatchObject({ status: 'Completed', remains: 0, chargeMicros: 1_305_000n });
  });

  it('reports partial and canceled outcomes with their reduced charge', async () => {
    await fake.post('/__control', { stepMs: 40, forceOutcome: 'partial' });
    const partial = await placeFollowers(1000);
    await fake.post('/__control', { forceOutcome: 'canceled' });
    const canceled = await placeFollowers(1000);
    await sleep(200);
    const partialState = await smm.status(partial);
    expect(partialState.status).toBe('Partial');
    expect(partialState.remains).toBeGreaterThan(0);
    expect(partialState.chargeMicros).toBeLessThan(1_450_000n);
    expect(await smm.status(canceled)).toMatchObject({ status: 'Canceled', remains: 1000, chargeMicros: 0n });
    // The panel refunded both: only the delivered part of the partial order stays charged.
    expect((await smm.balance()).balanceMicros).toBe(5_000_000_000n - partialState.chargeMicros!);
  });

  it('normalises the spellings panels use for statuses, and maps the words whose meaning is plain', async () => {
    const orderId = await placeFollowers();
    const spellings: Array<[string, string]> = [
      ['Cancelled', 'Canceled'],
      ['canceled', 'Canceled'],
      ['CANCELED', 'Canceled'],
      ['Refunded', 'Canceled'],
      ['Fail', 'Canceled'],
      ['failed', 'Canceled'],
      ['Error', 'Canceled'],
      ['In Progress', 'In progress'],
      ['inprogress', 'In progress'],
      ['in_progress', 'In progress'],
      ['Active', 'In progress'],
      ['processing', 'Processing'],
      ['Completed', 'Completed'],
      ['completed', 'Completed'],
      ['Expired', 'Completed'],
      ['partial', 'Partial'],
      ['PARTIAL', 'Partial'],
      ['Partially Completed', 'Partial'],
      ['pending', 'Pending'],
      ['Queued', 'Pending'],
    ];
    for (const [spelling, canonical] of spellings) {
      await pin(orderId, { status: spelling, remains: 5 });
      expect((await smm.status(orderId)).status, spelling).toBe(canonical);
    }
  });

  it('keeps negative remains (over-delivery) and reads string and number fields alike', async () => {
    const orderId = await placeFollowers(1000);
    await pin(orderId, { status: 'Completed', remains: -37, start_count: 15_234, charge: '1.45' });
    const expected = { chargeMicros: 1_450_000n, startCount: 15_234, status: 'Completed', remains: -37, currency: 'USD' };
    expect(await smm.status(orderId)).toEqual(expected);
    await fake.post('/__control', { numberFormat: 'number' });
    expect(await smm.status(orderId)).toEqual(expected);
  });

  it('reads every field on its own: an unknown word or a garbled field is named, the rest still read', async () => {
    const orderId = await placeFollowers();
    await pin(orderId, { status: 'Fail?', remains: 40 });
    expect(await smm.status(orderId)).toMatchObject({ status: null, remains: 40, chargeMicros: 1_450_000n, unreadable: { status: 'Fail?' } });
    await pin(orderId, { status: 'Partial', remains: 'N/A', start_count: '12.5', charge: 'free' });
    expect(await smm.status(orderId)).toEqual({
      status: 'Partial',
      remains: null,
      startCount: null,
      chargeMicros: null,
      currency: 'USD',
      unreadable: { remains: 'N/A', start_count: '12.5', charge: 'free' },
    });
    // Left out is not garbled: missing fields are null and not named.
    await pin(orderId, { status: 'Partial', remains: null, charge: null, start_count: null, currency: null });
    expect(await smm.status(orderId)).toEqual({ status: 'Partial', remains: null, startCount: null, chargeMicros: null, currency: '' });
  });

  it('reads the runs a drip-feed has done and the posts a subscription has done', async () => {
    await fake.post('/__control', { stepMs: 40, forceOutcome: 'canceled' });
    const dripFeed = (await smm.add({ service: LIKES, link: newLink(), quantity: 100, runs: 10, interval: 15 })).orderId;
    const subscription = (await smm.add({ service: AUTO_LIKES, username: 'ada', min: 100, max: 200, posts: 10, delay: 0 })).orderId;
    await sleep(200);
    // Canceled part-way: the runs and posts done stay delivered and charged.
    const drip = await smm.status(dripFeed);
    expect(drip).toMatchObject({ status: 'Canceled', runs: expect.any(Number) });
    expect(drip.runs).toBeGreaterThan(0);
    expect(drip.remains).toBe((10 - drip.runs!) * 100);
    const posts = await smm.status(subscription);
    expect(posts).toMatchObject({ status: 'Canceled', remains: null });
    expect(posts.posts).toBeGreaterThan(0);
    expect(posts.posts).toBeLessThan(10);
  });

  it('is unavailable when the single-order answer is not an object', async () => {
    const client = createSmmClient({ apiUrl, apiKey, fetchImpl: answering(200, '["Completed"]') });
    expect((await failure(client.status('1'))).kind).toBe('unavailable');
  });

  it('is rejected for an unknown order', async () => {
    expect(await failure(smm.status('1'))).toMatchObject({ kind: 'rejected', message: 'Incorrect order ID' });
  });

  it('asks for many orders 100 at a time and reports each one', async () => {
    const known = await placeFollowers();
    const unknown = Array.from({ length: 149 }, (_, index) => String(9_000_000 + index));
    const results = await smm.statuses([known, ...unknown, known]);
    expect(results.size).toBe(150);
    expect(results.get(known)).toMatchObject({ ok: true, status: 'Pending', remains: 1000 });
    expect(results.get(unknown[0])).toEqual({ ok: false, error: 'Incorrect order ID' });
    expect(results.get(unknown[148])).toEqual({ ok: false, error: 'Incorrect order ID' });
  });

  it('reads a one-order batch answered in the single-order shape', async () => {
    const client = createSmmClient({
      apiUrl,
      apiKey,
      fetchImpl: answering(200, '{"charge":"0.5","start_count":"3","status":"In progress","remains":"40","currency":"USD"}'),
    });
    expect(await client.statuses(['8'])).toEqual(
      new Map([['8', { ok: true, chargeMicros: 500_000n, startCount: 3, status: 'In progress', remains: 40, currency: 'USD' }]]),
    );
  });

  it('reads each entry of a batch on its own', async () => {
    const answer = {
      1: { charge: '0.5', start_count: '3', status: 'Completed', remains: '0', currency: 'USD' },
      2: 'Completed',
      3: { error: 'Incorrect order ID' },
      4: { status: 'Exploded', remains: '7' },
      5: { status: 'partial', remains: 'about 10' },
    };
    const client = createSmmClient({ apiUrl, apiKey, fetchImpl: answering(200, JSON.stringify(answer)) });
    const results = await client.statuses(['1', '2', '3', '4', '5']);
    expect(results.get('1')).toEqual({ ok: true, chargeMicros: 500_000n, startCount: 3, status: 'Completed', remains: 0, currency: 'USD' });
    expect(results.get('2')).toEqual({ ok: false, error: 'Unreadable entry: "Completed"' });
    expect(results.get('3')).toEqual({ ok: false, error: 'Incorrect order ID' });
    expect(results.get('4')).toMatchObject({ ok: true, status: null, remains: 7, unreadable: { status: 'Exploded' } });
    expect(results.get('5')).toMatchObject({ ok: true, status: 'Partial', remains: null, unreadable: { remains: 'about 10' } });
  });

  /** A panel that answers 502 for any batch including one of `poisoned` (all of them when null), counting the calls. */
  function choking(poisoned: string[] | null) {
    const calls: string[][] = [];
    const client = createSmmClient({
      apiUrl,
      apiKey,
      fetchImpl: async (input, init) => {
        const asked = (new URLSearchParams(await new Request(input, init).text()).get('orders') ?? '').split(',');
        calls.push(asked);
        if (poisoned === null || asked.some((id) => poisoned.includes(id))) {
          return new Response('<html><body>502 Bad Gateway</body></html>', { status: 502, headers: { 'content-type': 'text/html' } });
        }
        return new Response(JSON.stringify(Object.fromEntries(asked.map((id) => [id, { status: 'In progress', remains: '5' }]))));
      },
    });
    return { client, calls };
  }
  const ids = Array.from({ length: 250 }, (_, index) => String(index + 1));

  it('asks the halves of a batch the panel chokes on again, so one order that breaks it costs only itself', async () => {
    const { client, calls } = choking(['150']);
    const results = await client.statuses(ids);
    expect(results.get('150')).toEqual({ ok: false, unanswered: true, error: expect.stringContaining('HTTP 502') });
    const answered = ids.filter((id) => results.get(id)?.ok);
    expect(answered).toHaveLength(249);
    // Three batches, then halving the second down to the one order: two calls a level.
    expect(calls.length).toBeLessThanOrEqual(3 + 2 * Math.ceil(Math.log2(100)));
  });

  it('gives up on a panel that fails as a whole after a few calls, marking every order unanswered', async () => {
    const { client, calls } = choking(null);
    const results = await client.statuses(ids);
    expect([...results.values()].every((entry) => !entry.ok && entry.unanswered)).toBe(true);
    // The first batch and its two halves; the other batches are not asked.
    expect(calls.map((asked) => asked.length)).toEqual([100, 50, 50]);
  });

  it('does not ask again after a timeout', async () => {
    let calls = 0;
    const hanging = createSmmClient({
      apiUrl,
      apiKey,
      timeoutMs: 200,
      fetchImpl: (_input, init) => {
        calls += 1;
        return new Promise((_resolve, reject) => init?.signal?.addEventListener('abort', () => reject(init.signal!.reason)));
      },
    });
    const results = await hanging.statuses(ids);
    expect(results.get('1')).toEqual({ ok: false, unanswered: true, error: 'SMM provider status: No answer within 200 ms' });
    expect(results.get('250')).toMatchObject({ ok: false, unanswered: true });
    // One timeout, not one per batch or half.
    expect(calls).toBe(1);
  });

  it('reports ids the panel left out of a batch answer', async () => {
    const client = createSmmClient({
      apiUrl,
      apiKey,
      fetchImpl: answering(200, '{"1":{"charge":"0.5","start_count":"3","status":"Completed","remains":"0","currency":"USD"}}'),
    });
    const results = await client.statuses(['1', '2']);
    expect(results.get('1')).toMatchObject({ ok: true, status: 'Completed', chargeMicros: 500_000n });
    expect(results.get('2')).toEqual({ ok: false, error: 'Missing from the provider answer' });
  });
});

describe('smm refill', () => {
  async function completedOrder(service = FOLLOWERS): Promise<string> {
    const { orderId } = await smm.add({ service, link: newLink(), quantity: 100 });
    await pin(orderId, { status: 'Completed', remains: 0 });
    return orderId;
  }

  it('creates a refill and follows its status', async () => {
    await fake.post('/__control', { stepMs: 150 });
    const orderId = await completedOrder();
    const { refillId } = await smm.refill(orderId);
    expect(refillId).toMatch(/^\d+$/);
    expect(await smm.refillStatus(refillId)).toBe('Pending');
    await sleep(350);
    expect(await smm.refillStatus(refillId)).toBe('Completed');
  });

  it('is rejected where the panel refuses a refill', async () => {
    const noRefill = await completedOrder(LIKES);
    expect(await failure(smm.refill(noRefill))).toMatchObject({ kind: 'rejected', message: 'Refill is disabled for this service' });
    const pending = await placeFollowers();
    expect((await failure(smm.refill(pending))).message).toBe('Order is not completed');
    expect((await failure(smm.refillStatus('424242'))).message).toBe('Incorrect refill ID');
  });

  it('refills many orders, each with its own result', async () => {
    const good = await completedOrder();
    const noRefill = await completedOrder(LIKES);
    const results = await smm.refills([good, noRefill, '1']);
    expect(results.get(good)).toMatchObject({ ok: true, refillId: expect.stringMatching(/^\d+$/) });
    expect(results.get(noRefill)).toEqual({ ok: false, error: 'Refill is disabled for this service' });
    expect(results.get('1')).toEqual({ ok: false, error: 'Incorrect order ID' });
  });

  it('reads many refill statuses from a list answer and from an object answer', async () => {
    const first = (await smm.refill(await completedOrder())).refillId;
    const second = (await smm.refill(await completedOrder())).refillId;
    const expected = new Map([
      [first, { ok: true, status: 'Pending' }],
      [second, { ok: true, status: 'Pending' }],
      ['999999', { ok: false, error: 'Refill not found' }],
    ]);
    expect(await smm.refillStatuses([first, second, '999999'])).toEqual(expected);
    await fake.post('/__control', { refillStatusShape: 'object' });
    expect(await smm.refillStatuses([first, second, '999999'])).toEqual(expected);
  });

  it('reads object answers whose values are bare status words, and odd spellings', async () => {
    const client = createSmmClient({ apiUrl, apiKey, fetchImpl: answering(200, '{"5":"In Progress","6":{"status":"rejected"},"7":{"status":"Cancelled"}}') });
    expect(await client.refillStatuses(['5', '6', '7'])).toEqual(
      new Map([
        ['5', { ok: true, status: 'In progress' }],
        ['6', { ok: true, status: 'Rejected' }],
        ['7', { ok: true, status: 'Canceled' }],
      ]),
    );
  });
});

describe('smm cancel', () => {
  it('cancels what can be canceled and explains the rest', async () => {
    await fake.post('/__control', { stepMs: 60_000 });
    const cancelable = await placeFollowers(1000);
    const notCancelable = (await smm.add({ service: LIKES, link: newLink(), quantity: 100 })).orderId;
    const results = await smm.cancel([cancelable, notCancelable, '1']);
    expect(results).toEqual(
      new Map([
        [cancelable, { ok: true }],
        [notCancelable, { ok: false, error: 'Cancel is disabled for this service' }],
        ['1', { ok: false, error: 'Incorrect order ID' }],
      ]),
    );
    expect(await smm.status(cancelable)).toMatchObject({ status: 'Canceled', remains: 1000, chargeMicros: 0n });
    expect((await smm.balance()).balanceMicros).toBe(5_000_000_000n - 32_000n);
  });
});
