import { sql } from 'drizzle-orm';
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { describeError } from '../../lib/db-errors';

export const healthRoutes = new Hono<AppEnv>().get('/', async (c) => {
  try {
    await c.var.db.execute(sql`select 1`);
    return c.json({ status: 'ok', db: 'ok' });
  } catch (error) {
    // The reason (host names, driver messages) is for the operators' log, not for whoever asks.
    c.var.log.error('health check: database unreachable', { error: describeError(error) });
    return c.json({ status: 'error', db: 'unreachable' }, 503);
  }
});
