import { Pool, neon, neonConfig, type PoolClient } from '@neondatabase/serverless';
import { drizzle as drizzleHttp, type NeonHttpDatabase } from 'drizzle-orm/neon-http';
import { drizzle, type NeonDatabase } from 'drizzle-orm/neon-serverless';
import * as schema from '../drizzle/schema';
import type { Env } from './env';

export type Db = NeonDatabase<typeof schema>;
/** A transaction handle, accepted wherever a service may run inside a caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * A Pool per request: Workers forbid sharing a socket across requests ("Cannot perform
 * I/O on behalf of a different request"), so the caller closes it with waitUntil(close()).
 */
export interface OpenDatabase {
  db: Db;
  /** Ends the pool; the Worker calls it through waitUntil once the answer is sent. */
  close(): Promise<void>;
}

export function openDatabase(env: Pick<Env, 'DATABASE_URL' | 'DB_WS_PROXY'>): OpenDatabase {
  if (env.DB_WS_PROXY) {
    const proxy = env.DB_WS_PROXY;
    neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 5 });
  let closing = false;
  // Idle sockets report "Network connection lost" as they are torn down at the end; only
  // errors before that are news. They must fail their request, not crash the isolate.
  pool.on('error', (error: unknown) => {
    if (closing) return;
    const message = error instanceof Error ? error.message : ((error as { message?: string })?.message ?? String(error));
    console.error(JSON.stringify({ level: 'error', msg: 'database pool error', error: message }));
  });
  // The pool watches only idle clients: one checked out for a transaction whose connection drops
  // would raise an uncaught 'error' event. Its pending query rejects with the same error, and
  // that rejection is what fails the request, so the event needs no handling of its own.
  pool.on('connect', (client: PoolClient) => client.on('error', () => {}));
  return {
    db: drizzle(pool, { schema }),
    close: () => {
      closing = true;
      return pool.end();
    },
  };
}

export type HttpDb = NeonHttpDatabase<typeof schema>;

/**
 * The database over Neon's SQL-over-HTTP endpoint, for work that needs no interactive transaction:
 * each statement, or each `db.batch([...])` (one transaction), is one HTTP call, hence one round
 * trip, with no connection to open or close, so nothing to close either.
 */
export function openHttpDatabase(env: Pick<Env, 'DATABASE_URL' | 'DB_HTTP_ENDPOINT'>): HttpDb {
  if (env.DB_HTTP_ENDPOINT) neonConfig.fetchEndpoint = env.DB_HTTP_ENDPOINT;
  return drizzleHttp(neon(env.DATABASE_URL), { schema });
}
