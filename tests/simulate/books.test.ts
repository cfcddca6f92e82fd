// The simulator inside `npm test`: a bounded run (3 seeds × 150 steps) of `npm run simulate` on a
// stack of its own (the real Worker, real Postgres, the sandbox SMM panel rough, the sandbox Paystack
// and Flutterwave). Any broken invariant fails the test with the simulator's report: the seed, the
// step, the operation, and the command that replays it (local/simulate/main.ts, local/simulate/invariants.ts).
// Then, on the same stack, planted bugs the books must catch: a referral commission that was not taken
// back with the deposit that paid it, and then that deposit's refund not taken from its payer either.
import { afterAll, beforeAll, expect, it } from 'vitest';
import { checkBooks } from '../../local/simulate/invariants';
import { checkReconciliation } from '../../local/simulate/invariants-money';
import { deposit, signUp } from '../../local/simulate/ops-money';
import { setProvider, setReferralProgramme } from '../../local/simulate/ops-referrals';
import { deliverEveryReversal, refund } from '../../local/simulate/ops-reversals';
import { runSimulation, type SimulationTarget, scriptedSimulation, startSimulationStack } from '../../local/simulate/run';
import type { RunningStack } from '../../local/stack/stack';

const SEEDS = [1, 2, 3];
const STEPS = 150;
let stack: RunningStack;
let target: SimulationTarget;

beforeAll(async () => {
  ({ stack, target } = await startSimulationStack('simulate-test', 'ignore'));
});

afterAll(async () => {
  await stack?.stop();
});

it(`keeps the books through ${SEEDS.length} seeds × ${STEPS} random steps against the rough sandbox panel`, async () => {
  const lines: string[] = [];
  const { summaries, failures } = await runSimulation(target, { seeds: SEEDS, steps: STEPS, log: (line) => lines.push(line) });
  // One line per seed in the output, as `npm run simulate` prints them.
  console.log(lines.join('\n'));
  expect(failures.map((failure) => failure.message)).toEqual([]);
  expect(summaries).toHaveLength(SEEDS.length);
});

it('catches a planted bug: a referral commission not taken back when its deposit is refunded', async () => {
  await scriptedSimulation(target, 9_001, async (sim) => {
    expect((await setProvider(sim, 'paystack')).kind).toBe('answered');
    await setReferralProgramme(sim, { enabled: true, ratePercent: '5', holdDays: 0, capPerReferred: null });
    await signUp(sim, { deposit: false });
    const [referrer] = sim.world.users;
    await signUp(sim, { referrer, deposit: false });
    const friend = sim.world.users[1];
    await deposit(sim, { payer: friend, paid: true });
    // Released at once (no hold), then the deposit is refunded at Paystack and its webhook delivered.
    const { rows: earned } = await sim.pg.query(`select 1 from referral_commissions where referrer_id = $1 and released_at is not null`, [referrer.id]);
    expect(earned).toHaveLength(1);
    await refund(sim);
    expect(await deliverEveryReversal(sim)).toEqual([]);
    expect(await checkBooks(sim)).toEqual([]);

    // The bug, planted: the shop never took the referrer's commission back. Its move and ledger row go, the
    // balance keeps what they took, the commission records nothing reversed: the referrer's own ledger still adds up.
    const { rows: moves } = await sim.pg.query<{ id: string; ledger_ref: string; taken: string; debt: string }>(
      `select id::text, ledger_ref, taken_kobo::text as taken, debt_kobo::text as debt from payment_reversal_moves where party = 'referrer' and user_id = $1`,
      [referrer.id],
    );
    expect(moves.length).toBeGreaterThan(0);
    await sim.pg.query('begin');
    for (const move of moves) {
      await sim.pg.query(`delete from wallet_transactions where source_kind = 'commission_reversal' and source_ref = $1 and user_id = $2`, [
        move.ledger_ref,
        referrer.id,
      ]);
      await sim.pg.query(`delete from payment_reversal_moves where id = $1`, [move.id]);
      await sim.pg.query(`update wallets set balance_kobo = balance_kobo + $2::bigint, debt_kobo = debt_kobo - $3::bigint where user_id = $1`, [
        referrer.id,
        move.taken,
        move.debt,
      ]);
    }
    await sim.pg.query(`update referral_commissions set reversed_kobo = 0 where referrer_id = $1`, [referrer.id]);
    await sim.pg.query('commit');

    const problems = await checkBooks(sim);
    expect(problems.some((problem) => problem.startsWith('commission ') && problem.includes("the referrer's wallet holds"))).toBe(true);
    // The shop's own reconciliation sees it too: commission with nothing behind it.
    expect((await checkReconciliation(sim, false)).some((problem) => problem.includes('commission_not_backed'))).toBe(true);

    // And the payer's side, planted the same way: the refund never taken from the friend's wallet.
    const { rows: taken } = await sim.pg.query<{ id: string; intent_id: string; ledger_ref: string; taken: string; debt: string }>(
      `select id::text, intent_id::text, ledger_ref, taken_kobo::text as taken, debt_kobo::text as debt from payment_reversal_moves where party = 'payer' and user_id = $1`,
      [friend.id],
    );
    expect(taken.length).toBeGreaterThan(0);
    await sim.pg.query('begin');
    for (const move of taken) {
      await sim.pg.query(`delete from wallet_transactions where source_kind = 'chargeback' and source_ref = $1 and user_id = $2`, [move.ledger_ref, friend.id]);
      await sim.pg.query(`delete from payment_reversal_moves where id = $1`, [move.id]);
      await sim.pg.query(`update wallets set balance_kobo = balance_kobo + $2::bigint, debt_kobo = debt_kobo - $3::bigint where user_id = $1`, [
        friend.id,
        move.taken,
        move.debt,
      ]);
      await sim.pg.query(`update payment_intents set reversed_kobo = 0 where id = $1`, [move.intent_id]);
    }
    await sim.pg.query('commit');
    const payer = await checkBooks(sim);
    expect(payer.some((problem) => problem.startsWith('payment ') && problem.includes('the provider says the shop kept'))).toBe(true);
  });
});
