// The fake panel's switches (local/fakes/smm-faults.ts), as the SMM client meets them: each breaks
// the protocol the way a real panel does, for a share of calls, given orders, or the next n calls.
import { beforeEach, describe, expect, inject, it } from 'vitest';
import { createSmmClient } from '../../../worker/providers/smm/client';
import { SmmProviderError } from '../../../worker/providers/smm/types';
import { fakeScope, rejection } from './fake-scope';

const apiKey = inject('smmApiKey');
const fake = fakeScope(inject('smmProviderUrl'));
const smm = createSmmClient({ apiUrl: `${fake.url}/api/v2`, apiKey, timeoutMs: 2000 });
const FOLLOWERS = '1021'; // Default, refill + cancel

let linkCounter = 0;
const place = async (quantity = 1000) => {
  linkCounter += 1;
  return (await smm.add({ service: FOLLOWERS, link: `https://instagram.com/p/fake${Date.now().toString(36)}${linkCounter}`, quantity })).orderId;
};

const failure = (promise: Promise<unknown>) => rejection(promise, SmmProviderError);

beforeEach(async () => {
  await fake.post('/__reset');
});

describe("the fake panel's switches", () => {
  it('selects presets and switches through /__control, and refuses what it does not know', async () => {
    const rough = await fake.post('/__control', { preset: 'rough', seed: 5 });
    expect(rough.seed).toBe(5);
    expect(Object.keys(rough.faults)).toEqual(
      expect.arrayContaining([
        'html200',
        'badGateway',
        'acceptThenTimeout',
        'unknownWord',
        'missingRemains',
        'negativeRemains',
        'foreignCharge',
        'cancelRefusal',
      ]),
    );
    expect(Object.values(rough.faults).every((rule) => (rule as { rate: number }).rate <= 0.2)).toBe(true);
    const calm = await fake.post('/__control', { preset: 'calm', faults: { noCharge: { orders: [1] } } });
    expect(calm.faults).toEqual({ noCharge: { orders: [1] } });
    expect((await fake.post('/__control', { faults: { noCharge: null } })).faults).toEqual({});
    for (const body of [{ preset: 'stormy' }, { faults: { meteor: { rate: 1 } } }]) {
      const response = await fetch(`${fake.url}/__control`, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
      expect(response.status).toBe(400);
    }
  });

  it('replays the same faults for the same seed', async () => {
    const ids = await Promise.all(Array.from({ length: 20 }, () => place()));
    const run = async () => {
      await fake.post('/__control', { seed: 42, faults: { unknownWord: { rate: 0.5 } } });
      const answers = await smm.statuses(ids);
      return ids.map((id) => {
        const entry = answers.get(id);
        return entry?.ok ? entry.status : 'error';
      });
    };
    const first = await run();
    expect(first).toContain(null);
    expect(first).toContain('Pending');
    expect(await run()).toEqual(first);
  });

  it('garbles the status answers of given orders only', async () => {
    const [target, other] = [await place(), await place()];
    const faults = { missingRemains: { orders: [Number(target)] }, noCharge: { orders: [Number(target)] } };
    await fake.post('/__control', { faults });
    expect(await smm.status(target)).toMatchObject({ status: 'Pending', remains: null, chargeMicros: null });
    expect(await smm.status(other)).toMatchObject({ status: 'Pending', remains: 1000, chargeMicros: 1_450_000n });
    await fake.post('/__control', {
      faults: { textRemains: { orders: [Number(target)] }, foreignCharge: { orders: [Number(target)] }, missingRemains: null, noCharge: null },
    });
    const garbled = await smm.status(target);
    expect(garbled).toMatchObject({ status: 'Pending', remains: null, currency: 'EUR', chargeMicros: 1_336_230n });
    expect(Object.keys(garbled.unreadable ?? {})).toEqual(['remains']);
  });

  it('spells statuses otherwise, reports over-delivery and unknown words', async () => {
    await fake.post('/__control', { stepMs: 20, forceOutcome: 'canceled' });
    const canceled = await place();
    await fake.post('/__control', { forceOutcome: 'completed' });
    const completed = await place();
    while (!(await fake.get('/__orders')).orders.every((order: { status: string }) => ['Canceled', 'Completed'].includes(order.status))) {
      await new Promise((resolve) => setTimeout(resolve, 10));
    }
    await fake.post('/__control', { faults: { variantWord: { rate: 1 }, negativeRemains: { rate: 1 } } });
    expect(await smm.status(canceled)).toMatchObject({ status: 'Canceled', remains: 1000, chargeMicros: 0n });
    const over = await smm.status(completed);
    expect(over.status).toBe('Completed');
    expect(over.remains).toBeLessThan(0);
    await fake.post('/__control', { faults: { variantWord: null, unknownWord: { times: 1 } } });
    expect((await smm.status(completed)).status).toBeNull();
    expect((await smm.status(completed)).status).toBe('Completed');
  });

  it('answers HTML with 200 or 502, and nothing happens', async () => {
    await fake.post('/__control', { faults: { html200: { times: 1 } } });
    expect(await failure(smm.balance())).toMatchObject({ kind: 'unavailable', httpStatus: 200 });
    await fake.post('/__control', { faults: { badGateway: { times: 1, actions: ['add'] } } });
    expect(await failure(place())).toMatchObject({ kind: 'unavailable', httpStatus: 502 });
    expect((await fake.get('/__orders')).orders).toEqual([]);
    expect(await smm.balance()).toEqual({ balanceMicros: 5_000_000_000n, currency: 'USD' });
  });

  it('creates the order and answers too late, or slowly', async () => {
    await fake.post('/__control', { faults: { acceptThenTimeout: { times: 1, delayMs: 60_000 } } });
    const quick = createSmmClient({ apiUrl: `${fake.url}/api/v2`, apiKey, timeoutMs: 300 });
    const link = 'https://instagram.com/p/late-answer';
    expect((await failure(quick.add({ service: FOLLOWERS, link, quantity: 500 }))).message).toContain('No answer within 300 ms');
    expect((await fake.get('/__orders')).orders.filter((order: { link: string }) => order.link === link)).toHaveLength(1);
    await fake.post('/__control', { faults: { slow: { times: 1, delayMs: 400 } } });
    expect((await failure(quick.balance())).kind).toBe('unavailable');
    await fake.post('/__control', { faults: { slow: { times: 1, delayMs: 50 } } });
    expect((await quick.balance()).currency).toBe('USD');
  });

  it('answers one order id for two adds', async () => {
    const first = await place();
    await fake.post('/__control', { faults: { duplicateOrderId: { times: 1 } } });
    expect(await place()).toBe(first);
    expect((await fake.get('/__orders')).orders).toHaveLength(2);
  });

  it('refuses refills and cancels of given orders', async () => {
    const order = await place();
    await fake.post('/__control', { faults: { cancelRefusal: { orders: [Number(order)] } } });
    expect((await smm.cancel([order])).get(order)).toEqual({ ok: false, error: 'Order cannot be canceled at the moment' });
    await fake.post(`/__orders/${order}`, { status: 'Completed', remains: 0 });
    await fake.post('/__control', { faults: { refillRefusal: { orders: [Number(order)] } } });
    expect(await failure(smm.refill(order))).toMatchObject({ kind: 'rejected', message: 'Refill is not available for this order' });
  });
});
