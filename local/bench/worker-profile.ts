// `BENCH_PROFILE=1 npm run bench`: a CPU profile of the Worker while the bench loads each call, taken through
// workerd's inspector (the Chrome DevTools protocol's Profiler), so the Worker's own work per request (token
// checks, routing, building SQL, JSON, logging) is measured rather than guessed. Each profile is written as
// bench-results/profiles/<call>.cpuprofile (open it in Chrome DevTools, Performance) and summed per function:
// the bundle wrangler builds is not minified, so its function names are the source's.
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import WebSocket from 'ws';

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

/** What Profiler.stop answers: a tree of call frames and, per sample, the node it landed in and the time since the last one. */
export interface CpuProfile {
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface WorkerProfiler {
  start(): Promise<void>;
  stop(): Promise<CpuProfile>;
  close(): void;
}

/** The serving Worker's isolate (`smm-panel`), not the cron's copy or Miniflare's own workers. */
function isServingWorker(title: string): boolean {
  return /core:user:smm-panel(\s|$)/.test(title);
}

export async function connectProfiler(inspectorPort: number): Promise<WorkerProfiler> {
  const targets = (await (await fetch(`http://127.0.0.1:${inspectorPort}/json`)).json()) as Array<{ title: string; webSocketDebuggerUrl: string }>;
  const target = targets.find((candidate) => isServingWorker(candidate.title));
  if (!target) throw new Error(`workerd's inspector lists no serving Worker: ${targets.map((candidate) => candidate.title).join(', ')}`);
  const socket = new WebSocket(target.webSocketDebuggerUrl);
  await new Promise((resolve, reject) => {
    socket.once('open', resolve);
    socket.once('error', reject);
  });
  let lastId = 0;
  const waiting = new Map<number, (message: { result?: unknown; error?: { message: string } }) => void>();
  socket.on('message', (data) => {
    const message = JSON.parse(String(data));
    waiting.get(message.id)?.(message);
    waiting.delete(message.id);
  });
  const send = <T>(method: string, params: object = {}) =>
    new Promise<T>((resolve, reject) => {
      lastId += 1;
      waiting.set(lastId, (message) => (message.error ? reject(new Error(`${method}: ${message.error.message}`)) : resolve(message.result as T)));
      socket.send(JSON.stringify({ id: lastId, method, params }));
    });
  await send('Profiler.enable');
  // 200 µs: fine enough for calls of a few milliseconds of CPU, coarse enough not to slow them much.
  await send('Profiler.setSamplingInterval', { interval: 200 });
  return {
    start: () => send('Profiler.start'),
    stop: async () => (await send<{ profile: CpuProfile }>('Profiler.stop')).profile,
    close: () => socket.close(),
  };
}

export interface FunctionTime {
  name: string;
  /** Microseconds of CPU per request. */
  selfUs: number;
  totalUs: number;
}

const frameName = ({ functionName, url, lineNumber }: CallFrame) => `${functionName || '(anonymous)'}${url ? ` ${path.basename(url)}:${lineNumber + 1}` : ''}`;

/**
 * Per function: its own time and the time with what it called (counted once however deep it recurses), per request.
 * Idle and the profiler's own samples are left out, so the sums are the Worker's CPU.
 */
export function timePerFunction(profile: CpuProfile, requests: number): { cpuUsPerRequest: number; functions: FunctionTime[] } {
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  const sampled = new Map<number, number>();
  for (const [index, nodeId] of profile.samples.entries()) sampled.set(nodeId, (sampled.get(nodeId) ?? 0) + (profile.timeDeltas[index] ?? 0));
  const selfBy = new Map<string, number>();
  const totalBy = new Map<string, number>();
  let cpu = 0;
  for (const [nodeId, micros] of sampled) {
    const name = frameName(nodes.get(nodeId)!.callFrame);
    if (name === '(idle)' || name === '(root)') continue;
    cpu += micros;
    selfBy.set(name, (selfBy.get(name) ?? 0) + micros);
    const counted = new Set<string>();
    for (let at: number | undefined = nodeId; at !== undefined; at = parentOf.get(at)) {
      const caller = frameName(nodes.get(at)!.callFrame);
      if (caller === '(root)' || counted.has(caller)) continue;
      counted.add(caller);
      totalBy.set(caller, (totalBy.get(caller) ?? 0) + micros);
    }
  }
  const per = (micros: number) => micros / Math.max(requests, 1);
  return {
    cpuUsPerRequest: per(cpu),
    functions: [...totalBy].map(([name, total]) => ({ name, selfUs: per(selfBy.get(name) ?? 0), totalUs: per(total) })),
  };
}

/** Writes the profile for DevTools and prints where each request's CPU went: the top functions by own time and with callees. */
export function reportProfile(outDir: string, callName: string, profile: CpuProfile, requests: number, top = 15): void {
  mkdirSync(outDir, { recursive: true });
  const file = path.join(outDir, `${callName.replace(/[^a-z0-9]+/gi, '-').replace(/^-|-$/g, '')}.cpuprofile`);
  writeFileSync(file, JSON.stringify(profile));
  const { cpuUsPerRequest, functions } = timePerFunction(profile, requests);
  const ms = (micros: number) => (micros / 1000).toFixed(3);
  const share = (micros: number) => `${((100 * micros) / cpuUsPerRequest).toFixed(1)}%`.padStart(6);
  console.log(`  ${callName}: ${ms(cpuUsPerRequest)} ms of the Worker's CPU per request over ${requests} requests (${path.relative(process.cwd(), file)})`);
  console.log('    own time:');
  for (const fn of [...functions].sort((a, b) => b.selfUs - a.selfUs).slice(0, top)) console.log(`      ${ms(fn.selfUs)} ms ${share(fn.selfUs)}  ${fn.name}`);
  console.log('    with what it called:');
  for (const fn of [...functions].sort((a, b) => b.totalUs - a.totalUs).slice(0, top))
    console.log(`      ${ms(fn.totalUs)} ms ${share(fn.totalUs)}  ${fn.name}`);
}
