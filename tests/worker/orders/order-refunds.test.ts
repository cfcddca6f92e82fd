// The refund rule per order type, as a pure function: what each closing owes, to the kobo.
import { describe, expect, it } from 'vitest';
import { deliveryKind, type RefundableOrder, refundOwed } from '../../../worker/services/orders/order-refunds';

/** floor(charge × undelivered / deliverable), written out independently of the rule. */
const floorShare = (charge: bigint, undelivered: number, deliverable: number) => (charge * BigInt(undelivered)) / BigInt(deliverable);

const defaultOrder: RefundableOrder = {
  chargeKobo: 224_789n,
  quantity: 1000,
  deliverable: 1000,
  extras: { link: 'https://instagram.com/p/x', quantity: 1000 },
};
// Three packages billed, three asked for: remains counts packages.
const packageOrder: RefundableOrder = { chargeKobo: 20_926_125n, quantity: 3, deliverable: 3, extras: { link: 'https://youtube.com/watch?v=x' } };
const commentsOrder: RefundableOrder = {
  chargeKobo: 60_461n,
  quantity: 6,
  deliverable: 6,
  extras: { link: 'https://instagram.com/p/x', comments: 'a\nb\nc\nd\ne\nf' },
};
// 100 per run, 20 runs.
const dripFeed: RefundableOrder = {
  chargeKobo: 99_217n,
  quantity: 100,
  deliverable: 2000,
  extras: { link: 'https://instagram.com/p/x', quantity: 100, runs: 20, interval: 15 },
};
// Up to 200 per post, 20 posts, billed at the top of the range.
const subscription: RefundableOrder = {
  chargeKobo: 248_041n,
  quantity: 200,
  deliverable: 4000,
  extras: { username: 'ada', min: 100, max: 200, posts: 20, delay: 0 },
};

describe('which rule an order follows', () => {
  it('reads drip-feed and subscriptions from the fields they were sent with; the rest count units', () => {
    expect(deliveryKind(defaultOrder)).toBe('units');
    expect(deliveryKind(packageOrder)).toBe('units');
    expect(deliveryKind(commentsOrder)).toBe('units');
    expect(deliveryKind(dripFeed)).toBe('drip-feed');
    expect(deliveryKind(subscription)).toBe('subscription');
  });
});

describe('default orders: remains of quantity', () => {
  it('refunds a Partial order exactly its undelivered part, rounded down', () => {
    expect(refundOwed(defaultOrder, 'Partial', { remains: 377 })).toEqual({ status: 'Partial', refundKobo: floorShare(224_789n, 377, 1000), remains: 377 });
    expect(floorShare(224_789n, 377, 1000)).toBe(84_745n);
    // A third of 1000 kobo is 333.33...: the fraction of a kobo stays with the shop.
    expect(refundOwed({ ...defaultOrder, chargeKobo: 1000n, deliverable: 3, quantity: 3 }, 'Partial', { remains: 1 })).toMatchObject({ refundKobo: 333n });
  });

  it('refunds a Canceled order its undelivered part, and all of it when nothing was delivered', () => {
    expect(refundOwed(defaultOrder, 'Canceled', { remains: 1000 })).toEqual({ status: 'Canceled', refundKobo: 224_789n, remains: 1000 });
    expect(refundOwed(defaultOrder, 'Canceled', { remains: 400 })).toEqual({ status: 'Canceled', refundKobo: floorShare(224_789n, 400, 1000), remains: 400 });
    // The provider kept nothing: all of it, whatever it says of remains.
    expect(refundOwed(defaultOrder, 'Canceled', { remains: 0, chargeMicros: 0n })).toMatchObject({ refundKobo: 224_789n });
    // Canceled and nothing else said: the protocol's meaning, nothing delivered.
    expect(refundOwed(defaultOrder, 'Canceled')).toEqual({ status: 'Canceled', refundKobo: 224_789n, remains: 1000 });
  });

  it('counts over-delivery as delivered and pays nothing back for Completed', () => {
    expect(refundOwed(defaultOrder, 'Partial', { remains: -25 })).toEqual({ status: 'Partial', refundKobo: 0n, remains: 0 });
    expect(refundOwed(defaultOrder, 'Completed', { remains: -25 })).toEqual({ status: 'Completed', refundKobo: 0n, remains: 0 });
    expect(refundOwed(defaultOrder, 'Completed', { remains: 300 })).toEqual({ status: 'Completed', refundKobo: 0n, remains: 0 });
  });

  it('refunds nothing on a guess', () => {
    const cases: Array<[Parameters<typeof refundOwed>[1], Parameters<typeof refundOwed>[2], string]> = [
      ['Partial', {}, 'partial, without saying how much was delivered'],
      ['Partial', { remains: null, unreadable: ['remains "N/A"'] }, 'partial, without saying how much was delivered'],
      ['Partial', { remains: 1001 }, 'remains 1001 is more than the 1000 ordered'],
      ['Canceled', { remains: 5000 }, 'remains 5000 is more than the 1000 ordered'],
      ['Canceled', { remains: 0 }, 'canceled, yet reported fully delivered'],
      ['Canceled', { chargeMicros: 1_230_000n }, 'canceled, yet charged without saying how much was delivered'],
      ['Canceled', { unreadable: ['remains "N/A"'] }, 'canceled, with remains "N/A"'],
    ];
    for (const [status, delivery, problem] of cases) {
      expect(refundOwed(defaultOrder, status, delivery), problem).toEqual({ status: null, problem });
    }
  });

  it('stays exact on the largest orders (no product overflows)', () => {
    const huge: RefundableOrder = { chargeKobo: 9_000_000_000_000_000_000n, quantity: 2_147_483_647, deliverable: 2_147_483_647, extras: {} };
    const outcome = refundOwed(huge, 'Partial', { remains: 2_147_483_646 });
    expect(outcome).toMatchObject({ refundKobo: (9_000_000_000_000_000_000n * 2_147_483_646n) / 2_147_483_647n });
    // More than a 64-bit integer holds, exactly.
    expect(9_000_000_000_000_000_000n * 2_147_483_646n > 2n ** 64n).toBe(true);
  });
});

describe('packages: remains in packages', () => {
  it("refunds the undelivered packages' share for Partial and Canceled", () => {
    expect(refundOwed(packageOrder, 'Partial', { remains: 1 })).toEqual({ status: 'Partial', refundKobo: 6_975_375n, remains: 1 });
    expect(refundOwed(packageOrder, 'Canceled', { remains: 2 })).toEqual({ status: 'Canceled', refundKobo: 13_950_750n, remains: 2 });
    expect(refundOwed(packageOrder, 'Canceled', { remains: 3 })).toMatchObject({ refundKobo: 20_926_125n });
    expect(refundOwed(packageOrder, 'Partial', { remains: 4000 })).toMatchObject({ status: null });
  });
});

describe('custom comments: billed lines = sent lines, remains in lines', () => {
  it('refunds the lines not posted', () => {
    expect(refundOwed(commentsOrder, 'Partial', { remains: 2 })).toEqual({ status: 'Partial', refundKobo: floorShare(60_461n, 2, 6), remains: 2 });
    expect(floorShare(60_461n, 2, 6)).toBe(20_153n);
    expect(refundOwed(commentsOrder, 'Canceled', { remains: 6 })).toMatchObject({ refundKobo: 60_461n });
    expect(refundOwed(commentsOrder, 'Canceled', { remains: 5 })).toMatchObject({ refundKobo: floorShare(60_461n, 5, 6) });
  });
});

describe('drip-feed: quantity × runs', () => {
  it('refunds by remains against every run', () => {
    expect(refundOwed(dripFeed, 'Partial', { remains: 150, runsDone: 18 })).toEqual({
      status: 'Partial',
      refundKobo: floorShare(99_217n, 150, 2000),
      remains: 150,
    });
    expect(refundOwed(dripFeed, 'Canceled', { remains: 2000 })).toMatchObject({ refundKobo: 99_217n });
  });

  it('refunds by the runs done when remains is not given: canceled after 19 of 20 runs refunds one run', () => {
    expect(refundOwed(dripFeed, 'Canceled', { runsDone: 19, chargeMicros: 1_200_000n })).toEqual({
      status: 'Canceled',
      refundKobo: floorShare(99_217n, 100, 2000),
      remains: 100,
    });
    expect(refundOwed(dripFeed, 'Partial', { remains: null, runsDone: 5, unreadable: ['remains "N/A"'] })).toEqual({
      status: 'Partial',
      refundKobo: floorShare(99_217n, 1500, 2000),
      remains: 1500,
    });
  });

  it('refunds the missing runs of one reported Completed part-way, nothing of one done', () => {
    expect(refundOwed(dripFeed, 'Completed', { runsDone: 2 })).toEqual({ status: 'Partial', refundKobo: floorShare(99_217n, 1800, 2000), remains: 1800 });
    expect(refundOwed(dripFeed, 'Completed', { runsDone: 20, remains: 0 })).toEqual({ status: 'Completed', refundKobo: 0n, remains: 0 });
    expect(refundOwed(dripFeed, 'Completed', {})).toEqual({ status: 'Completed', refundKobo: 0n, remains: 0 });
  });

  it('refunds nothing for runs outside the order', () => {
    expect(refundOwed(dripFeed, 'Partial', { runsDone: 21 })).toEqual({ status: null, problem: 'runs done 21 is outside the 20 ordered' });
    expect(refundOwed(dripFeed, 'Canceled', { runsDone: -1, chargeMicros: 5n })).toMatchObject({ status: null });
  });
});

describe('subscriptions: posts delivered', () => {
  it('refunds the posts not delivered of one that expired after 2 of 20 (reported Completed)', () => {
    expect(refundOwed(subscription, 'Completed', { postsDone: 2 })).toEqual({ status: 'Partial', refundKobo: floorShare(248_041n, 3600, 4000), remains: 3600 });
  });

  it('refunds one post of one canceled after 19 of 20, and all of one canceled before the first', () => {
    expect(refundOwed(subscription, 'Canceled', { postsDone: 19, chargeMicros: 7_600_000n })).toEqual({
      status: 'Canceled',
      refundKobo: floorShare(248_041n, 200, 4000),
      remains: 200,
    });
    expect(refundOwed(subscription, 'Canceled', { postsDone: 0 })).toEqual({ status: 'Canceled', refundKobo: 248_041n, remains: 4000 });
  });

  it('uses remains against every post when the posts done are not given', () => {
    expect(refundOwed(subscription, 'Partial', { remains: 1000 })).toEqual({ status: 'Partial', refundKobo: floorShare(248_041n, 1000, 4000), remains: 1000 });
    expect(refundOwed(subscription, 'Partial', { postsDone: 15, remains: 1000 })).toMatchObject({ refundKobo: floorShare(248_041n, 1000, 4000) });
    expect(refundOwed(subscription, 'Completed', { postsDone: 20 })).toEqual({ status: 'Completed', refundKobo: 0n, remains: 0 });
  });

  it('refunds nothing for posts beyond the order, or a Partial that says nothing', () => {
    expect(refundOwed(subscription, 'Partial', { postsDone: 25 })).toEqual({ status: null, problem: 'posts done 25 is outside the 20 ordered' });
    expect(refundOwed(subscription, 'Partial', {})).toMatchObject({ status: null });
  });
});
