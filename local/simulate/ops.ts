// The operations and how often each is chosen. A step is one operation, drawn from the seed's random
// source with these weights; the two chaos operations wrap another one (chosen the same way) with
// database connections cut, or with the client hanging up on its main request; a race runs two or
// three hands on one order at once (ops-race.ts). Refunds, disputes and their webhooks: ops-reversals.ts;
// referrals, self-referral attempts, bank transfers and held commissions: ops-referrals.ts; an administrator's
// export of the ledger, checked row by row against it: ops-ledger-export.ts.
import type { SimService } from './catalogue';
import { adminCancel, adminRefundWithoutProvider, adminSetStatus, adminSettleUnknown } from './ops-admin';
import { fullCheck, panelTrouble, reconciliationHour, sync, wait, withDroppedConnections, withHangUp } from './ops-chaos';
import { ledgerExport } from './ops-ledger-export';
import { adminCredit, confirmLate, deposit, replayWebhook, signUp } from './ops-money';
import { placeOrder, refill, userCancel } from './ops-orders';
import { replayPanelWebhook } from './ops-panel-webhooks';
import { race } from './ops-race';
import { bankTransfer, holdEnds, referredSignUp, selfReferral, switchProvider } from './ops-referrals';
import { deliverReversals, openDispute, refund, resolveDispute } from './ops-reversals';
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
  | 'time passes'
  | 'an hour passes'
  | 'full check'
  | 'ledger export'
  | 'referred sign-up'
  | 'late confirmation'
  | 'self-referral'
  | 'bank transfer'
  | 'refund'
  | 'dispute'
  | 'resolve dispute'
  | 'reversal webhooks'
  | 'hold ends'
  | 'switch payment provider'
  | 'panel webhook replay';
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
    case 'an hour passes':
      return reconciliationHour;
    case 'full check':
      return fullCheck;
    case 'ledger export':
      return ledgerExport;
    case 'referred sign-up':
      return referredSignUp;
    case 'late confirmation':
      return confirmLate;
    case 'self-referral':
      return selfReferral;
    case 'bank transfer':
      return (sim) => bankTransfer(sim);
    case 'refund':
      return refund;
    case 'dispute':
      return openDispute;
    case 'resolve dispute':
      return resolveDispute;
    case 'reversal webhooks':
      return deliverReversals;
    case 'hold ends':
      return holdEnds;
    case 'switch payment provider':
      return switchProvider;
    case 'panel webhook replay':
      return replayPanelWebhook;
  }
}

/** At most this many users per seed: referred sign-ups and self-referral attempts add to the first ones. */
const MAX_USERS = 14;

function plainWeights(sim: Sim): Partial<Record<Plain, number>> {
  const { users, panelModeUntil, deposits, disputes, reversalEvents, referral } = sim.world;
  if (users.length === 0) return { 'sign-up': 1 };
  const paid = deposits.some((deposit) => deposit.outcome === 'success');
  const room = users.length < MAX_USERS;
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
    'an hour passes': 1.5,
    'full check': 1,
    'ledger export': 1.5,
    'referred sign-up': room ? 2.5 : 0,
    'late confirmation': users.some((user) => !user.apiKey) ? 1.5 : 0,
    'self-referral': room ? 1.5 : 0,
    'bank transfer': 3,
    refund: paid ? 3 : 0,
    dispute: paid ? 2.5 : 0,
    'resolve dispute': disputes.some((dispute) => !dispute.resolved) ? 3 : 0,
    'reversal webhooks': reversalEvents.some((event) => event.delivery !== 'delivered') ? 5 : reversalEvents.length > 0 ? 1 : 0,
    'hold ends': referral?.enabled && referral.holdDays > 0 ? 1.5 : 0,
    'switch payment provider': 0.3,
    'panel webhook replay': sim.world.panelWebhooks !== null ? 4 : 0,
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
  'bank transfer',
  'refund',
  'dispute',
  'resolve dispute',
  'reversal webhooks',
  'hold ends',
  'panel webhook replay',
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
