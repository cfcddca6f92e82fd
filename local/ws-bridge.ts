// WebSocket-to-TCP bridge: lets the Worker speak to local Postgres through the same
// Neon serverless driver it uses in production (neonConfig.wsProxy points here).
import net from 'node:net';
import { WebSocketServer } from 'ws';

export interface WsBridge {
  /** Value for the Worker's DB_WS_PROXY binding, e.g. "127.0.0.1:5488/v1". */
  proxy: string;
  close(): Promise<void>;
}

export async function startWsBridge(options: { port: number; allowedTarget: { host: string; port: number } }): Promise<WsBridge> {
  const server = new WebSocketServer({ host: '127.0.0.1', port: options.port });
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
    const pending: Buffer[] = [];
    let connected = false;
    tcp.on('connect', () => {
      connected = true;
      for (const chunk of pending) tcp.write(chunk);
      pending.length = 0;
    });
    socket.on('message', (data: Buffer) => (connected ? tcp.write(data) : pending.push(Buffer.from(data))));
    tcp.on('data', (chunk) => socket.readyState === socket.OPEN && socket.send(chunk));
    const closeBoth = () => {
      tcp.destroy();
      if (socket.readyState === socket.OPEN || socket.readyState === socket.CONNECTING) socket.close();
    };
    tcp.on('close', closeBoth);
    tcp.on('error', closeBoth);
    socket.on('close', closeBoth);
    socket.on('error', closeBoth);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('listening', resolve);
    server.once('error', reject);
  });
  const port = (server.address() as net.AddressInfo).port;
  return {
    proxy: `127.0.0.1:${port}/v1`,
    close: () =>
      new Promise<void>((resolve) => {
        for (const client of server.clients) client.terminate();
        server.close(() => resolve());
      }),
  };
}
