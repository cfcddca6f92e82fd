// `npm run simulate`: a simulator that proves the books. It starts a stack of its own (the real
// Worker in workerd, real Postgres, the sandbox fakes with the SMM panel in rough mode, no
// scheduled timer: the simulator fires the cron itself), then for each seed runs a random sequence
// of operations — sign-ups (through referral links too, and self-referral attempts), card deposits at the
// sandbox Paystack or Flutterwave, bank transfers, refunds and disputes with every resolution and their
// webhooks in any order, held referral commissions released, orders of every service type from /api/v1
// and /api/v2, syncs, refills, cancels, administrators' changes, the sandbox panel's own order webhooks (about
// half the seeds) sent again, late or replayed, database connections cut and clients hanging up — and checks the books with direct SQL after every step (local/simulate/invariants.ts and
// invariants-money.ts say what), then drains the seed (local/simulate/drain.ts) and asks the shop's own
// reconciliation. One line per seed; a broken invariant prints the seed,
// the step and the operation, and how to replay it, and the run exits non-zero.
//
//   npm run simulate                                  20 seeds (1..20) × 500 steps
//   npm run simulate -- --seed 7 --steps 120          one seed, to replay a failure
//   npm run simulate -- --seeds 2 --steps 100         seeds 1 and 2 (--from moves the first)
//   --verbose prints every step and the surprising answers; SIM_WRANGLER=1 shows wrangler's output.
import { parseArgs } from 'node:util';
import { runScript, StartupError } from '../stack/startup-error';
import { runSimulation, startSimulationStack } from './run';

function options() {
  const { values } = parseArgs({
    options: {
      seed: { type: 'string' },
      seeds: { type: 'string' },
      from: { type: 'string' },
      steps: { type: 'string' },
      'step-ms': { type: 'string' },
      verbose: { type: 'boolean' },
    },
  });
  const whole = (name: string, value: string | undefined, fallback: number) => {
    if (value === undefined) return fallback;
    if (!/^\d+$/.test(value) || Number(value) < 1) throw new StartupError(`--${name} takes a whole number of at least 1, not ${value}.`);
    return Number(value);
  };
  const from = whole('from', values.from, 1);
  const seeds = values.seed !== undefined ? [whole('seed', values.seed, 1)] : Array.from({ length: whole('seeds', values.seeds, 20) }, (_, i) => from + i);
  return { seeds, steps: whole('steps', values.steps, 500), stepMs: whole('step-ms', values['step-ms'], 1000), verbose: values.verbose ?? false };
}

async function main() {
  const { seeds, steps, stepMs, verbose } = options();
  console.log(`Starting a stack of its own (Postgres, sandbox providers with the SMM panel rough, the Worker) for ${seeds.length} seed(s) × ${steps} steps...`);
  const { stack, target } = await startSimulationStack('simulate', process.env.SIM_WRANGLER ? 'inherit' : 'ignore');
  const started = Date.now();
  // Ctrl-C stops the stack too (wrangler runs in a process group of its own).
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => {
      console.log(`\n${signal}: stopping the stack...`);
      void stack.stop().finally(() => process.exit(130));
    });
  }
  try {
    const { summaries, failures } = await runSimulation(target, { seeds, steps, stepMs, verbose, log: (line) => console.log(line) });
    const minutes = ((Date.now() - started) / 60_000).toFixed(1);
    console.log(`\n${summaries.length} of ${seeds.length} seed(s) kept the books in ${minutes} min.`);
    if (failures.length > 0) {
      console.log(`${failures.length} broke them: seeds ${failures.map((failure) => failure.seed).join(', ')} (the report of each is above).`);
      process.exitCode = 1;
    }
  } finally {
    await stack.stop();
  }
}

runScript(main);
