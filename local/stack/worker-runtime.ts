// The Worker on this machine: bundled by wrangler exactly as `wrangler deploy` bundles it, and run by
// Miniflare (the workerd that `wrangler dev` runs too) with the bindings wrangler.toml declares: the
// SPA's assets, the queues and their consumers, the variables.
//
// Why not `wrangler dev` itself: it puts a proxy Worker in front of ours that forwards each request
// over a pooled HTTP connection, and a request that lands on a pooled connection just as workerd
// closes it for its 5 s keep-alive fails with 503 "Your worker restarted mid-request" though nothing
// restarted (cloudflare/workers-sdk#14641). Under `npm run load` that was 15-27 requests a minute,
// orders among them, which the proxy cannot retry. Here clients speak to workerd's own socket, as
// they speak to Cloudflare's edge deployed.
import { spawn } from 'node:child_process';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { Log, LogLevel, Miniflare } from 'miniflare';
import { unstable_getMiniflareWorkerOptions } from 'wrangler';
import { StartupError } from './startup-error';

export interface WorkerRuntimeOptions {
  root: string;
  port: number;
  inspectorPort: number;
  /** The built SPA served as the Worker's assets. */
  distDir: string;
  /** The bundle, and the queues' state. */
  dataDir: string;
  /** The Worker's variables and secrets, over wrangler.toml's [vars]. */
  vars: Record<string, string>;
  output: 'inherit' | 'ignore';
}

/** What `wrangler deploy` would upload, written to `outDir` without uploading it. */
async function bundle(root: string, distDir: string, outDir: string): Promise<string> {
  const wrangler = spawn('npx', ['wrangler', 'deploy', '--dry-run', '--outdir', outDir, '--assets', distDir], {
    cwd: root,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, WRANGLER_SEND_METRICS: 'false' },
  });
  let output = '';
  for (const stream of [wrangler.stdout, wrangler.stderr]) stream.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const code = await new Promise<number>((resolve) => wrangler.once('close', (status) => resolve(status ?? 1)));
  if (code !== 0) throw new StartupError(`wrangler could not bundle the Worker:\n${output.trim()}\nFix what it says, then try again.`);
  return path.join(outDir, 'index.js');
}

/**
 * /__scheduled runs the Worker's scheduled handler as the cron trigger would (local/stack/cron.ts) and
 * answers when its jobs end: 200, or 500 when the handler threw. Deployed, the path is the SPA's.
 */
const CRON_TRIGGER = `export default {
  async fetch(request, env) {
    const cron = new URL(request.url).searchParams.get('cron') ?? undefined;
    const { outcome } = await env.SHOP.scheduled({ cron });
    return new Response(outcome, { status: outcome === 'ok' ? 200 : 500 });
  },
};`;

function drain(...streams: Readable[]) {
  for (const stream of streams) stream.resume();
}

/** Serves the Worker until the returned Miniflare is disposed. */
export async function startWorkerRuntime(options: WorkerRuntimeOptions): Promise<Miniflare> {
  const scriptPath = await bundle(options.root, options.distDir, path.join(options.dataDir, 'worker-bundle'));
  const { workerOptions } = unstable_getMiniflareWorkerOptions(path.join(options.root, 'wrangler.toml'), undefined, {
    overrides: { assets: { directory: options.distDir } },
  });
  const shop = { ...workerOptions, modules: true, scriptPath, bindings: { ...workerOptions.bindings, ...options.vars } };
  const miniflare = new Miniflare({
    host: '127.0.0.1',
    port: options.port,
    inspectorPort: options.inspectorPort,
    defaultPersistRoot: path.join(options.dataDir, 'worker-state'),
    // The Worker reads nothing of request.cf; the placeholder spares a download from Cloudflare at start.
    cf: false,
    log: new Log(options.output === 'inherit' ? LogLevel.INFO : LogLevel.NONE),
    handleRuntimeStdio: (stdout: Readable, stderr: Readable) => {
      if (options.output === 'inherit') {
        stdout.pipe(process.stdout);
        stderr.pipe(process.stderr);
      } else drain(stdout, stderr);
    },
    workers: [
      { ...shop, name: 'smm-panel' },
      // The cron's runs, in an isolate apart from the one serving requests: the same Worker with the same
      // bindings, minus the assets and the queue consumers, which stay the serving Worker's.
      { ...shop, name: 'smm-panel-cron', assets: undefined, queueConsumers: undefined },
      {
        name: 'local-cron',
        modules: true,
        script: CRON_TRIGGER,
        compatibilityDate: workerOptions.compatibilityDate,
        // Gives the binding scheduled(), as Miniflare's own trigger has it.
        compatibilityFlags: ['service_binding_extra_handlers'],
        routes: ['*/__scheduled*'],
        serviceBindings: { SHOP: 'smm-panel-cron' },
      },
    ],
  });
  await miniflare.ready;
  return miniflare;
}
