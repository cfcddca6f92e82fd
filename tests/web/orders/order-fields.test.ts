import { describe, expect, it } from 'vitest';
import { chargeKobo, nairaToKobo, type Service } from '@/api/catalogue';
import { EMPTY_ORDER_FORM, type OrderFormValues, orderFormSchema, orderTotals, toOrderBody } from '@/features/orders/orderFields';

const svc = (over: Partial<Service> = {}): Service => ({
  id: 7,
  name: 'IG Followers',
  description: '',
  platform: 'Instagram',
  categoryId: 1,
  category: 'Instagram Followers',
  type: 'Default',
  rate: '12.34',
  rateKobo: '1234',
  min: 100,
  max: 10_000,
  refill: false,
  cancel: false,
  dripfeed: false,
  refillDays: null,
  linkKind: 'url',
  averageTimeSeconds: null,
  ...over,
});
const form = (over: Partial<OrderFormValues>): OrderFormValues => ({ ...EMPTY_ORDER_FORM, ...over });
const errorsOf = (service: Service, v: OrderFormValues) => {
  const r = orderFormSchema(service).safeParse(v);
  return r.success ? {} : Object.fromEntries(r.error.issues.map((i) => [String(i.path[0]), i.message]));
};

describe('charge = ceil(rateKobo × quantity / 1000)', () => {
  it('rounds any fraction of a kobo up', () => {
    expect(chargeKobo('1234', 1000)).toBe(1234n);
    expect(chargeKobo('1234', 1001)).toBe(1236n); // 1235.234 -> 1236
    expect(chargeKobo('1', 1)).toBe(1n);
    expect(chargeKobo('1000', 3)).toBe(3n);
  });
  it('is exact for large products and 0 for nothing', () => {
    expect(chargeKobo('99999999', 10_000_000)).toBe(999_999_990_000n);
    expect(chargeKobo('1234', 0)).toBe(0n);
    expect(chargeKobo('not a number', 10)).toBe(0n);
  });
  it('reads naira text into kobo', () => {
    expect(nairaToKobo('1234.5')).toBe(123450n);
    expect(nairaToKobo(24500.75)).toBe(2450075n);
    expect(nairaToKobo('0.07')).toBe(7n);
  });
});

describe('order totals per service type', () => {
  it('default: the quantity, times runs with drip-feed', () => {
    expect(orderTotals(svc(), form({ quantity: '1001' })).chargeKobo).toBe(1236n);
    const drip = svc({ dripfeed: true });
    const t = orderTotals(drip, form({ quantity: '1000', dripfeed: true, runs: '5', interval: '30' }));
    expect(t.totalQuantity).toBe(5000);
    expect(t.chargeKobo).toBe(6170n);
  });
  it('custom comments: one per non-empty line', () => {
    const t = orderTotals(svc({ type: 'Custom Comments', min: 1 }), form({ comments: 'nice\n\n great \nwow' }));
    expect(t.quantity).toBe(3);
    expect(t.chargeKobo).toBe(4n); // ceil(1234 × 3 / 1000)
  });
  it('package: the rate is per package, and an order is one package (the provider delivers one per order)', () => {
    expect(orderTotals(svc({ type: 'Package', min: 1, max: 5 }), form({})).chargeKobo).toBe(1234n);
    expect(orderTotals(svc({ type: 'Package', min: 1, max: 5 }), form({ quantity: '2' })).chargeKobo).toBe(1234n);
    expect(toOrderBody(svc({ type: 'Package', min: 1, max: 5 }), form({ link: 'https://youtube.com/watch?v=a' }))).toEqual({
      serviceId: 7,
      link: 'https://youtube.com/watch?v=a',
      quantity: 1,
    });
  });
  it('subscriptions: max per post × posts', () => {
    const t = orderTotals(svc({ type: 'Subscriptions' }), form({ username: 'ada', min: '100', max: '200', posts: '10' }));
    expect(t.totalQuantity).toBe(2000);
    expect(t.chargeKobo).toBe(2468n);
  });
});

describe('order form validation and body', () => {
  it('requires a link and a quantity within min/max', () => {
    expect(errorsOf(svc(), form({}))).toEqual({ link: 'Link is required', quantity: 'Please enter a valid quantity' });
    expect(errorsOf(svc(), form({ link: 'https://x.co/a', quantity: '99' })).quantity).toBe('Minimum quantity is 100');
    expect(errorsOf(svc(), form({ link: 'https://x.co/a', quantity: '10001' })).quantity).toBe('Maximum quantity is 10,000');
    expect(errorsOf(svc(), form({ link: 'https://x.co/a', quantity: '500' }))).toEqual({});
  });
  it("requires the type's extra fields", () => {
    expect(errorsOf(svc({ type: 'Mentions User Followers' }), form({ link: 'https://x.co/a', quantity: '500' })).username).toBe('Username is required');
    expect(errorsOf(svc({ type: 'Poll' }), form({ link: 'https://x.co/a', quantity: '500', answerNumber: 'two' })).answerNumber).toBe(
      'Answer number must be a whole number',
    );
  });
  it('checks drip-feed runs and interval', () => {
    const e = errorsOf(svc({ dripfeed: true }), form({ link: 'https://x.co/a', quantity: '500', dripfeed: true, runs: '0' }));
    expect(e.runs).toBe('Runs must be at least 1');
    expect(e.interval).toBe('Interval must be at least 1 minute');
  });
  it('builds the body the Worker expects', () => {
    expect(toOrderBody(svc(), form({ link: ' https://x.co/a ', quantity: '500' }))).toEqual({ serviceId: 7, link: 'https://x.co/a', quantity: 500 });
    expect(toOrderBody(svc({ dripfeed: true }), form({ link: 'https://x.co/a', quantity: '500', dripfeed: true, runs: '3', interval: '15' }))).toEqual({
      serviceId: 7,
      link: 'https://x.co/a',
      quantity: 500,
      runs: 3,
      interval: 15,
    });
    expect(toOrderBody(svc({ type: 'Subscriptions' }), form({ username: 'ada', min: '100', max: '200', posts: '10' }))).toEqual({
      serviceId: 7,
      username: 'ada',
      min: 100,
      max: 200,
      posts: 10,
      delay: 0,
    });
  });
});
