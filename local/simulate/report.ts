// What a seed did, in one line: steps and time, the orders it left and how they ended, the money that
// moved (read from the ledger), the chaos it caused, and answers worth a look; and a failure's report.
import { formatNaira } from '../../worker/lib/decimal';
import type { TruthCheck } from './provider-truth';
import { seedUserIds } from './targets';
import type { Sim } from './world';

export interface SeedSummary {
  seed: number;
  steps: number;
  seconds: number;
  drainSyncs: number;
  line: string;
  /** Answers no operation expected, with how often: printed under the line with --verbose. */
  surprises: Array<[string, number]>;
}

export async function summarize(sim: Sim, steps: number, seconds: number, drainSyncs: number, truth: TruthCheck): Promise<SeedSummary> {
  const ids = seedUserIds(sim);
  const { world } = sim;
  const [money] = (
    await sim.pg.query<{ paid: string; credited: string; charged: string; refunded: string }>(
      `
    select coalesce(sum(amount_kobo) filter (where source_kind = 'payment'), 0)::text as paid,
      coalesce(sum(amount_kobo) filter (where source_kind = 'admin_credit'), 0)::text as credited,
      coalesce(sum(amount_kobo) filter (where source_kind = 'order'), 0)::text as charged,
      coalesce(sum(amount_kobo) filter (where source_kind = 'order_refund'), 0)::text as refunded
    from wallet_transactions where user_id = any($1::int[])`,
      [ids],
    )
  ).rows;
  const statuses = (
    await sim.pg.query<{ label: string; n: number }>(
      `
    select case when status = 'Pending Submission' and submission = 'unknown' then 'unknown submission'
                when status in ('Completed', 'Partial', 'Canceled') then status else 'open' end as label, count(*)::int as n
    from orders where user_id = any($1::int[]) group by 1 order by 1`,
      [ids],
    )
  ).rows;
  const orders = statuses.reduce((total, row) => total + row.n, 0);
  const [back] = (
    await sim.pg.query<{
      chargebacks: string;
      returned: string;
      debt: string;
      commissions: number;
      released: number;
      earned: string;
      reversed: string;
      blocked: number;
    }>(
      `
    select coalesce((select sum(amount_kobo) from wallet_transactions where user_id = any($1::int[]) and source_kind = 'chargeback'), 0)::text as chargebacks,
      coalesce((select sum(amount_kobo) from wallet_transactions where user_id = any($1::int[]) and source_kind = 'chargeback_return'), 0)::text as returned,
      coalesce((select sum(debt_kobo) from wallets where user_id = any($1::int[])), 0)::text as debt,
      (select count(*)::int from referral_commissions where referrer_id = any($1::int[])) as commissions,
      (select count(*)::int from referral_commissions where referrer_id = any($1::int[]) and released_at is not null) as released,
      coalesce((select sum(commission_kobo) from referral_commissions where referrer_id = any($1::int[])), 0)::text as earned,
      coalesce((select sum(reversed_kobo) from referral_commissions where referrer_id = any($1::int[])), 0)::text as reversed,
      (select count(*)::int from catalogue_warnings where kind = 'referral_blocked' and (details->>'referredUserId')::int = any($1::int[])) as blocked`,
      [ids],
    )
  ).rows;
  const referred = world.users.filter((user) => user.referrerId !== null).length;
  const events = world.reversalEvents;
  const count = (kind: string) => events.filter((event) => event.record.event === kind).length;
  const transfers = world.deposits.filter((deposit) => deposit.channel === 'bank_transfer').length;
  const deposits = { paid: 0, failed: 0, abandoned: 0 };
  for (const deposit of world.deposits) if (deposit.channel === 'card') deposits[deposit.outcome === 'success' ? 'paid' : deposit.outcome] += 1;
  const surprises = [...world.tallies.surprises].sort((a, b) => b[1] - a[1]);
  const opsDone = [...world.tallies.ops]
    .sort((a, b) => b[1] - a[1])
    .map(([name, n]) => `${name} ${n}`)
    .join(', ');
  const line = [
    `seed ${world.seed}: ${steps} steps in ${seconds.toFixed(0)} s, drained in ${drainSyncs} syncs`,
    `${world.users.length} users, ${orders} orders (${statuses.map((row) => `${row.n} ${row.label}`).join(', ') || 'none'})`,
    `${deposits.paid} card deposits paid, ${deposits.failed} declined, ${deposits.abandoned} abandoned, ${transfers} bank transfers`,
    `reversals: ${count('refund.processed') + count('refund.completed')} refunds, ${count('charge.dispute.create') + count('chargeback.created')} disputes, ${count('charge.dispute.resolve') + count('chargeback.updated')} resolutions, ${formatNaira(BigInt(back.chargebacks))} taken back, ${formatNaira(BigInt(back.returned))} given back, ${formatNaira(BigInt(back.debt))} owed`,
    `referrals (${world.referral ? `${world.referral.enabled ? 'on' : 'off'}, ${world.referral.ratePercent}%, hold ${world.referral.holdDays} d, cap ${world.referral.capPerReferred ?? 'none'}` : 'not set'}; cards on ${world.provider}): ${referred} referred users, ${back.commissions} commissions (${back.released} released) of ${formatNaira(BigInt(back.earned))}, ${formatNaira(BigInt(back.reversed))} of them reversed, ${back.blocked} blocked`,
    `${truth.compared} closings matched what the panel delivered${truth.mixedUp ? ` (${truth.mixedUp} tied by the panel to another order's id)` : ''}`,
    `money: ${formatNaira(BigInt(money.paid))} deposited + ${formatNaira(BigInt(money.credited))} credited by admins, ${formatNaira(BigInt(money.charged))} charged, ${formatNaira(BigInt(money.refunded))} refunded`,
    `${world.tallies.dropped} database connections cut, ${world.tallies.aborted} requests hung up on, ${surprises.reduce((total, [, n]) => total + n, 0)} surprising answers`,
    `operations: ${opsDone}`,
  ].join('; ');
  return { seed: world.seed, steps, seconds, drainSyncs, line, surprises };
}

/** A broken invariant (or a broken simulator), with where it happened and how to replay it. */
export class SimulationFailure extends Error {
  constructor(
    readonly seed: number,
    readonly step: number | 'drain',
    readonly operation: string,
    readonly problems: string[],
    readonly steps: number,
  ) {
    const replay = `npm run simulate -- --seed ${seed} --steps ${step === 'drain' ? steps : step}`;
    super(
      [
        `The books broke at seed ${seed}, ${step === 'drain' ? `the drain after ${steps} steps` : `step ${step}`}: ${operation}`,
        ...problems.slice(0, 30).map((problem) => `  - ${problem}`),
        ...(problems.length > 30 ? [`  ... and ${problems.length - 30} more`] : []),
        `Replay: ${replay}`,
      ].join('\n'),
    );
    this.name = 'SimulationFailure';
  }
}
