// What happens around the customers: the cron's sync (sometimes overlapping an administrator's sync
// on demand), time passing (an hour of it for the hourly reconciliation), an administrator's full check, the panel failing as a whole
// for a while, database connections cut in the middle of another operation, and clients hanging up on
// their own requests.
import { scheduledUrl } from '../stack/cron';
import { call, said } from './http';
import { control, expect, type Sim, sleep, tally } from './world';

/** The cron trigger, as the local stack fires it; resolves when its jobs are done. */
export function runCron(sim: Sim, abortAfterMs?: number) {
  return call(scheduledUrl(sim.stack.url), { abortAfterMs, timeoutMs: 180_000 });
}

export async function sync(sim: Sim): Promise<string> {
  const { rng } = sim;
  const both = rng.chance(0.2);
  tally(sim, both ? 'sync (cron and admin at once)' : 'sync');
  const hangUp = sim.world.hangUpAfterMs ?? undefined;
  sim.world.hangUpAfterMs = null;
  const answers = await Promise.all([runCron(sim, hangUp), ...(both ? [sim.admin.api('admin/orders/sync', { method: 'POST' })] : [])]);
  expect(sim, 'cron', answers[0], [200]);
  if (answers[1]) expect(sim, 'POST admin/orders/sync', answers[1], [200]);
  return `sync${both ? ' + admin sync' : ''}: ${answers.map(said).join(', ')}`;
}

export async function wait(sim: Sim): Promise<string> {
  tally(sim, 'time passes');
  const ms = sim.rng.int(200, 2500);
  await sleep(ms);
  return `${ms} ms pass`;
}

/**
 * An hour passes for the hourly reconciliation (its claim is made 61 minutes old; nothing else ages) and the cron fires,
 * sometimes twice at once. The hour is claimed and its run records a report (that two at once run it once is the worker
 * tests'), and however many runs found the books not clean, one warning of it at most stands unread.
 */
export async function reconciliationHour(sim: Sim): Promise<string> {
  const lastRun = async () =>
    (
      await sim.pg.query<{ startedAt: string | null; checkedAt: string | null; ok: boolean | null; fresh: boolean }>(
        `select value->>'startedAt' as "startedAt", value->>'checkedAt' as "checkedAt", (value->>'ok')::boolean as ok,
                updated_at > now() - interval '1 hour' as fresh
         from settings where key = 'reconciliation'`,
      )
    ).rows[0];
  await sim.pg.query(`update settings set updated_at = now() - interval '61 minutes' where key = 'reconciliation'`);
  const before = await lastRun();
  const twice = sim.rng.chance(0.4);
  tally(sim, twice ? 'an hour passes (two crons at once)' : 'an hour passes');
  const answers = await Promise.all([runCron(sim), ...(twice ? [runCron(sim)] : [])]);
  for (const answer of answers) expect(sim, 'cron', answer, [200]);
  const after = await lastRun();
  const problems: string[] = [];
  if (!after?.fresh || !after.startedAt || after.startedAt === before?.startedAt) problems.push('no run claimed the hour');
  else if (!after.checkedAt || Date.parse(after.checkedAt) < Date.parse(after.startedAt)) problems.push(`the run of ${after.startedAt} recorded no report`);
  const { rows } = await sim.pg.query<{ unread: number }>(
    `select count(*)::int as unread from catalogue_warnings where kind = 'reconciliation' and acknowledged_at is null`,
  );
  if (rows[0].unread > 1) problems.push(`${rows[0].unread} unread warnings of the reconciliation`);
  if (problems.length > 0) throw new Error(`the hourly reconciliation: ${problems.join('; ')}`);
  return `an hour passes, ${answers.length} cron${twice ? 's at once' : ''}: the hourly reconciliation ran, ${after?.ok ? 'clean' : 'not clean'}`;
}

/** How long the full check may take on the simulator's small shop before it counts as stuck. */
const FULL_CHECK_WAIT_MS = 60_000;

/**
 * An administrator checks everything, sometimes two at once: the full reconciliation on the admin-jobs queue. Two
 * starts at once answer the same run; the run ends done with a report of every row, or failed with why (a connection
 * cut under it); it is never left under way. Whether the books are clean is the drain's check: they may be mid-step here.
 */
export async function fullCheck(sim: Sim): Promise<string> {
  const twice = sim.rng.chance(0.4);
  tally(sim, twice ? 'full check (two administrators at once)' : 'full check');
  const start = () => sim.admin.api('admin/reconciliation/full', { method: 'POST' });
  const starts = await Promise.all([start(), ...(twice ? [start()] : [])]);
  const started = starts.filter(
    (answer) => expect(sim, 'POST admin/reconciliation/full', answer, [202]) && answer.kind === 'answered' && answer.status === 202,
  );
  if (started.length === 0) return 'full check: not started';
  const runs = new Set(started.map((answer) => (answer.kind === 'answered' ? String(answer.body?.data?.requestedAt) : '')));
  const problems: string[] = [];
  if (runs.size > 1) problems.push(`two starts at once made ${runs.size} runs`);
  const deadline = Date.now() + FULL_CHECK_WAIT_MS;
  let run: { state?: string; requestedAt?: string; error?: string | null; report?: { scope?: string } | null } | undefined;
  while (Date.now() < deadline) {
    const answer = await sim.admin.api('admin/reconciliation/full');
    if (answer.kind === 'answered' && answer.status === 200) {
      run = answer.body?.data ?? undefined;
      if (run?.state === 'done' || run?.state === 'failed') break;
    }
    await sleep(250);
  }
  if (!run || (run.state !== 'done' && run.state !== 'failed')) problems.push(`still ${run?.state ?? 'unread'} after ${FULL_CHECK_WAIT_MS / 1000} s`);
  else if (run.state === 'failed' && !run.error) problems.push('failed without saying why');
  else if (run.state === 'done' && run.report?.scope !== 'full') problems.push(`done with a report of scope ${run.report?.scope}`);
  if (problems.length > 0) throw new Error(`the full check: ${problems.join('; ')}`);
  return `full check${twice ? ' (two at once)' : ''}: ${run?.state}`;
}

const PANEL_MODES = ['no_balance', 'fail', 'garbage', 'active_order'] as const;

/** The whole panel refuses or breaks for a few steps: out of funds, down, answering garbage, refusing links. */
export async function panelTrouble(sim: Sim): Promise<string> {
  const { rng, world } = sim;
  const mode = rng.pick(PANEL_MODES);
  const steps = rng.int(3, 15);
  tally(sim, `panel ${mode}`);
  await control(sim.stack.smmProviderUrl, { mode });
  world.panelModeUntil = world.step + steps;
  return `the panel turns ${mode} for ${steps} steps`;
}

/** Ends a panel mode panelTrouble started, once its steps are over. */
export async function panelRecovers(sim: Sim, force = false): Promise<void> {
  if (sim.world.panelModeUntil === null || (!force && sim.world.step < sim.world.panelModeUntil)) return;
  await control(sim.stack.smmProviderUrl, { mode: 'normal' });
  sim.world.panelModeUntil = null;
}

/**
 * Runs another operation and cuts every database connection a moment after it starts: at the first
 * chance after that moment, since the Worker opens its connections per request and closes them after.
 */
export async function withDroppedConnections(sim: Sim, run: () => Promise<string>): Promise<string> {
  const { rng, world, stack } = sim;
  tally(sim, 'database connections cut');
  const afterMs = rng.int(0, 80);
  world.dropping = true;
  let finished = false;
  let cut = 0;
  const cutter = (async () => {
    await sleep(afterMs);
    while (!finished && cut === 0) {
      cut = stack.dropDatabaseConnections();
      if (cut === 0) await sleep(2);
    }
    world.tallies.dropped += cut;
  })();
  try {
    const done = await run();
    return `${done} [${cut} database connections cut ${afterMs} ms or more after it started]`;
  } finally {
    finished = true;
    await cutter;
    // Requests still in flight (the queue's consumer, a late webhook) may yet fail: that is theirs to survive.
    world.dropping = false;
  }
}

/** Runs another operation whose main request the client hangs up on after a moment. */
export async function withHangUp(sim: Sim, run: () => Promise<string>): Promise<string> {
  const afterMs = sim.rng.int(0, 250);
  tally(sim, 'client hangs up');
  sim.world.hangUpAfterMs = afterMs;
  try {
    return `${await run()} [hung up after ${afterMs} ms]`;
  } finally {
    sim.world.hangUpAfterMs = null;
  }
}
