// The SMM client reading order statuses from this file's copy of the fake panel: outcomes and
// their charges, the spellings panels use, unreadable fields, and batches of many orders.
import { beforeEach, describe, expect, it } from 'vitest';
import { createSmmClient } from '../../../worker/providers/smm/client';
import { answering } from './fake-scope';
import { AUTO_LIKES, apiKey, eventually, failure, LIKES, newLink, smmPanel } from './smm-panel';

const { fake, apiUrl, smm, placeFollowers, pin } = smmPanel();

beforeEach(async () => {
  await fake.post('/__reset');
});

describe('smm status', () => {
  it('follows an order to completion', async () => {
    await fake.post('/__control', { stepMs: 40, forceOutcome: 'completed' });
    const orderId = await placeFollowers(900);
    await eventually(async () => expect(await smm.status(orderId)).toMatchObject({ status: 'Completed', remains: 0, chargeMicros: 1_305_000n }));
  });

  it('reports partial and canceled outcomes with their reduced charge', async () => {
    await fake.post('/__control', { stepMs: 40, forceOutcome: 'partial' });
    const partial = await placeFollowers(1000);
    await fake.post('/__control', { forceOutcome: 'canceled' });
    const canceled = await placeFollowers(1000);
    await eventually(async () => expect(await smm.status(canceled)).toMatchObject({ status: 'Canceled', remains: 1000, chargeMicros: 0n }));
    await eventually(async () => expect((await smm.status(partial)).status).toBe('Partial'));
    const partialState = await smm.status(partial);
    expect(partialState.remains).toBeGreaterThan(0);
    expect(partialState.chargeMicros).toBeLessThan(1_450_000n);
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
    // Canceled part-way: the runs and posts done stay delivered and charged.
    await eventually(async () => expect(await smm.status(dripFeed)).toMatchObject({ status: 'Canceled', runs: expect.any(Number) }));
    await eventually(async () => expect((await smm.status(subscription)).status).toBe('Canceled'));
    const drip = await smm.status(dripFeed);
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
