import { neon, neonConfig, Pool, type PoolClient } from '@neondatabase/serverless';
import { drizzle as drizzleHttp, type NeonHttpDatabase } from 'drizzle-orm/neon-http';
import { drizzle, type NeonDatabase } from 'drizzle-orm/neon-serverless';
import * as schema from '../drizzle/schema';
import type { Env } from './env';
import { log } from './lib/log';

type HttpDb = NeonHttpDatabase<typeof schema>;
type PoolDb = NeonDatabase<typeof schema>;

/**
 * The database as services see it: every statement, and every `db.batch([...])` (one transaction),
 * is one call to Neon's SQL-over-HTTP endpoint, one round trip with no connection to open.
 * `transaction(fn)`, for work that runs application code between its statements, goes over a
 * WebSocket Pool instead, opened on the first such call: a new WebSocket costs about four round
 * trips at the edge, so only the requests that need one pay for it.
 * Typed as the Pool's database (its query results have the same rows, rowCount and fields) plus the
 * HTTP batch, so that a Db and a transaction's Tx build the same query types and DbOrTx takes both.
 */
export type Db = Omit<PoolDb, '$client'> & Pick<HttpDb, 'batch'>;
/** A transaction handle, accepted wherever a service may run inside a caller's transaction. */
export type Tx = Parameters<Parameters<PoolDb['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * The Pool is per request (or per scheduled run, per queue batch): Workers forbid sharing a socket
 * across requests ("Cannot perform I/O on behalf of a different request"), so the caller closes it
 * with waitUntil(close()).
 */
export interface OpenDatabase {
  db: Db;
  /** Ends the Pool if a transaction opened one; the Worker calls it through waitUntil once the answer is sent. */
  close(): Promise<void>;
  /** Whether a transaction opened the Pool, so that close() has anything to do. */
  pooled(): boolean;
}

type DatabaseEnv = Pick<Env, 'DATABASE_URL' | 'DB_WS_PROXY' | 'DB_HTTP_ENDPOINT'>;

/**
 * A database over a WebSocket Pool alone: the request database's transactions, and the bench's
 * measure of the WebSocket path (local/bench).
 */
export function openPoolDatabase(env: Pick<Env, 'DATABASE_URL' | 'DB_WS_PROXY'>): { db: PoolDb; close(): Promise<void> } {
  if (env.DB_WS_PROXY) {
    const proxy = env.DB_WS_PROXY;
    neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    // The local cluster asks for a cleartext password as Neon does (initdb --auth=password), so the
    // start-up, the password and the first query go in one flight, as against Neon.
    neonConfig.pipelineConnect = 'password';
  }
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 5 });
  let closing = false;
  // Idle sockets report "Network connection lost" as they are torn down at the end; only
  // errors before that are news. They must fail their request, not crash the isolate.
  pool.on('error', (error: unknown) => {
    if (closing) return;
    const message = error instanceof Error ? error.message : ((error as { message?: string })?.message ?? String(error));
    log.error('database pool error', { error: message });
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

// The HTTP side holds no connection or other I/O of a request (each call is its own fetch), so one per
// isolate and connection string serves every request without being built again for each.
const httpDatabases = new Map<string, HttpDb>();

function httpDatabase(connectionString: string): HttpDb {
  let http = httpDatabases.get(connectionString);
  if (!http) {
    http = drizzleHttp(neon(connectionString), { schema });
    httpDatabases.set(connectionString, http);
  }
  return http;
}

export function openDatabase(env: DatabaseEnv): OpenDatabase {
  // Unset in production, where the driver asks Neon's own endpoint, named after the database's host.
  if (env.DB_HTTP_ENDPOINT) neonConfig.fetchEndpoint = env.DB_HTTP_ENDPOINT;
  const http = httpDatabase(env.DATABASE_URL);
  let pool: ReturnType<typeof openPoolDatabase> | undefined;
  const transaction: PoolDb['transaction'] = (work, config) => {
    pool ??= openPoolDatabase(env);
    return pool.db.transaction(work, config);
  };
  const db = new Proxy(http, {
    get: (target, property, receiver) => (property === 'transaction' ? transaction : Reflect.get(target, property, receiver)),
  }) as unknown as Db;
  return { db, close: async () => pool?.close(), pooled: () => pool !== undefined };
}
