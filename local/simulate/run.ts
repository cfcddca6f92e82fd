// Runs seeds against a running stack: for each, a fresh random sequence of steps with the books
// checked after every one, then the drain and a last check of the whole shop. `npm run simulate`
// (local/simulate/main.ts) and the bounded run inside `npm test` (tests/simulate/) both call this.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { type RunningStack, startThrowawayStack } from '../stack/stack';
import { readServices, type SimService } from './catalogue';
import { drain } from './drain';
import { callsInFlight, Session } from './http';
import { checkBooks } from './invariants';
import { checkReconciliation } from './invariants-money';
import { chooseStep } from './ops';
import { panelRecovers } from './ops-chaos';
import { setUpPanelWebhooks } from './ops-panel-webhooks';
import { setUpSeed } from './ops-referrals';
import { Random } from './prng';
import { checkAgainstPanel, checkAgainstPaymentProviders } from './provider-truth';
import { type SeedSummary, SimulationFailure, summarize } from './report';
import { control, newWorld, type Sim, type SimStack } from './world';

export interface SimulationTarget extends SimStack {
  databaseUrl: string;
  admin: { email: string; password: string };
}

export interface SimulationOptions {
  seeds: readonly number[];
  steps: number;
  /** Milliseconds per progress step of the sandbox panel's orders (an order takes three). */
  stepMs?: number;
  /** Every step's line, not only each seed's. */
  verbose?: boolean;
  log?: (line: string) => void;
}

export interface SimulationResult {
  summaries: SeedSummary[];
  failures: SimulationFailure[];
}

/**
 * A throwaway stack to simulate against (the SMM panel rough, no scheduled timer: the simulator
 * fires the cron itself, no SPA), with an administrator of its own, and the target a run is given.
 */
export async function startSimulationStack(name: string, workerOutput: 'inherit' | 'ignore'): Promise<{ stack: RunningStack; target: SimulationTarget }> {
  const admin = { email: 'sim-admin@example.com', password: randomBytes(18).toString('base64url') };
  const stack = await startThrowawayStack(name, { admin, workerOutput, smmMode: 'rough', scheduledJobs: false, spa: false });
  const { url, fakes, dropDatabaseConnections, databaseUrl } = stack;
  return {
    stack,
    target: {
      url,
      paystackUrl: fakes.paystackUrl,
      flutterwaveUrl: fakes.flutterwaveUrl,
      smmProviderUrl: fakes.smmProviderUrl,
      mailboxUrl: fakes.mailboxUrl,
      dropDatabaseConnections,
      databaseUrl,
      admin,
    },
  };
}

/** The provider's timeout while simulating: a panel that swallows `add` costs seconds, not the default 15. */
const PROVIDER_TIMEOUT_MS = 5_000;
const DEFAULT_STEP_MS = 1_000;

interface Shared {
  target: SimulationTarget;
  pg: pg.Client;
  admin: Session;
  services: SimService[];
  /** Unique to this run: links and keys never repeat across runs against the same sandbox panel. */
  runTag: string;
  options: SimulationOptions;
  /** Seeds of this run that broke the books so far (their leftovers may show in the shop-wide reconciliation). */
  failures: number;
}

async function prepare(target: SimulationTarget, client: pg.Client, admin: Session): Promise<SimService[]> {
  await admin.signIn();
  const providers = await admin.api('admin/providers');
  if (providers.kind !== 'answered' || providers.status !== 200) throw new Error('could not list the providers');
  for (const provider of providers.body.data as Array<{ id: number }>) {
    const updated = await admin.api(`admin/providers/${provider.id}`, { method: 'PUT', body: { timeoutMs: PROVIDER_TIMEOUT_MS } });
    if (updated.kind !== 'answered' || updated.status !== 200) throw new Error(`could not set provider ${provider.id}'s timeout`);
  }
  // The panel never runs dry on its own; the simulator switches no_balance on when it wants it.
  await control(target.smmProviderUrl, { balance: '100000000.00' });
  return readServices(client);
}

/** A step that takes longer than this is stuck (the slowest calls time out well before). */
const STEP_LIMIT_MS = 5 * 60_000;
const STEP_SLOW_MS = 60_000;

/** The step's outcome, or an error once it has run STEP_LIMIT_MS; says so each minute it runs long. */
async function withinLimit<T>(work: Promise<T>, name: string, slow: (ms: number) => void): Promise<T> {
  let elapsed = 0;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<never>((_, reject) => {
    const tick = () => {
      elapsed += STEP_SLOW_MS;
      if (elapsed >= STEP_LIMIT_MS) return reject(new Error(`${name} did not finish within ${STEP_LIMIT_MS / 60_000} minutes`));
      slow(elapsed);
      timer = setTimeout(tick, STEP_SLOW_MS);
    };
    timer = setTimeout(tick, STEP_SLOW_MS);
  });
  try {
    return await Promise.race([work, limit]);
  } finally {
    clearTimeout(timer);
  }
}

async function runSeed(shared: Shared, seed: number): Promise<SeedSummary> {
  const { target, options } = shared;
  const started = Date.now();
  const rng = new Random(seed);
  const sim: Sim = {
    stack: target,
    rng,
    pg: shared.pg,
    admin: shared.admin,
    world: newWorld(seed, `${seed}.${shared.runTag}`),
    verbose: options.verbose ?? false,
  };
  const stepMs = options.stepMs ?? DEFAULT_STEP_MS;
  await control(target.smmProviderUrl, { preset: 'rough', seed: rng.fork(), stepMs, mode: 'normal' });
  await control(target.paystackUrl, { webhookMode: 'normal' });
  // About half the seeds follow the panel by its webhooks as well as by polling.
  await setUpPanelWebhooks(sim, rng.chance(0.5));
  await setUpSeed(sim);
  for (let step = 1; step <= options.steps; step += 1) {
    sim.world.step = step;
    await panelRecovers(sim);
    const { name, run } = chooseStep(sim, shared.services);
    let done: string;
    try {
      done = await withinLimit(run(), name, (late) =>
        options.log?.(`  seed ${seed} step ${step}: ${name} still running after ${late / 1000} s (calls in flight: ${callsInFlight().join(', ') || 'none'})`),
      );
    } catch (error) {
      throw new SimulationFailure(
        seed,
        step,
        name,
        [`the operation itself failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`],
        options.steps,
      );
    }
    if (sim.verbose) options.log?.(`  seed ${seed} step ${step}: ${done}`);
    const problems = await checkBooks(sim);
    if (problems.length > 0) throw new SimulationFailure(seed, step, done, problems, options.steps);
  }
  const drained = await drain(sim, { stepMs, providerTimeoutMs: PROVIDER_TIMEOUT_MS });
  if (drained.problems.length > 0) throw new SimulationFailure(seed, 'drain', `drain, sync ${drained.syncs}`, drained.problems, options.steps);
  const problems = await checkBooks(sim, { final: true });
  if (problems.length > 0) throw new SimulationFailure(seed, 'drain', 'the last check of the whole shop', problems, options.steps);
  const truth = await checkAgainstPanel(sim);
  if (truth.problems.length > 0) throw new SimulationFailure(seed, 'drain', 'closed orders against what the panel delivered', truth.problems, options.steps);
  const payments = await checkAgainstPaymentProviders(sim);
  if (payments.length > 0) throw new SimulationFailure(seed, 'drain', 'refunds and disputes against the payment providers’ own logs', payments, options.steps);
  const reconciled = await checkReconciliation(sim, shared.failures === 0);
  if (reconciled.length > 0) throw new SimulationFailure(seed, 'drain', 'the shop’s own reconciliation (GET admin/reconciliation)', reconciled, options.steps);
  return summarize(sim, options.steps, (Date.now() - started) / 1000, drained.syncs, truth);
}

/**
 * A scripted run instead of a random one (tests/simulate/): `script` drives the simulator's operations
 * itself with a seed's world, the database connection and the administrator, and checks the books when it likes.
 */
export async function scriptedSimulation<T>(target: SimulationTarget, seed: number, script: (sim: Sim) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: target.databaseUrl });
  client.on('error', () => {});
  await client.connect();
  try {
    const admin = new Session(target.url, target.admin.email, target.admin.password, '10.255.255.1');
    await admin.signIn();
    const sim: Sim = { stack: target, rng: new Random(seed), pg: client, admin, world: newWorld(seed, `${seed}.${Date.now().toString(36)}`), verbose: false };
    return await script(sim);
  } finally {
    await client.end();
  }
}

/** Runs every seed in turn; a seed that breaks the books is reported and the next one runs. */
export async function runSimulation(target: SimulationTarget, options: SimulationOptions): Promise<SimulationResult> {
  const client = new pg.Client({ connectionString: target.databaseUrl });
  // Postgres going away (the stack stopping under Ctrl-C) fails the query in flight; it must not crash the process.
  client.on('error', () => {});
  await client.connect();
  const admin = new Session(target.url, target.admin.email, target.admin.password, '10.255.255.1');
  const result: SimulationResult = { summaries: [], failures: [] };
  try {
    const services = await prepare(target, client, admin);
    const shared: Shared = { target, pg: client, admin, services, runTag: Date.now().toString(36), options, failures: 0 };
    for (const seed of options.seeds) {
      try {
        const summary = await runSeed(shared, seed);
        result.summaries.push(summary);
        options.log?.(summary.line);
        if (options.verbose) for (const [surprise, n] of summary.surprises) options.log?.(`    ${n}× ${surprise}`);
      } catch (error) {
        if (!(error instanceof SimulationFailure)) throw error;
        result.failures.push(error);
        shared.failures += 1;
        options.log?.(error.message);
        // The next seed starts from a panel and a checkout behaving normally again.
        await control(target.smmProviderUrl, { mode: 'normal' }).catch(() => {});
        await control(target.paystackUrl, { webhookMode: 'normal' }).catch(() => {});
      }
    }
  } finally {
    await client.end();
  }
  return result;
}
