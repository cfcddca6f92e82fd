// `npm run bench:scale`: every screen's reads and the cron's jobs, through the real Worker, on a small shop and on a
// year of a busy one, in the same run (issue 30).
//
// 1. A throwaway stack as `npm run bench` starts it (embedded Postgres, the sandboxes, the Worker; no SPA, no
//    timer cron), BENCH_DB_LATENCY_MS (default 25) added each way on the Worker's database link.
// 2. The administrator and two users through the API (real sessions), then a small batch straight in Postgres
//    (seed.ts: 2% of SCALE_FACTOR's volume); the books checked in full on the admin-jobs queue, which must say ok
//    (full-check.ts); every call measured (calls.ts, measure.ts), then one
//    run of the scheduled jobs through the Worker's scheduled handler (/__scheduled, as local/stack/cron.ts does).
// 3. The top-up to full volume (SCALE_FACTOR 1: 2,000,000 orders, 200,000 users, 5,000,000 ledger rows, 300,000
//    payments, 20,000 services across 5 providers, 50,000 tickets, 1,000,000 notifications), set-based SQL.
// 4. The same check, calls and cron run again; EXPLAIN (ANALYZE, BUFFERS) of the hot statements (explain.ts).
// Writes bench-results/scale.json and prints a table. Knobs: SCALE_FACTOR (default 1; 0.02 for a quick run),
// SCALE_CALLS (parts of call names, as BENCH_CALLS; "cron" for the jobs), SCALE_SECONDS (3) and SCALE_CONNECTIONS (4)
// per call, SCALE_CRON_TIMEOUT_S (600) for one cron run (and for the full check on the queue), SCALE_EXPLAIN=0 to skip the plans.
import { randomBytes } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { root, startThrowawayStack } from '../../stack/stack';
import { runScript } from '../../stack/startup-error';
import { settledPayment } from '../prepare';
import { callApi, signUp } from '../shop-client';
import { printTable } from '../table';
import { lookUpIds, type PhaseIds, type ScaleCall, scaleCalls, type Who } from './calls';
import { type CronResult, runCron } from './cron';
import { type CallPlans, explainCalls } from './explain';
import { writtenExport } from './exports';
import { findingsSummary, fullCheck } from './full-check';
import { CONNECTIONS, type Measured, measureCall, SECONDS } from './measure';
import { countVolume, type SeedResult, seedBatch, volumeAt } from './seed';
import { CRON_TIMEOUT_S, callFilter, latency, scaleFactor } from './settings';

/** Card deposits paid in the sandbox after each seed: the reconciliation re-asks the provider about the newest 20. */
const REAL_DEPOSITS = 20;
/** The small phase's share of the full volume. */
const SMALL_SHARE = 0.02;

let ipCounter = 0;
/** Sign-ins are limited per address: each one here comes from an address of its own. */
const nextIp = () => `10.${(process.pid >> 8) & 255}.${(++ipCounter >> 8) & 255}.${ipCounter & 255}`;

/** An access token that is renewed (signed in again) before its 15 minutes are up. */
class Session {
  private token = '';
  private at = 0;
  constructor(
    private readonly url: string,
    private readonly email: string,
    private readonly password: string,
  ) {}
  async headers(): Promise<Record<string, string>> {
    if (!this.token || Date.now() - this.at > 10 * 60_000) {
      const signedIn = await callApi<{ accessToken: string }>(this.url, 'POST', 'auth/login', {
        ip: nextIp(),
        body: { email: this.email, password: this.password },
      });
      this.token = signedIn.accessToken;
      this.at = Date.now();
    }
    return { authorization: `Bearer ${this.token}` };
  }
}

interface PhaseResult {
  ids: PhaseIds;
  volume: Record<string, number>;
  seed: SeedResult;
  calls: Map<string, Measured & { path: string; who: Who }>;
  cron: CronResult | null;
  reconciliationOk: boolean | null;
  seconds: number;
}

const fmt = (value: number | null | undefined) => (value === null || value === undefined ? '-' : value.toFixed(value < 10 ? 1 : 0));

async function main() {
  const runStarted = performance.now();
  const factor = scaleFactor();
  const latencyMs = latency();
  const wanted = callFilter();
  const explain = process.env.SCALE_EXPLAIN !== '0';
  const admin = { email: 'scale-admin@example.com', password: randomBytes(18).toString('base64url') };
  const userPassword = randomBytes(12).toString('base64url');
  const smallVolume = volumeAt(factor * SMALL_SHARE);
  const topUp = volumeAt(factor * (1 - SMALL_SHARE));
  console.log(`SCALE_FACTOR ${factor}: small phase ${smallVolume.orders} orders, then ${topUp.orders} more; ${latencyMs} ms each way on the database link.`);
  console.log('Starting a stack of its own (Postgres, sandbox providers, the Worker; no SPA, no timer cron)...');
  const stack = await startThrowawayStack('scale', {
    admin,
    workerOutput: 'ignore',
    countDatabaseStatements: true,
    databaseLatencyMs: latencyMs,
    scheduledJobs: false,
    spa: false,
  });
  const timings: Record<string, number> = { stackSeconds: (performance.now() - runStarted) / 1000 };
  try {
    const adminSession = new Session(stack.url, admin.email, admin.password);
    await adminSession.headers();
    // Real users through the API; their password hash is every seeded user's, so the bench can sign in as any of them.
    const email = `scale-${process.pid}-0@example.com`;
    await signUp(stack.url, { fullName: 'Scale Real User', email, password: userPassword, ip: nextIp() });
    const db = new pg.Client({ connectionString: stack.databaseUrl });
    await db.connect();
    const { rows } = await db.query<{ password_hash: string; admin_id: number }>(
      `select u.password_hash, (select id from users where email = $2) as admin_id from users u where u.email = $1`,
      [email, admin.email],
    );
    await db.end();
    const { password_hash: passwordHash, admin_id: adminId } = rows[0];

    let explained: CallPlans[] = [];
    const live: { small?: PhaseResult; large?: PhaseResult } = {};
    /** The report so far, written to bench-results/scale.json after every step (complete: false until the end). */
    const save = (complete: boolean) => {
      const small = live.small;
      const large = live.large;
      const names = [...new Set([...(small?.calls.keys() ?? []), ...(large?.calls.keys() ?? [])])];
      const calls = names.map((name) => {
        const s = small?.calls.get(name);
        const l = large?.calls.get(name);
        const ratio = s && l && s.p50 > 0 ? l.p50 / s.p50 : null;
        const plans = explained.find((p) => p.name === name);
        return {
          name,
          path: l?.path ?? s?.path ?? '',
          as: l?.who ?? s?.who ?? 'public',
          smallP50Ms: s ? Number(s.p50.toFixed(1)) : null,
          largeP50Ms: l ? Number(l.p50.toFixed(1)) : null,
          ratio: ratio === null ? null : Number(ratio.toFixed(2)),
          smallP99Ms: s ? Number(s.p99.toFixed(1)) : null,
          largeP99Ms: l ? Number(l.p99.toFixed(1)) : null,
          dbRoundTrips: l?.roundTrips ?? s?.roundTrips ?? null,
          smallDbRoundTrips: s?.roundTrips ?? null,
          statements: l?.statements ?? null,
          answerBytes: { small: s?.bytes ?? null, large: l?.bytes ?? null },
          mode: { small: s?.mode ?? null, large: l?.mode ?? null },
          requests: { small: s?.requests ?? 0, large: l?.requests ?? 0 },
          failures: (s?.failures ?? 0) + (l?.failures ?? 0),
          errors: [s?.error, l?.error].filter(Boolean),
          slowestStatementMs: plans?.statements[0]?.executionMs ?? null,
          planFindings: [...new Set(plans?.statements.flatMap((st) => st.findings) ?? [])],
        };
      });
      const report = {
        at: new Date().toISOString(),
        complete,
        scaleFactor: factor,
        dbLatencyMs: latencyMs,
        machine: { cpus: os.cpus().length, node: process.version, platform: `${os.platform()} ${os.arch()}` },
        settings: { connections: CONNECTIONS, secondsPerCall: SECONDS, smallShare: SMALL_SHARE, cronTimeoutSeconds: CRON_TIMEOUT_S },
        volume: large?.volume ?? null,
        smallVolume: small?.volume ?? null,
        seed: {
          small: small ? { seconds: Number(small.seed.seconds.toFixed(1)), books: small.seed.books, steps: small.seed.steps } : null,
          large: large ? { seconds: Number(large.seed.seconds.toFixed(1)), books: large.seed.books, steps: large.seed.steps } : null,
        },
        users: {
          small: small ? { heavy: small.ids.heavyUserId, light: small.ids.lightUserId } : null,
          large: large ? { heavy: large.ids.heavyUserId, light: large.ids.lightUserId } : null,
        },
        reconciliationOk: { small: small?.reconciliationOk ?? null, large: large?.reconciliationOk ?? null },
        calls,
        cron: {
          small: small?.cron ?? null,
          large: large?.cron ?? null,
          ratio: small?.cron && large?.cron ? Number((large.cron.ms / small.cron.ms).toFixed(2)) : null,
        },
        timings: Object.fromEntries(Object.entries(timings).map(([key, value]) => [key, Number(value.toFixed(1))])),
        explain: explained,
      };
      mkdirSync(path.join(root, 'bench-results'), { recursive: true });
      writeFileSync(path.join(root, 'bench-results', 'scale.json'), `${JSON.stringify(report, null, 2)}\n`);
      return report;
    };

    const phase = async (label: 'small' | 'large', batch: number, volume: ReturnType<typeof volumeAt>, explainToo: boolean): Promise<PhaseResult> => {
      const phaseStarted = performance.now();
      console.log(`\n[${label}] seeding batch ${batch}: ${volume.orders} orders, ${volume.users} users, ${volume.ledgerRows} ledger rows...`);
      const seed = await seedBatch(stack.databaseUrl, {
        batch,
        volume,
        passwordHash,
        adminId,
        rebuildIndexes: volume.orders >= 200_000,
        log: (line) => console.log(line),
      });
      console.log(`[${label}] seeded in ${seed.seconds.toFixed(1)} s`);
      // The newest credited deposits, which the reconciliation asks the provider about again, paid for real in the sandbox.
      const realUser = new Session(stack.url, email, userPassword);
      for (let i = 0; i < REAL_DEPOSITS; i++) await settledPayment(stack, (await realUser.headers()).authorization.slice(7));
      console.log(`[${label}] ${REAL_DEPOSITS} card deposits paid in the sandbox Paystack through the API`);
      timings[`${label}SeedSeconds`] = seed.seconds;
      const volumeNow = await countVolume(stack.databaseUrl);
      const ids = await lookUpIds(stack.databaseUrl, seed.heavyUserId, seed.lightUserId);
      const emailOf = async (id: number) => {
        const client = new pg.Client({ connectionString: stack.databaseUrl });
        await client.connect();
        const { rows } = await client.query<{ email: string }>(`select email from users where id = $1`, [id]);
        await client.end();
        return rows[0].email;
      };
      const sessions: Record<Who, Session | null> = {
        public: null,
        admin: adminSession,
        heavy: new Session(stack.url, await emailOf(ids.heavyUserId), userPassword),
        light: new Session(stack.url, await emailOf(ids.lightUserId), userPassword),
      };
      const result: PhaseResult = { ids, volume: volumeNow, seed, calls: new Map(), cron: null, reconciliationOk: null, seconds: 0 };
      live[label] = result;
      save(false);
      const headersOf = async (who: Who) => (sessions[who] ? await (sessions[who] as Session).headers() : {});
      const results = result.calls;
      // The isolate's caches (settings, the catalogue snapshot) and every session, before the first counted request.
      for (const warm of [
        { who: 'public' as Who, path: '/api/v1/services?limit=1' },
        { who: 'heavy' as Who, path: '/api/v1/user/getCurrentProfile' },
        { who: 'light' as Who, path: '/api/v1/user/getCurrentProfile' },
        { who: 'admin' as Who, path: '/api/v1/admin/providers' },
      ])
        await fetch(`${stack.url}${warm.path}`, { headers: await headersOf(warm.who) }).then((response) => response.arrayBuffer());
      let reconciliationOk: boolean | null = null;
      const reconciliationStarted = performance.now();
      try {
        const { run, jobSeconds } = await fullCheck(stack.url, (await adminSession.headers()).authorization.slice(7), CRON_TIMEOUT_S * 1000);
        reconciliationOk = run.state === 'done' && run.report?.ok === true;
        if (run.state === 'failed') console.log(`[${label}] reconciliation failed on the queue: ${run.error}`);
        else if (run.report && !run.report.ok) console.log(`[${label}] reconciliation findings: ${findingsSummary(run.report)}`);
        if (jobSeconds !== null) console.log(`[${label}] the full reconciliation ran ${jobSeconds.toFixed(1)} s on the admin-jobs queue`);
      } catch (error) {
        console.log(`[${label}] reconciliation failed: ${String(error).slice(0, 200)}`);
      }
      console.log(`[${label}] reconciliation: ${reconciliationOk ? 'ok' : 'NOT OK'} (${((performance.now() - reconciliationStarted) / 1000).toFixed(1)} s)`);
      result.reconciliationOk = reconciliationOk;
      save(false);
      // Written only for a run that measures one of the export's calls (any id will do to name them).
      const exportCalls = scaleCalls({ ...ids, exportIds: { all: 0, byUser: 0 } }).filter((call) => call.path.includes('/transactions/exports/'));
      if (exportCalls.some((call) => wanted(call.name))) {
        const token = (await adminSession.headers()).authorization.slice(7);
        const all = await writtenExport(stack.url, token, {}, CRON_TIMEOUT_S * 1000);
        const byUser = await writtenExport(stack.url, token, { userId: ids.heavyUserId }, CRON_TIMEOUT_S * 1000);
        console.log(
          `[${label}] the ledger exports ran on the admin-jobs queue: ${all.rows} rows in ${all.seconds.toFixed(1)} s, the heavy reseller's ${byUser.rows} in ${byUser.seconds.toFixed(1)} s`,
        );
        ids.exportIds = { all: all.id, byUser: byUser.id };
      }
      const calls = scaleCalls(ids).filter((call) => wanted(call.name));
      const callsStarted = performance.now();
      for (const call of calls) {
        const measured = await measureCall(stack, call.path, await headersOf(call.who));
        results.set(call.name, { ...measured, path: call.path, who: call.who });
        save(false);
        console.log(
          `[${label}] ${call.name}: p50 ${fmt(measured.p50)} ms, ${measured.roundTrips} round trips${measured.failures ? `, ${measured.failures} FAILED ${measured.error ?? ''}` : ''}`,
        );
      }
      timings[`${label}CallsSeconds`] = (performance.now() - callsStarted) / 1000;
      let plans: CallPlans[] = [];
      if (explainToo) {
        const explainStarted = performance.now();
        console.log(`[${label}] EXPLAIN (ANALYZE, BUFFERS) of the hot statements...`);
        plans = await explainCalls(
          stack,
          calls.filter((call: ScaleCall) => call.explain).map((call) => ({ name: call.name, path: call.path, headers: () => headersOf(call.who) })),
          (line) => console.log(line),
        );
        timings.explainSeconds = (performance.now() - explainStarted) / 1000;
        explained = plans;
        save(false);
      }
      if (wanted('cron')) {
        console.log(`[${label}] one run of the scheduled jobs...`);
        const cron = await runCron(stack);
        result.cron = cron;
        console.log(
          `[${label}] cron: ${fmt(cron.ms)} ms${cron.finished ? '' : ' (NOT FINISHED, still running)'}, ${cron.roundTrips} round trips; synced ${cron.after.openOrdersSyncedInRun} of ${cron.before.openOrders} open orders, ${cron.after.servicesUpdatedInRun} of ${cron.before.services} services updated`,
        );
      }
      result.seconds = (performance.now() - phaseStarted) / 1000;
      save(false);
      return result;
    };

    const small = await phase('small', 1, smallVolume, false);
    const large = await phase('large', 2, topUp, explain);
    timings.totalSeconds = (performance.now() - runStarted) / 1000;
    const report = save(true);
    const calls = report.calls;

    console.log(
      `\nSCALE_FACTOR ${factor}: ${large.volume.orders} orders, ${large.volume.users} users, ${large.volume.ledgerRows} ledger rows, ${large.volume.payments} payments, ${large.volume.services} services, ${large.volume.tickets} tickets, ${large.volume.notifications} notifications (small phase: ${small.volume.orders} orders); ${CONNECTIONS} connections, ${SECONDS} s per call; ${latencyMs} ms each way on the database link; ${os.cpus().length} CPUs\n`,
    );
    printTable(
      ['call', 'small p50 ms', 'large p50 ms', 'ratio', 'db round trips', 'slowest stmt ms', 'plan'],
      [
        ...calls.map((c) => [
          c.name,
          fmt(c.smallP50Ms),
          fmt(c.largeP50Ms),
          c.ratio === null ? '-' : c.ratio.toFixed(2),
          c.dbRoundTrips === null ? '-' : String(c.dbRoundTrips),
          fmt(c.slowestStatementMs),
          c.planFindings.slice(0, 2).join('; ').slice(0, 70),
        ]),
        ...(small.cron || large.cron
          ? [
              [
                'cron: one run of every scheduled job',
                fmt(small.cron?.ms),
                fmt(large.cron?.ms),
                report.cron.ratio === null ? '-' : report.cron.ratio.toFixed(2),
                String(large.cron?.roundTrips ?? '-'),
                '-',
                large.cron
                  ? `${large.cron.finished ? '' : `unfinished at ${CRON_TIMEOUT_S} s: `}synced ${large.cron.after.openOrdersSyncedInRun}/${large.cron.before.openOrders} open orders`
                  : '',
              ],
            ]
          : []),
      ],
    );
    console.log(`Reconciliation: small ${small.reconciliationOk ? 'ok' : 'NOT OK'}, large ${large.reconciliationOk ? 'ok' : 'NOT OK'}`);
    console.log(
      `Seeding: small ${small.seed.seconds.toFixed(1)} s, large ${large.seed.seconds.toFixed(1)} s; whole run ${(timings.totalSeconds / 60).toFixed(1)} min`,
    );
    console.log('Written to bench-results/scale.json');
    if (calls.some((c) => c.failures > 0) || small.reconciliationOk === false || large.reconciliationOk === false) process.exitCode = 1;
  } finally {
    await stack.stop();
  }
}

runScript(main);
