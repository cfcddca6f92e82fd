// The SMM client against this file's copy of the fake panel: the catalogue and balance, placing
// orders (with each service type's fields), refills and cancels. Statuses: smm-status.test.ts.
import { beforeEach, describe, expect, it } from 'vitest';
import { createSmmClient } from '../../../worker/providers/smm/client';
import { answering } from './fake-scope';
import { AUTO_LIKES, apiKey, COMMENTS, eventually, FOLLOWERS, failure, LIKES, MENTIONS_HASHTAGS, newLink, POLL, smmPanel, WATCH_TIME } from './smm-panel';

const { fake, apiUrl, smm, placeFollowers, pin } = smmPanel();

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
    await eventually(async () => expect(await smm.refillStatus(refillId)).toBe('Completed'));
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
