// The end of a seed: the operations stop, the panel calms down, every payer comes back to the return
// page, the payment providers deliver every refund, dispute and transfer webhook not yet answered 200 (as
// they retry), every held commission's hold ends (time passing, see ops-referrals.ts), and syncs run until each of the seed's orders is final or visibly needs a person: its
// submission unknown (an administrator links or resends it), or its answers unreadable for
// NEEDS_ATTENTION_AFTER syncs in a row (orders.unreadable_syncs, an order_needs_attention warning).
// Within a bound: an order still open and unflagged after DRAIN_SYNCS syncs is a stuck order.
//
// Time the shop measures in minutes is moved on instead of waited for: a claim on `add` abandoned
// for good (older than any provider timeout) is aged past the sweep's 5 minutes, and an order held
// back in the queue past the sync's 30-second retry wait, by moving their timestamps back.

import { checkBooks } from './invariants';
import { panelRecovers, runCron } from './ops-chaos';
import { verifyDeposit } from './ops-money';
import { deliverEveryTransfer, releaseEveryHold } from './ops-referrals';
import { deliverEveryReversal } from './ops-reversals';
import { seedUserIds } from './targets';
import { control, type Sim, sleep } from './world';

/**
 * worker/services/orders/order-status-sync.ts NEEDS_ATTENTION_AFTER: unreadable answers in a row after which the
 * sync flags an order. Not imported: that module pulls in the whole order service, which others reshape.
 */
const NEEDS_ATTENTION_AFTER = 12;
/** Syncs the drain may take: enough for an unreadable order to be flagged, and some to spare. */
export const DRAIN_SYNCS = NEEDS_ATTENTION_AFTER + 8;
/** From this sync on, time the shop waits in minutes is moved on. */
const TIME_TRAVEL_FROM = 3;

interface Unsettled {
  id: number;
  status: string;
  submission: string;
  unreadable_syncs: number;
  provider_note: string | null;
  submission_error: string | null;
}

async function unsettledOrders(sim: Sim): Promise<Unsettled[]> {
  const { rows } = await sim.pg.query<Unsettled>(
    `
    select o.id, o.status, o.submission, o.unreadable_syncs, o.provider_note, o.submission_error
    from orders o
    where o.user_id = any($1::int[])
      and o.status in ('Pending Submission', 'Pending', 'In progress', 'Processing')
      and o.submission <> 'unknown'
      and o.unreadable_syncs < $2
      and not exists (select 1 from catalogue_warnings w where w.order_id = o.id and w.kind = 'order_needs_attention' and w.acknowledged_at is null)
    order by o.id`,
    [seedUserIds(sim), NEEDS_ATTENTION_AFTER],
  );
  return rows;
}

/** Moves on the clocks the shop waits minutes for (see the top of this file), for this seed's orders only. */
async function moveTimeOn(sim: Sim, providerTimeoutMs: number): Promise<void> {
  const ids = seedUserIds(sim);
  await sim.pg.query(
    `
    update orders set submission_started_at = submission_started_at - interval '10 minutes'
    where user_id = any($1::int[]) and submission = 'sending' and submission_started_at < now() - $2::int * interval '1 millisecond'`,
    [ids, providerTimeoutMs + 5_000],
  );
  await sim.pg.query(
    `
    update orders set created_at = created_at - interval '1 minute', submission_started_at = submission_started_at - interval '1 minute'
    where user_id = any($1::int[]) and submission = 'queued' and status = 'Pending Submission' and created_at < now() - interval '5 seconds'`,
    [ids],
  );
}

export interface DrainResult {
  syncs: number;
  problems: string[];
}

export async function drain(sim: Sim, options: { stepMs: number; providerTimeoutMs: number }): Promise<DrainResult> {
  await panelRecovers(sim, true);
  await control(sim.stack.smmProviderUrl, { preset: 'calm', mode: 'normal' });
  await control(sim.stack.paystackUrl, { webhookMode: 'normal' });
  // Every payer who finished at the checkout comes back to the return page (again, for most).
  for (const deposit of sim.world.deposits) {
    if (deposit.outcome === 'abandoned' || deposit.payload === null) continue;
    for (let attempt = 1; attempt <= 4; attempt += 1) {
      const answer = await verifyDeposit(sim, deposit);
      if (answer.kind === 'answered' && answer.status < 500) break;
      await sleep(300 * attempt);
    }
  }
  const undelivered = [...(await deliverEveryReversal(sim)), ...(await deliverEveryTransfer(sim))];
  if (undelivered.length > 0) return { syncs: 0, problems: undelivered };
  await releaseEveryHold(sim);
  let unsettled: Unsettled[] = [];
  for (let syncs = 1; syncs <= DRAIN_SYNCS; syncs += 1) {
    if (syncs >= TIME_TRAVEL_FROM) await moveTimeOn(sim, options.providerTimeoutMs);
    const cron = await runCron(sim);
    if (cron.kind !== 'answered' || cron.status !== 200)
      return { syncs, problems: [`the cron failed during the drain: ${cron.kind === 'answered' ? `${cron.status} ${cron.text.slice(0, 200)}` : cron.kind}`] };
    const problems = await checkBooks(sim);
    if (problems.length > 0) return { syncs, problems };
    unsettled = await unsettledOrders(sim);
    if (unsettled.length === 0) return { syncs, problems: [] };
    // Orders at the panel move on with time (three of its steps to finish).
    await sleep(options.stepMs);
  }
  return {
    syncs: DRAIN_SYNCS,
    problems: unsettled.map(
      (order) =>
        `order ${order.id} is stuck after ${DRAIN_SYNCS} syncs with the panel calm: ${order.status}, submission ${order.submission}` +
        `, ${order.unreadable_syncs} unreadable syncs in a row${order.provider_note ? `, provider note: ${order.provider_note}` : ''}${order.submission_error ? `, submission error: ${order.submission_error}` : ''}`,
    ),
  };
}
