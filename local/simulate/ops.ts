// The operations and how often each is chosen. A step is one operation, drawn from the seed's random
// source with these weights; the two chaos operations wrap another one (chosen the same way) with
// database connections cut, or with the client hanging up on its main request; a race runs two or
// three hands on one order at once (ops-race.ts).
import type { SimService } from './catalogue';
import { adminCancel, adminRefundWithoutProvider, adminSetStatus, adminSettleUnknown } from './ops-admin';
import { panelTrouble, sync, wait, withDroppedConnections, withHangUp } from './ops-chaos';
import { adminCredit, deposit, replayWebhook, signUp } from './ops-money';
import { placeOrder, refill, userCancel } from './ops-orders';
import { race } from './ops-race';
import type { Sim } from './world';

type Plain =
  | 'sign-up'
  | 'deposit'
  | 'webhook replay'
  | 'admin credit'
  | 'order v1'
  | 'order v2'
  | 'sync'
  | 'refill'
  | 'user cancel'
  | 'admin cancel'
  | 'admin refund without provider'
  | 'admin status'
  | 'admin settles unknown'
  | 'race'
  | 'panel trouble'
  | 'time passes';
type Chaos = 'cut connections' | 'hang up';

function plainOperation(name: Plain, services: readonly SimService[]): (sim: Sim) => Promise<string> {
  switch (name) {
    case 'sign-up':
      return signUp;
    case 'deposit':
      return deposit;
    case 'webhook replay':
      return replayWebhook;
    case 'admin credit':
      return adminCredit;
    case 'order v1':
      return (sim) => placeOrder(sim, services, 'v1');
    case 'order v2':
      return (sim) => placeOrder(sim, services, 'v2');
    case 'sync':
      return sync;
    case 'refill':
      return (sim) => refill(sim);
    case 'user cancel':
      return (sim) => userCancel(sim);
    case 'admin cancel':
      return (sim) => adminCancel(sim);
    case 'admin refund without provider':
      return (sim) => adminRefundWithoutProvider(sim);
    case 'admin status':
      return (sim) => adminSetStatus(sim);
    case 'admin settles unknown':
      return adminSettleUnknown;
    case 'race':
      return race;
    case 'panel trouble':
      return panelTrouble;
    case 'time passes':
      return wait;
  }
}

function plainWeights(sim: Sim): Partial<Record<Plain, number>> {
  const { users, panelModeUntil } = sim.world;
  if (users.length === 0) return { 'sign-up': 1 };
  return {
    'sign-up': users.length < 3 ? 8 : users.length < 8 ? 1.5 : 0,
    deposit: 9,
    'webhook replay': 2,
    'admin credit': 2,
    'order v1': 18,
    'order v2': 12,
    sync: 10,
    refill: 4,
    'user cancel': 5,
    'admin cancel': 3,
    'admin refund without provider': 2,
    'admin status': 4,
    'admin settles unknown': 2,
    race: 4,
    'panel trouble': panelModeUntil === null ? 1.5 : 0,
    'time passes': 4,
  };
}

/** What the chaos operations wrap: operations that send a request worth interrupting. */
const INTERRUPTIBLE: Plain[] = [
  'order v1',
  'order v2',
  'deposit',
  'sync',
  'user cancel',
  'admin cancel',
  'admin status',
  'refill',
  'webhook replay',
  'admin credit',
  'admin refund without provider',
  'race',
];

/** Draws one step: its name (for the log and a failure's report) and how to run it; running answers what it did, in words. */
export function chooseStep(sim: Sim, services: readonly SimService[]): { name: string; run: () => Promise<string> } {
  const { rng, world } = sim;
  const chaos: Partial<Record<Chaos, number>> = world.users.length === 0 ? {} : { 'cut connections': 4, 'hang up': 4 };
  const name = rng.weighted<Plain | Chaos>({ ...plainWeights(sim), ...chaos });
  if (name !== 'cut connections' && name !== 'hang up') return { name, run: () => plainOperation(name, services)(sim) };
  const innerName = rng.pick(INTERRUPTIBLE);
  const inner = plainOperation(innerName, services);
  return {
    name: `${name}: ${innerName}`,
    run: () => (name === 'cut connections' ? withDroppedConnections(sim, () => inner(sim)) : withHangUp(sim, () => inner(sim))),
  };
}
