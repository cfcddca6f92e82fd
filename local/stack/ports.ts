// The ports of a local stack. `npm start` uses fixed ones derived from its shop port, so a
// developer can point tools at them; throwaway stacks (browser tests, bench, load test) take free
// ones, so they never meet a running `npm start` or each other.
import net from 'node:net';
import { StartupError } from './startup-error';

export interface StackPorts {
  shop: number;
  postgres: number;
  bridge: number;
  /** Neon's SQL-over-HTTP endpoint, locally (local/stack/neon-http.ts). */
  sqlHttp: number;
  paystack: number;
  smm: number;
  rates: number;
  flutterwave: number;
  mail: number;
  webhookReceiver: number;
  inspector: number;
}

const LABELS: Record<keyof StackPorts, string> = {
  shop: 'the shop',
  postgres: 'PostgreSQL',
  bridge: 'the database WebSocket bridge',
  sqlHttp: 'the database SQL-over-HTTP endpoint',
  paystack: 'the sandbox Paystack',
  smm: 'the sandbox SMM panel',
  rates: 'the sandbox exchange rates',
  flutterwave: 'the sandbox Flutterwave',
  mail: 'the sandbox mailbox',
  webhookReceiver: 'the sandbox webhook receiver',
  inspector: "the Worker's debugger (workerd's inspector)",
};

/** npm start's ports: the shop's and the same offset from each default (8787 → 5488-5490, 8790-8795, 9229). */
export function portsFrom(shop: number): StackPorts {
  const offset = shop - 8787;
  return {
    shop,
    postgres: 5488 + offset,
    bridge: 5489 + offset,
    sqlHttp: 5490 + offset,
    paystack: 8790 + offset,
    smm: 8791 + offset,
    rates: 8792 + offset,
    flutterwave: 8793 + offset,
    mail: 8794 + offset,
    webhookReceiver: 8795 + offset,
    inspector: 9229 + offset,
  };
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

export async function freePorts(): Promise<StackPorts> {
  const entries = await Promise.all(Object.keys(LABELS).map(async (name) => [name, await freePort()] as const));
  return Object.fromEntries(entries) as unknown as StackPorts;
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

/** Refuses to start half a stack: every port is checked before anything listens. */
export async function ensurePortsFree(ports: StackPorts): Promise<void> {
  for (const [name, port] of Object.entries(ports) as Array<[keyof StackPorts, number]>) {
    if (!(await isFree(port))) {
      throw new StartupError(
        `Port ${port}, which ${LABELS[name]} needs, is already in use (another npm start still running?): stop whatever holds it, or start on other ports with PORT=<port> npm start.`,
      );
    }
  }
}
