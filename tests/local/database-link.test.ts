// The bench's model of the distance between the edge and Neon's region: latency injected on the
// Worker's database link (the WebSocket bridge and the SQL-over-HTTP endpoint) and the round trips
// counted there. Without latency asked for, neither adds any.

import { rmSync } from 'node:fs';
import path from 'node:path';
import { neon, neonConfig } from '@neondatabase/serverless';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { startNeonHttp } from '../../local/stack/neon-http';
import '../../local/stack/node-db';
import { freePort } from '../../local/stack/ports';
import { type LocalPostgres, startPostgres } from '../../local/stack/postgres';
import { HANDSHAKE_ROUND_TRIPS, startWsBridge } from '../../local/stack/ws-bridge';
import { openPoolDatabase } from '../../worker/db';

const LATENCY_MS = 30;
const dataDir = path.resolve('.data', `database-link-test-${process.pid}`);
let postgres: LocalPostgres;
let databaseUrl: string;
const stops: Array<() => Promise<void>> = [];

beforeAll(async () => {
  postgres = await startPostgres({ dataDir, port: await freePort(), persistent: false, quiet: true });
  await postgres.createDatabase('link');
  databaseUrl = postgres.url('link');
}, 180_000);

afterAll(async () => {
  for (const stop of stops.reverse()) await stop();
  await postgres?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

async function timed<T>(run: () => Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await run();
  return { value, ms: performance.now() - started };
}

it('holds a new WebSocket connection for its handshake and each flight, and counts every round trip', async () => {
  const bridge = await startWsBridge({ port: 0, allowedTarget: { host: '127.0.0.1', port: postgres.port }, countTraffic: true, latencyMs: LATENCY_MS });
  stops.push(() => bridge.close());
  const database = openPoolDatabase({ DATABASE_URL: databaseUrl, DB_WS_PROXY: bridge.proxy });
  try {
    const first = await timed(() => database.db.execute(sql`select 1`));
    const opened = bridge.traffic();
    // The start-up, the cleartext password and the query go in one flight (pipelineConnect 'password', as against Neon).
    expect(opened).toEqual({ connections: 1, statements: 1, roundTrips: HANDSHAKE_ROUND_TRIPS + 1 });
    expect(first.ms).toBeGreaterThanOrEqual(opened.roundTrips * 2 * LATENCY_MS);

    const second = await timed(() => database.db.execute(sql`select 2`));
    expect(bridge.traffic()).toEqual({ connections: 1, statements: 2, roundTrips: opened.roundTrips + 1 });
    expect(second.ms).toBeGreaterThanOrEqual(2 * LATENCY_MS);
  } finally {
    await database.close();
  }
});

it('holds each SQL-over-HTTP call for the trip there and back: one round trip, however many statements', async () => {
  const endpoint = await startNeonHttp({ port: 0, allowedTarget: { host: '127.0.0.1', port: postgres.port }, latencyMs: LATENCY_MS });
  stops.push(() => endpoint.close());
  neonConfig.fetchEndpoint = endpoint.url;
  const query = neon(databaseUrl);
  const single = await timed(() => query`select 1 as one`);
  expect(single.value).toEqual([{ one: 1 }]);
  expect(single.ms).toBeGreaterThanOrEqual(2 * LATENCY_MS);
  const batch = await timed(() => query.transaction([query`select 1`, query`select 2`, query`select 3`]));
  expect(batch.ms).toBeGreaterThanOrEqual(2 * LATENCY_MS);
  expect(endpoint.traffic()).toEqual({ calls: 2, statements: 4 });
});

it('adds no latency unless asked', async () => {
  const bridge = await startWsBridge({ port: 0, allowedTarget: { host: '127.0.0.1', port: postgres.port } });
  stops.push(() => bridge.close());
  const database = openPoolDatabase({ DATABASE_URL: databaseUrl, DB_WS_PROXY: bridge.proxy });
  try {
    await database.db.execute(sql`select 1`);
    // Ten open-connection statements in less time than a modest 100 ms round trip each would take: room for a busy machine.
    const { ms } = await timed(async () => {
      for (let i = 0; i < 10; i++) await database.db.execute(sql`select 1`);
    });
    expect(ms).toBeLessThan(10 * 2 * 100);
  } finally {
    await database.close();
  }
});
