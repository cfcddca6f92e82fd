import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../context';

export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  try {
    await c.var.db.execute(sql`select 1`);
    return c.json({ status: 'ok', db: 'ok' });
  } catch (error) {
    const reason = error instanceof Error ? error.message : String(error);
    console.error(JSON.stringify({ level: 'error', msg: 'health check: database unreachable', requestId: c.var.requestId, error: reason }));
    return c.json({ status: 'error', db: `unreachable: ${reason}` }, 503);
  }
});
