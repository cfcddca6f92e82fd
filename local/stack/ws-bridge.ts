// WebSocket-to-TCP bridge: lets the Worker speak to local Postgres through the same
// Neon serverless driver it uses in production (neonConfig.wsProxy points here).
import net from 'node:net';
import { WebSocketServer } from 'ws';

export interface WsBridge {
  /** Value for the Worker's DB_WS_PROXY binding, e.g. "127.0.0.1:5488/v1". */
  proxy: string;
  /** What passed through so far; zeros unless started with countTraffic. */
  traffic(): BridgeTraffic;
  /**
   * Cuts every open connection at once, both sides, as a network blip or a database restart would:
   * statements in flight fail and the driver must open new connections. Returns how many were cut.
   */
  dropConnections(): number;
  close(): Promise<void>;
}

/** Database work as the benchmark counts it: connections opened, statements sent and round trips waited for. */
export interface BridgeTraffic {
  connections: number;
  /** Simple queries ('Q') and extended-protocol parses ('P'): one per statement the driver runs. */
  statements: number;
  /**
   * Each new connection's handshake (HANDSHAKE_ROUND_TRIPS), plus every flight of the client's
   * messages that Postgres answered: pipelined messages share one; a last Terminate, unanswered, has none.
   */
  roundTrips: number;
}

/**
 * What opening a WebSocket to Neon costs before the first Postgres byte, per Neon's "Quicker serverless
 * Postgres connections": one round trip for TCP, one for TLS 1.3, one for the WebSocket upgrade. On
 * loopback there is no TLS and TCP is free, so with latency injected the upgrade is held for all three.
 */
export const HANDSHAKE_ROUND_TRIPS = 3;

/** Postgres startup-phase requests that come before the real startup message. */
const SSL_REQUEST = 80877103;
const GSSENC_REQUEST = 80877104;

/**
 * Follows one client's half of the Postgres protocol across WebSocket frames (a frame may hold
 * several messages or part of one) and counts its statements.
 */
function statementCounter(traffic: BridgeTraffic): (chunk: Buffer) => void {
  let pending = Buffer.alloc(0);
  let started = false;
  return (chunk) => {
    pending = Buffer.concat([pending, chunk]);
    for (;;) {
      // Startup-phase messages have no type byte: a length, then a request code.
      if (!started) {
        if (pending.length < 8 || pending.length < pending.readInt32BE(0)) return;
        const code = pending.readInt32BE(4);
        pending = pending.subarray(pending.readInt32BE(0));
        started = code !== SSL_REQUEST && code !== GSSENC_REQUEST;
        continue;
      }
      if (pending.length < 5 || pending.length < 1 + pending.readInt32BE(1)) return;
      const type = pending[0];
      if (type === 0x51 /* Q */ || type === 0x50 /* P */) traffic.statements += 1;
      pending = pending.subarray(1 + pending.readInt32BE(1));
    }
  };
}

export async function startWsBridge(options: {
  port: number;
  allowedTarget: { host: string; port: number };
  /** Count connections, statements and round trips (the bench): it follows the protocol, so costs a little. */
  countTraffic?: boolean;
  /** Milliseconds each chunk takes each way, and the handshake's round trips: the bench's edge-to-region distance. */
  latencyMs?: number;
}): Promise<WsBridge> {
  const traffic: BridgeTraffic = { connections: 0, statements: 0, roundTrips: 0 };
  const latency = options.latencyMs ?? 0;
  /** Runs what crosses the modelled distance once it has: in order, as equal timeouts fire in the order they were set. */
  const later = (deliver: () => void) => (latency > 0 ? void setTimeout(deliver, latency) : deliver());
  const server = new WebSocketServer({
    host: '127.0.0.1',
    port: options.port,
    verifyClient: (_info, accept) => (latency > 0 ? void setTimeout(() => accept(true), HANDSHAKE_ROUND_TRIPS * 2 * latency) : accept(true)),
  });
  /** Each open connection's way to cut itself off. */
  const open = new Set<() => void>();
  server.on('connection', (socket, request) => {
    const address = new URL(request.url ?? '/', 'http://bridge').searchParams.get('address') ?? '';
    const [, port] = address.split(':');
    // Only ever forward to our own database, whatever host name the driver asks for.
    if (Number(port) !== options.allowedTarget.port) {
      socket.close(1008, 'target not allowed');
      return;
    }
    const tcp = net.connect({ host: options.allowedTarget.host, port: options.allowedTarget.port });
    tcp.setNoDelay(true);
    const count = options.countTraffic ? statementCounter(traffic) : null;
    if (count) {
      traffic.connections += 1;
      traffic.roundTrips += HANDSHAKE_ROUND_TRIPS;
    }
    let awaitingAnswer = false;
    const pending: Buffer[] = [];
    let connected = false;
    tcp.on('connect', () => {
      connected = true;
      for (const chunk of pending) tcp.write(chunk);
      pending.length = 0;
    });
    socket.on('message', (data: Buffer) => {
      if (count) {
        count(data);
        awaitingAnswer = true;
      }
      const chunk = Buffer.from(data);
      later(() => {
        if (tcp.destroyed) return;
        if (connected) tcp.write(chunk);
        else pending.push(chunk);
      });
    });
    tcp.on('data', (chunk) => {
      if (awaitingAnswer) {
        traffic.roundTrips += 1;
        awaitingAnswer = false;
      }
      later(() => socket.readyState === socket.OPEN && socket.send(chunk));
    });
    const closeBoth = () => {
      open.delete(cut);
      tcp.destroy();
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close();
    };
    // Abrupt on both sides: no close handshake the driver could read as an orderly end.
    const cut = () => {
      open.delete(cut);
      tcp.destroy();
      socket.terminate();
    };
    open.add(cut);
    // An orderly close travels the distance too, behind the last data sent before it.
    tcp.on('close', () => later(closeBoth));
    tcp.on('error', closeBoth);
    socket.on('close', () => later(closeBoth));
    socket.on('error', closeBoth);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    proxy: `127.0.0.1:${port}/v1`,
    traffic: () => ({ ...traffic }),
    dropConnections: () => {
      const cuts = [...open];
      for (const cut of cuts) cut();
      return cuts.length;
    },
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
