// The whole local shop as one function: embedded Postgres, the WebSocket bridge and the
// SQL-over-HTTP endpoint for the Neon driver, sandbox fakes of the outside services, migrations and seed, and the Worker
// serving the built SPA and the API. `npm start`, the browser tests and the benchmark use it.
import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { type RunningFakes, startFakes } from '../fakes';
import type { FaultPreset } from '../fakes/smm-faults';
import { startLocalCron } from './cron';
import { seedDemo } from './demo';
import { applyMigrations } from './migrate';
import { startNeonHttp } from './neon-http';
import { openDatabase } from './node-db';
import { ensurePortsFree, freePorts, type StackPorts } from './ports';
import { startPostgres } from './postgres';
import { seedAdmin } from './seed';
import { StartupError } from './startup-error';
import { startWorkerRuntime } from './worker-runtime';
import { type BridgeTraffic, startWsBridge } from './ws-bridge';

export const root = path.resolve(import.meta.dirname, '../..');

export interface StackOptions {
  /** npm start's fixed ports (portsFrom) or free ones (throwaway stacks). */
  ports: StackPorts;
  /** Where Postgres data, local secrets and the Worker's bundle and queue state live. */
  dataDir: string;
  /** Keep the database between runs (npm start) or throw it away (tests). */
  persistent: boolean;
  /** The built SPA that the Worker serves; `build` (re)builds it there first. */
  distDir: string;
  build: boolean;
  /** Count the statements and round trips the Worker makes to Postgres, over WebSockets and HTTP (the benchmark). */
  countDatabaseStatements?: boolean;
  /**
   * Milliseconds added each way on the Worker's database link (the bridge and the HTTP endpoint),
   * modelling the distance from the edge to Neon's region; the benchmark only, 0 (none) by default.
   */
  databaseLatencyMs?: number;
  /** Run the scheduled jobs on a timer (default); the benchmark turns them off so the load and the counts are its own. */
  scheduledJobs?: boolean;
  admin: { email: string; password?: string };
  /** The Worker's output (its logs, workerd's): shown for npm start, kept quiet in tests. */
  workerOutput: 'inherit' | 'ignore';
  /** How the sandbox SMM panel behaves: 'calm' (default) or 'rough', misbehaving as real panels do (local/fakes/smm-faults.ts). */
  smmMode?: FaultPreset;
}

export interface RunningStack {
  url: string;
  /** The built SPA it serves. */
  distDir: string;
  databaseUrl: string;
  dbWsProxy: string;
  /** The Worker's DB_HTTP_ENDPOINT: Neon's SQL-over-HTTP endpoint, locally. */
  dbHttpEndpoint: string;
  /** Database work through the bridge and the HTTP endpoint so far (the bridge's zeros unless countDatabaseStatements). */
  databaseTraffic(): DatabaseTraffic;
  /** workerd's inspector: DevTools, and the CPU profile of `BENCH_PROFILE=1 npm run bench`. */
  inspectorPort: number;
  /** Cuts every open connection between the Worker and Postgres (the bridge's, and HTTP calls in flight), as a network blip would; returns how many. */
  dropDatabaseConnections(): number;
  fakes: RunningFakes;
  secrets: LocalSecrets;
  admin: { created: boolean; password?: string };
  stop(): Promise<void>;
}

/** The bridge's counts with the HTTP endpoint's added: each HTTP call is one round trip. */
export interface DatabaseTraffic extends BridgeTraffic {
  httpCalls: number;
}

interface LocalSecrets {
  JWT_SECRET: string;
  ENCRYPTION_KEY: string;
  PAYSTACK_SECRET_KEY: string;
  FLUTTERWAVE_SECRET_KEY: string;
  FLUTTERWAVE_SECRET_HASH: string;
  EMAIL_API_KEY: string;
  SMM_API_KEY: string;
}

/** Local secrets, made once and kept so sessions survive restarts; ones a newer checkout needs are added. */
function localSecrets(dataDir: string): LocalSecrets {
  const file = path.join(dataDir, 'secrets.json');
  const kept: Partial<LocalSecrets> = existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const secrets: LocalSecrets = {
    JWT_SECRET: randomBytes(48).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PAYSTACK_SECRET_KEY: `sk_test_${randomBytes(20).toString('hex')}`,
    FLUTTERWAVE_SECRET_KEY: `FLWSECK_TEST-${randomBytes(16).toString('hex')}-X`,
    FLUTTERWAVE_SECRET_HASH: randomBytes(16).toString('hex'),
    EMAIL_API_KEY: `re_${randomBytes(16).toString('hex')}`,
    SMM_API_KEY: randomBytes(16).toString('hex'),
    ...kept,
  };
  if (Object.keys(kept).length !== Object.keys(secrets).length) writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

/** Miniflare is ready once workerd listens; one answer from the Worker proves the bundle and its database link work. */
async function checkHealth(url: string): Promise<void> {
  const response = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(60_000) }).catch((error: unknown) => {
    throw new StartupError(
      `The shop did not answer ${url}/api/v1/health (${error instanceof Error ? error.message : error}): the machine may be overloaded; stop other work and try again.`,
    );
  });
  if (!response.ok) throw new StartupError(`The shop answered ${url}/api/v1/health with ${response.status}: ${(await response.text()).slice(0, 300)}`);
}

export async function startStack(options: StackOptions): Promise<RunningStack> {
  const { ports } = options;
  const url = `http://localhost:${ports.shop}`;
  await ensurePortsFree(ports);
  mkdirSync(options.dataDir, { recursive: true });
  const secrets = localSecrets(options.dataDir);
  const cleanups: Array<() => Promise<void>> = [];
  const stopAll = async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup().catch((error) => console.error(error));
  };

  try {
    if (options.build) {
      const build = spawnSync('npx', ['vite', 'build', '--outDir', options.distDir, '--emptyOutDir', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
      if (build.status !== 0) throw new StartupError('The SPA did not build (the errors are above): fix them, then try again.');
    } else if (!existsSync(path.join(options.distDir, 'index.html'))) {
      throw new StartupError(`There is no built SPA in ${path.relative(root, options.distDir)}: run npm run build, or start without SKIP_BUILD=1.`);
    }

    const postgres = await startPostgres({ dataDir: path.join(options.dataDir, 'pg'), port: ports.postgres, persistent: options.persistent, quiet: true });
    cleanups.push(() => postgres.stop());
    await postgres.createDatabase('smm');
    const databaseUrl = postgres.url('smm');
    await applyMigrations(databaseUrl);

    const allowedTarget = { host: '127.0.0.1', port: postgres.port };
    const latencyMs = options.databaseLatencyMs ?? 0;
    const bridge = await startWsBridge({ port: ports.bridge, allowedTarget, countTraffic: options.countDatabaseStatements, latencyMs });
    cleanups.push(() => bridge.close());
    const sqlHttp = await startNeonHttp({ port: ports.sqlHttp, allowedTarget, latencyMs });
    cleanups.push(() => sqlHttp.close());
    const databaseTraffic = (): DatabaseTraffic => {
      const ws = bridge.traffic();
      const http = sqlHttp.traffic();
      return { connections: ws.connections, statements: ws.statements + http.statements, roundTrips: ws.roundTrips + http.calls, httpCalls: http.calls };
    };

    const fakes = await startFakes({
      paystackPort: ports.paystack,
      smmPort: ports.smm,
      ratesPort: ports.rates,
      flutterwavePort: ports.flutterwave,
      mailPort: ports.mail,
      webhookReceiverPort: ports.webhookReceiver,
      paystackSecretKey: secrets.PAYSTACK_SECRET_KEY,
      flutterwaveSecretKey: secrets.FLUTTERWAVE_SECRET_KEY,
      flutterwaveSecretHash: secrets.FLUTTERWAVE_SECRET_HASH,
      emailApiKey: secrets.EMAIL_API_KEY,
      smmApiKey: secrets.SMM_API_KEY,
      webhookUrl: `${url}/api/v1/webhooks/paystack`,
      flutterwaveWebhookUrl: `${url}/api/v1/webhooks/flutterwave`,
      appUrl: url,
      echoEmails: options.workerOutput === 'inherit',
      echoWebhooks: options.workerOutput === 'inherit',
      smmMode: options.smmMode,
    });
    cleanups.push(() => fakes.close());

    // Node tools in this process (seed, load, bench) reach the stack's endpoint from here on: the driver's endpoint is process-wide.
    const { db, close } = openDatabase({ DATABASE_URL: databaseUrl, DB_WS_PROXY: bridge.proxy, DB_HTTP_ENDPOINT: sqlHttp.url });
    const admin = await seedAdmin(db, options.admin);
    await seedDemo(db, { encryptionKey: secrets.ENCRYPTION_KEY, smmApiUrl: fakes.smmApiUrl, smmApiKey: secrets.SMM_API_KEY, ratesApiUrl: fakes.ratesUrl });
    await close();

    const vars: Record<string, string> = {
      DATABASE_URL: databaseUrl,
      DB_WS_PROXY: bridge.proxy,
      DB_HTTP_ENDPOINT: sqlHttp.url,
      APP_URL: url,
      ENVIRONMENT: 'development',
      JWT_SECRET: secrets.JWT_SECRET,
      ENCRYPTION_KEY: secrets.ENCRYPTION_KEY,
      PAYSTACK_SECRET_KEY: secrets.PAYSTACK_SECRET_KEY,
      PAYSTACK_BASE_URL: fakes.paystackUrl,
      // Test keys, so the shop takes payments in test mode (its default here) with either provider.
      FLUTTERWAVE_SECRET_KEY: secrets.FLUTTERWAVE_SECRET_KEY,
      FLUTTERWAVE_SECRET_HASH: secrets.FLUTTERWAVE_SECRET_HASH,
      FLUTTERWAVE_BASE_URL: fakes.flutterwaveUrl,
      EMAIL_API_URL: fakes.emailApiUrl,
      EMAIL_API_KEY: secrets.EMAIL_API_KEY,
      RATES_API_URL: fakes.ratesUrl,
    };
    const worker = await startWorkerRuntime({
      root,
      port: ports.shop,
      inspectorPort: ports.inspector,
      distDir: options.distDir,
      dataDir: options.dataDir,
      vars,
      output: options.workerOutput,
    });
    cleanups.push(() => worker.dispose());
    await checkHealth(url);
    if (options.scheduledJobs !== false) {
      const cron = startLocalCron(url);
      cleanups.push(() => cron.stop());
    }
    return {
      url,
      distDir: options.distDir,
      databaseUrl,
      dbWsProxy: bridge.proxy,
      dbHttpEndpoint: sqlHttp.url,
      databaseTraffic,
      dropDatabaseConnections: () => bridge.dropConnections() + sqlHttp.dropConnections(),
      inspectorPort: ports.inspector,
      fakes,
      secrets,
      admin,
      stop: stopAll,
    };
  } catch (error) {
    await stopAll();
    throw error;
  }
}

/**
 * A stack of its own for the browser tests, the bench and the load test: a fresh database, free
 * ports, and the SPA built into its own folder, all under .data/<name>-<pid> and deleted when
 * stopped. So it never touches what a running `npm start` serves.
 */
export async function startThrowawayStack(
  name: string,
  {
    spa = true,
    ...options
  }: Omit<StackOptions, 'dataDir' | 'persistent' | 'ports' | 'distDir' | 'build'> & {
    /** false: no SPA build, a placeholder page instead, for callers that only speak to the API (the simulator). */
    spa?: boolean;
  },
): Promise<RunningStack> {
  const dataDir = path.join(root, '.data', `${name}-${process.pid}`);
  rmSync(dataDir, { recursive: true, force: true });
  const distDir = path.join(dataDir, 'dist');
  if (!spa) {
    mkdirSync(distDir, { recursive: true });
    writeFileSync(path.join(distDir, 'index.html'), '<!doctype html><title>SMM Panel</title><p>This stack serves the API only.</p>\n');
  }
  const stack = await startStack({ ...options, dataDir, persistent: false, ports: await freePorts(), distDir, build: spa });
  return {
    ...stack,
    stop: async () => {
      await stack.stop();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
