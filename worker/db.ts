import { Pool, neonConfig } from '@neondatabase/serverless';
import { drizzle, type NeonDatabase } from 'drizzle-orm/neon-serverless';
import * as schema from '../drizzle/schema';
import type { Env } from './env';

export type Db = NeonDatabase<typeof schema>;
/** A transaction handle, accepted wherever a service may run inside a caller's transaction. */
export type Tx = Parameters<Parameters<Db['transaction']>[0]>[0];
export type DbOrTx = Db | Tx;

/**
 * A Pool per request: Workers forbid sharing a socket across requests ("Cannot perform
 * I/O on behalf of a different request"), so the caller ends it with waitUntil(pool.end()).
 */
export function openDatabase(env: Pick<Env, 'DATABASE_URL' | 'DB_WS_PROXY'>): { db: Db; pool: Pool } {
  if (env.DB_WS_PROXY) {
    const proxy = env.DB_WS_PROXY;
    neonConfig.wsProxy = (host, port) => `${proxy}?address=${host}:${port}`;
    neonConfig.useSecureWebSocket = false;
    neonConfig.pipelineConnect = false;
  }
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 5 });
  // A dropped connection must fail the request it belongs to, not crash the isolate.
  pool.on('error', (error: unknown) => console.error(JSON.stringify({ level: 'error', msg: 'database pool error', error: error instanceof Error ? error.message : (error as { message?: string })?.message ?? String(error) })));
  return { db: drizzle(pool, { schema }), pool };
}
