// `npm start`: the whole shop on http://localhost:8787 — embedded Postgres (data in .data/),
// the WebSocket bridge for the Neon driver, sandbox fakes of Paystack, the SMM provider and
// the rates service, migrations and seed, the SPA build, and `wrangler dev` serving it all.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { startFakes } from './fakes';
import { applyMigrations } from './migrate';
import { openDatabase } from './node-db';
import { startPostgres } from './postgres';
import { seedAdmin } from './seed';
import { startWsBridge } from './ws-bridge';

const root = path.resolve(import.meta.dirname, '..');
const dataDir = path.join(root, '.data');
const port = Number(process.env.PORT ?? 8787);
const appUrl = `http://localhost:${port}`;
const portOffset = port - 8787;

/** Local secrets, made once and kept so sessions survive restarts. */
function localSecrets(): Record<string, string> {
  const file = path.join(dataDir, 'secrets.json');
  if (existsSync(file)) return JSON.parse(readFileSync(file, 'utf8'));
  const secrets = {
    JWT_SECRET: randomBytes(48).toString('base64'),
    ENCRYPTION_KEY: randomBytes(32).toString('base64'),
    PAYSTACK_SECRET_KEY: `sk_test_${randomBytes(20).toString('hex')}`,
    SMM_API_KEY: randomBytes(16).toString('hex'),
  };
  writeFileSync(file, JSON.stringify(secrets, null, 2), { mode: 0o600 });
  return secrets;
}

async function main() {
  mkdirSync(dataDir, { recursive: true });
  const secrets = localSecrets();
  const cleanups: Array<() => Promise<void>> = [];
  let wrangler: ChildProcess | undefined;
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    console.log('\nStopping the shop...');
    if (wrangler && wrangler.exitCode === null) {
      process.kill(-wrangler.pid!, 'SIGTERM');
      await new Promise((resolve) => wrangler!.once('exit', resolve));
    }
    for (const cleanup of cleanups.reverse()) await cleanup().catch((error) => console.error(error));
    process.exit(code);
  };
  process.on('SIGINT', () => void stop(0));
  process.on('SIGTERM', () => void stop(0));

  if (process.env.SKIP_BUILD !== '1') {
    console.log('Building the SPA...');
    const build = spawnSync('npx', ['vite', 'build', '--logLevel', 'warn'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('SPA build failed');
  }

  const postgres = await startPostgres({ dataDir: path.join(dataDir, 'pg'), port: 5488 + portOffset, persistent: true, quiet: true });
  cleanups.push(() => postgres.stop());
  await postgres.createDatabase('smm');
  const databaseUrl = postgres.url('smm');
  await applyMigrations(databaseUrl);

  const bridge = await startWsBridge({ port: 5489 + portOffset, allowedTarget: { host: '127.0.0.1', port: postgres.port } });
  cleanups.push(() => bridge.close());

  const fakes = await startFakes({
    paystackPort: 8790 + portOffset,
    smmPort: 8791 + portOffset,
    ratesPort: 8792 + portOffset,
    paystackSecretKey: secrets.PAYSTACK_SECRET_KEY,
    smmApiKey: secrets.SMM_API_KEY,
    webhookUrl: `${appUrl}/api/v1/webhooks/paystack`,
    appUrl,
  });
  cleanups.push(() => fakes.close());

  const { db, pool } = openDatabase({ DATABASE_URL: databaseUrl, DB_WS_PROXY: bridge.proxy });
  const admin = await seedAdmin(db, { email: process.env.ADMIN_EMAIL ?? 'admin@example.com', password: process.env.ADMIN_PASSWORD });
  await pool.end();

  const vars: Record<string, string> = {
    DATABASE_URL: databaseUrl,
    DB_WS_PROXY: bridge.proxy,
    APP_URL: appUrl,
    ENVIRONMENT: 'development',
    JWT_SECRET: secrets.JWT_SECRET,
    ENCRYPTION_KEY: secrets.ENCRYPTION_KEY,
    PAYSTACK_SECRET_KEY: secrets.PAYSTACK_SECRET_KEY,
    PAYSTACK_BASE_URL: fakes.paystackUrl,
    RATES_API_URL: fakes.ratesUrl,
  };
  wrangler = spawn(
    'npx',
    ['wrangler', 'dev', '--port', String(port), '--ip', '127.0.0.1', '--local', '--test-scheduled', '--show-interactive-dev-session=false',
      '--inspector-port', String(9229 + portOffset), ...Object.entries(vars).flatMap(([key, value]) => ['--var', `${key}:${value}`])],
    { cwd: root, stdio: ['ignore', 'inherit', 'inherit'], detached: true, env: { ...process.env, WRANGLER_SEND_METRICS: 'false' } },
  );
  wrangler.once('exit', (code) => void stop(code ?? 1));

  const adminLine = admin.created && !process.env.ADMIN_PASSWORD
    ? `Administrator: ${process.env.ADMIN_EMAIL ?? 'admin@example.com'} / ${admin.password}  (shown once; set ADMIN_PASSWORD to choose it)`
    : `Administrator: ${process.env.ADMIN_EMAIL ?? 'admin@example.com'} (password as set before, or ADMIN_PASSWORD)`;
  console.log([
    '',
    `The shop:            ${appUrl}`,
    adminLine,
    `Sandbox Paystack:    ${fakes.paystackUrl}  (checkout pages, Pay / Decline)`,
    `Sandbox SMM provider:${fakes.smmProviderUrl}/api/v2`,
    `Postgres:            ${databaseUrl}`,
    'Press Ctrl-C to stop everything.',
    '',
  ].join('\n'));
}

main().catch((error) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
});
