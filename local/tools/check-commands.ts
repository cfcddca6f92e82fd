// Checks of the README's two commands that the suite cannot make from inside itself:
//   npm run check:fresh-clone    clones this checkout's HEAD into a new mode-700 folder (as a home
//                                folder is), then npm install, npm test, and npm start twice: the
//                                second start keeps what the first stored.
//   npm run check:side-by-side   npm test and npm run bench beside a running npm start (the one on
//                                PORT, or one it starts), which must still serve the SPA afterwards.
// Each takes minutes (the whole suite runs); they are for changes to the local stack, not for CI.
import { type ChildProcess, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { lstatSync, mkdtempSync, readlinkSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { callApi, signUp } from '../bench/shop-client';
import { freePort } from '../stack/ports';
import { root } from '../stack/stack';
import { runScript } from '../stack/startup-error';

function run(command: string, args: string[], cwd: string, env: Record<string, string> = {}): void {
  console.log(`\n$ ${command} ${args.join(' ')}   (in ${cwd})`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: { ...process.env, ...env } });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} failed (exit ${result.status ?? result.signal}) in ${cwd}`);
}

async function answersHealth(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/api/v1/health`, { signal: AbortSignal.timeout(3000) });
    return response.ok && ((await response.json()) as { status?: string }).status === 'ok';
  } catch {
    return false;
  }
}

interface StartedShop {
  url: string;
  stop(): Promise<void>;
}

/** `npm start` in `cwd` on `port`, as a person runs it; stopped with Ctrl-C's signal. */
async function npmStart(cwd: string, port: number): Promise<StartedShop> {
  console.log(`\n$ PORT=${port} npm start   (in ${cwd})`);
  const child: ChildProcess = spawn('npm', ['start'], { cwd, stdio: 'inherit', detached: true, env: { ...process.env, PORT: String(port) } });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://localhost:${port}`;
  const stop = async () => {
    if (child.exitCode === null) process.kill(-child.pid!, 'SIGINT');
    await exited;
  };
  for (const deadline = Date.now() + 5 * 60_000; !(await answersHealth(url)); ) {
    if (child.exitCode !== null || Date.now() > deadline) {
      await stop();
      throw new Error(`npm start in ${cwd} did not serve ${url}/api/v1/health`);
    }
    await new Promise((resolve) => setTimeout(resolve, 1000));
  }
  return { url, stop };
}

async function freshClone(): Promise<void> {
  const home = mkdtempSync(path.join(os.tmpdir(), 'private-home-'));
  const checkout = path.join(home, 'shop');
  let cluster: string | null = null;
  try {
    run('git', ['clone', '--quiet', root, checkout], home);
    run('npm', ['install', '--no-audit', '--no-fund'], checkout);
    const testing = !process.argv.includes('--skip-tests');
    if (testing) run('npm', ['test'], checkout);
    const port = await freePort();
    const person = { fullName: 'Fresh Clone', email: `fresh-${randomBytes(4).toString('hex')}@example.com`, password: 'a long private passphrase 1' };
    const first = await npmStart(checkout, port);
    try {
      await signUp(first.url, person);
    } finally {
      await first.stop();
    }
    const pg = path.join(checkout, '.data', 'pg');
    cluster = lstatSync(pg).isSymbolicLink() ? readlinkSync(pg) : null;
    const second = await npmStart(checkout, port);
    try {
      await callApi(second.url, 'POST', 'auth/login', { body: { email: person.email, password: person.password } });
    } finally {
      await second.stop();
    }
    console.log(
      `\nFresh clone in a mode-700 folder: ${testing ? 'npm install, npm test and npm start work' : 'npm install and npm start work'}; the second start kept the first one's user${cluster ? ` (data in ${cluster})` : ''}.`,
    );
  } finally {
    rmSync(home, { recursive: true, force: true });
    if (cluster) rmSync(cluster, { recursive: true, force: true });
  }
}

async function sideBySide(): Promise<void> {
  const port = Number(process.env.PORT ?? 8787);
  const url = `http://localhost:${port}`;
  const started = (await answersHealth(url)) ? null : await npmStart(root, port);
  try {
    run('npm', ['test'], root);
    run('npm', ['run', 'bench'], root);
    for (const page of ['/', '/services', '/user/profile']) {
      const response = await fetch(`${url}${page}`);
      const html = await response.text();
      if (!response.ok || !html.includes('<div id="root">'))
        throw new Error(`After the tests and the bench, ${url}${page} answered ${response.status} without the SPA: ${html.slice(0, 200)}`);
    }
    if (!(await answersHealth(url))) throw new Error(`After the tests and the bench, ${url}/api/v1/health is not ok`);
    console.log(
      `\nWith npm start running on ${url}, npm test and npm run bench completed and the shop still serves /, /services, /user/profile and its health check.`,
    );
  } finally {
    await started?.stop();
  }
}

const checks: Record<string, () => Promise<void>> = { 'fresh-clone': freshClone, 'side-by-side': sideBySide };
const check = checks[process.argv[2] ?? ''];
if (!check) {
  console.error(`Name a check: ${Object.keys(checks).join(' or ')}.`);
  process.exit(2);
}
runScript(check);
