// Several hands on one order at the same moment: the customer cancelling, administrators
// cancelling, refunding or setting its status, a refill, and the sync reading the panel's answer,
// two or three of them at once. Whatever wins, the order must close once with one refund.
// Each action draws from a random source of its own (forked before they start), so the seed still
// replays the same actions whatever order they finish in.
import { adminCancel, adminRefundWithoutProvider, adminSetStatus } from './ops-admin';
import { sync } from './ops-chaos';
import { refill, userCancel } from './ops-orders';
import { Random } from './prng';
import { pickOrder, type TargetOrder } from './targets';
import { type Sim, tally } from './world';

type Hand = 'user cancel' | 'admin cancel' | 'admin refund without provider' | 'admin status' | 'refill' | 'sync';

const HANDS: Record<Hand, (sim: Sim, order: TargetOrder) => Promise<string>> = {
  'user cancel': userCancel,
  'admin cancel': adminCancel,
  'admin refund without provider': adminRefundWithoutProvider,
  'admin status': adminSetStatus,
  refill: refill,
  sync: (sim) => sync(sim),
};

export async function race(sim: Sim): Promise<string> {
  const { rng } = sim;
  const order = await pickOrder(sim, rng.chance(0.8) ? 'at provider' : 'open');
  if (!order) return 'race: no open order';
  const hands = Array.from({ length: rng.int(2, 3) }, () => rng.pick(Object.keys(HANDS) as Hand[]));
  tally(sim, 'race on one order');
  const outcomes = await Promise.all(hands.map((hand) => HANDS[hand]({ ...sim, rng: new Random(rng.fork()) }, order)));
  return `race on order ${order.id} (${order.status}, ${order.submission}): ${outcomes.join(' | ')}`;
}
