// The simulator inside `npm test`: a bounded run (3 seeds × 150 steps) of `npm run simulate` on a
// stack of its own (the real Worker, real Postgres, the sandbox SMM panel rough). Any broken
// invariant fails the test with the simulator's report: the seed, the step, the operation, and the
// command that replays it (local/simulate.ts, local/simulate/invariants.ts).
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSimulation, type SimulationTarget, startSimulationStack } from '../../local/simulate/run';
import type { RunningStack } from '../../local/stack';

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
