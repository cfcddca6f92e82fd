// The deployable artefact: `wrangler deploy --dry-run` bundles the Worker exactly as a deploy
// would (wrangler.toml, bindings, assets) without uploading it, so a bundle that would not
// deploy, or that outgrew the Workers size limit, fails here instead of on release day.
import { execFile } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';

/** The Workers Free plan's limit on a Worker's compressed size. */
const FREE_PLAN_LIMIT_BYTES = 3 * 1024 * 1024;
/** What this shop allows itself, so growth is noticed long before the limit is near. */
const SIZE_BUDGET_BYTES = FREE_PLAN_LIMIT_BYTES / 2;
/** Bindings that hold secrets: set with `wrangler secret put`, never written into wrangler.toml. */
const SECRET_BINDINGS = [
  'DATABASE_URL',
  'JWT_SECRET',
  'ENCRYPTION_KEY',
  'PAYSTACK_SECRET_KEY',
  'FLUTTERWAVE_SECRET_KEY',
  'FLUTTERWAVE_SECRET_HASH',
  'EMAIL_API_KEY',
];

const root = path.resolve(import.meta.dirname, '../..');
const work = mkdtempSync(path.join(tmpdir(), 'deploy-dry-run-'));

afterAll(() => rmSync(work, { recursive: true, force: true }));

async function dryRun() {
  // A stand-in for the built SPA: the dry run needs an assets directory, and this test must not
  // depend on (or disturb) dist/, which `vite build` owns.
  const assets = path.join(work, 'assets');
  const outdir = path.join(work, 'out');
  mkdirSync(assets);
  writeFileSync(path.join(assets, 'index.html'), '<!doctype html><title>shop</title>');
  const { stdout, stderr } = await promisify(execFile)('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outdir, '--assets', assets], {
    cwd: root,
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false', NO_COLOR: '1', FORCE_COLOR: '0' },
    maxBuffer: 16 * 1024 * 1024,
  });
  return { output: `${stdout}\n${stderr}`, bundle: readFileSync(path.join(outdir, 'index.js')) };
}

describe('wrangler deploy --dry-run', () => {
  it('bundles the Worker, well within the size limit, with no secret written into the config', async () => {
    const { output, bundle } = await dryRun();
    expect(output).toContain('--dry-run: exiting now.');
    expect(output).toMatch(/env\.ASSETS\s+Assets/);
    for (const secret of SECRET_BINDINGS) expect(output).not.toContain(`env.${secret}`);
    // A deployment is production unless told otherwise: live payments by default, no links in the logs.
    expect(output).toMatch(/env\.ENVIRONMENT \("production"\)/);

    const gzipped = gzipSync(bundle, { level: 9 }).length;
    const reported = /Total Upload: ([\d.]+) KiB \/ gzip: ([\d.]+) KiB/.exec(output);
    console.log(
      `Worker bundle: ${(bundle.length / 1024).toFixed(1)} KiB, ${(gzipped / 1024).toFixed(1)} KiB gzipped` +
        `${reported ? ` (wrangler: ${reported[1]} KiB / gzip ${reported[2]} KiB)` : ''}; limit ${FREE_PLAN_LIMIT_BYTES / 1024} KiB`,
    );
    expect(gzipped).toBeLessThan(SIZE_BUDGET_BYTES);
  });
});
