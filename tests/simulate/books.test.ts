// The simulator inside `npm test`: a bounded run (3 seeds × 150 steps) of `npm run simulate` on a
// stack of its own (the real Worker, real Postgres, the sandbox SMM panel rough). Any broken
// invariant fails the test with the simulator's report: the seed, the step, the operation, and the
// command that replays it (local/simulate.ts, local/simulate/invariants.ts).
import { randomBytes } from 'node:crypto';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { runSimulation } from '../../local/simulate/run';
import { type RunningStack, startThrowawayStack } from '../../local/stack';

const SEEDS = [1, 2, 3];
const STEPS = 150;
const admin = { email: 'sim-admin@example.com', password: randomBytes(18).toString('base64url') };
let stack: RunningStack;

beforeAll(async () => {
  stack = await startThrowawayStack('simulate-test', { admin, wranglerOutput: 'ignore', smmMode: 'rough', scheduledJobs: false, spa: false });
});

afterAll(async () => {
  await stack?.stop();
});

it(`keeps the books through ${SEEDS.length} seeds × ${STEPS} random steps against the rough sandbox panel`, async () => {
  const lines: string[] = [];
  const { summaries, failures } = await runSimulation(
    {
      url: stack.url,
      paystackUrl: stack.fakes.paystackUrl,
      smmProviderUrl: stack.fakes.smmProviderUrl,
      dropDatabaseConnections: stack.dropDatabaseConnections,
      databaseUrl: stack.databaseUrl,
      admin,
    },
    { seeds: SEEDS, steps: STEPS, log: (line) => lines.push(line) },
  );
  // One line per seed in the output, as `npm run simulate` prints them.
  console.log(lines.join('\n'));
  expect(failures.map((failure) => failure.message)).toEqual([]);
  expect(summaries).toHaveLength(SEEDS.length);
});
