// Composes the API from one sub-app per area. Cross-cutting concerns live here:
// request ids, the per-request database, the error contract and the JSON 404.
import { Hono } from 'hono';
import type { AppEnv } from './context';
import { openDatabase } from './db';
import { AppError, STATUS_MESSAGES } from './lib/errors';
import { requireAdmin } from './middleware/auth';
import { adminUserRoutes } from './routes/admin/users';
import { authRoutes } from './routes/auth';
import { healthRoutes } from './routes/health';
import { profileRoutes } from './routes/profile';

export const app = new Hono<AppEnv>();

app.use('*', async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set('requestId', requestId);
  const { db, pool } = openDatabase(c.env);
  c.set('db', db);
  try {
    await next();
  } finally {
    c.executionCtx.waitUntil(pool.end().catch(() => {}));
    c.header('x-request-id', requestId);
  }
});

const admin = new Hono<AppEnv>()
  .use(requireAdmin)
  .route('/users', adminUserRoutes);

const api = new Hono<AppEnv>()
  .route('/health', healthRoutes)
  .route('/auth', authRoutes)
  .route('/user', profileRoutes)
  .route('/admin', admin);

app.route('/api/v1', api);

app.notFound((c) => c.json({ message: STATUS_MESSAGES[404], error: 'Not Found' }, 404));

app.onError((error, c) => {
  if (error instanceof AppError) return c.json(error.toBody(), error.status);
  console.error(JSON.stringify({
    level: 'error', msg: 'unhandled error', requestId: c.var.requestId, method: c.req.method, path: c.req.path,
    error: error instanceof Error ? `${error.name}: ${error.message}` : String(error),
  }));
  return c.json({ message: STATUS_MESSAGES[500], error: 'Internal Server Error' }, 500);
});
