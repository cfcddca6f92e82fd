// Composes the API from one sub-app per area. Cross-cutting concerns live here:
// request ids, the per-request database, the error contract and the JSON 404.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './context';
import { openDatabase } from './db';
import { describeError, isDatabaseUnavailable, isValueRejectedByDatabase } from './lib/db-errors';
import { AppError, STATUS_MESSAGES } from './lib/errors';
import { MAX_JSON_BYTES } from './lib/validation';
import { accessLog } from './middleware/access-log';
import { requireAdmin } from './middleware/auth';
import { ProviderError } from './providers/http';
import { adminAdministratorRoutes } from './routes/admin/administrators';
import { adminAuditRoutes } from './routes/admin/audit';
import { adminDashboardRoutes } from './routes/admin/dashboard';
import { adminOrderRoutes } from './routes/admin/orders';
import { adminProviderRoutes } from './routes/admin/providers';
import { adminReferralRoutes } from './routes/admin/referrals';
import { adminServiceRoutes, MAX_CSV_BYTES } from './routes/admin/services';
import { adminTicketRoutes } from './routes/admin/tickets';
import { adminUserRoutes } from './routes/admin/users';
import { adminWalletRoutes } from './routes/admin/wallet';
import { apiKeyRoutes } from './routes/api-keys';
import { authRoutes } from './routes/auth';
import { crawlerRoutes } from './routes/crawlers';
import { favoriteRoutes } from './routes/favorites';
import { healthRoutes } from './routes/health';
import { notificationRoutes, unsubscribeRoutes } from './routes/notifications';
import { orderRoutes } from './routes/orders';
import { profileRoutes } from './routes/profile';
import { rateRoutes } from './routes/rates';
import { referralRoutes } from './routes/referrals';
import { resellerApiRoutes } from './routes/reseller-api';
import { serviceRoutes } from './routes/services';
import { ticketRoutes } from './routes/tickets';
import { adminSettingsRoutes, publicSettingsRoutes } from './routes/settings';
import { walletRoutes } from './routes/wallet';
import { twoFactorRoutes } from './routes/two-factor';
import { webhookRoutes } from './routes/webhooks';

export const app = new Hono<AppEnv>();

// Outermost, so the line carries the final status (after onError) and the whole duration.
app.use('*', accessLog);

app.use('*', async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set('requestId', requestId);
  const { db, close } = openDatabase(c.env);
  c.set('db', db);
  try {
    await next();
  } finally {
    c.executionCtx.waitUntil(close().catch(() => {}));
    c.header('x-request-id', requestId);
  }
});

// The API answers JSON only: nothing in it may be framed, sniffed or run as a page.
app.use('*', secureHeaders({
  contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
  strictTransportSecurity: 'max-age=63072000; includeSubDomains',
  referrerPolicy: 'strict-origin-when-cross-origin',
  xFrameOptions: 'DENY',
}));

// Answers with tokens or personal data must stay out of browser and proxy caches (a shared phone, a
// carrier's proxy); only the public catalogue, settings and rates may be kept.
const CACHEABLE_GETS = new Set(['/api/v1/services', '/api/v1/services/categories', '/api/v1/settings/public', '/api/v1/rates']);
app.use('/api/*', async (c, next) => {
  await next();
  const cacheable = (c.req.method === 'GET' || c.req.method === 'HEAD') && CACHEABLE_GETS.has(c.req.path) && c.res.ok;
  if (!cacheable) c.header('Cache-Control', 'no-store');
});

const tooLarge = () => {
  throw new AppError('too_large', 'Request body is too large.');
};
const jsonBodyLimit = bodyLimit({ maxSize: MAX_JSON_BYTES, onError: tooLarge });
const uploadBodyLimit = bodyLimit({ maxSize: MAX_CSV_BYTES, onError: tooLarge });
// Refused as they stream in (a declared length before the first byte is read), never read whole first.
app.use('/api/v1/*', (c, next) => (c.req.path === '/api/v1/admin/services/import' ? uploadBodyLimit : jsonBodyLimit)(c, next));

const admin = new Hono<AppEnv>()
  .use(requireAdmin)
  .route('/users', adminUserRoutes)
  .route('/providers', adminProviderRoutes)
  .route('/services', adminServiceRoutes)
  .route('/orders', adminOrderRoutes)
  .route('/tickets', adminTicketRoutes)
  .route('/referrals', adminReferralRoutes)
  .route('/settings', adminSettingsRoutes)
  .route('/dashboard', adminDashboardRoutes)
  .route('/administrators', adminAdministratorRoutes)
  .route('/audit', adminAuditRoutes)
  .route('/', adminWalletRoutes);

const api = new Hono<AppEnv>()
  .route('/health', healthRoutes)
  .route('/auth', authRoutes)
  .route('/auth/2fa', twoFactorRoutes)
  .route('/settings', publicSettingsRoutes)
  .route('/user', profileRoutes)
  .route('/user', walletRoutes)
  .route('/user', orderRoutes)
  .route('/user', apiKeyRoutes)
  .route('/user', ticketRoutes)
  .route('/user', favoriteRoutes)
  .route('/user', referralRoutes)
  .route('/user', notificationRoutes)
  .route('/notifications', unsubscribeRoutes)
  .route('/services', serviceRoutes)
  .route('/rates', rateRoutes)
  .route('/webhooks', webhookRoutes)
  .route('/admin', admin);

app.route('/api/v1', api);
app.route('/', crawlerRoutes);

// The reseller API: its own protocol and error shape (routes/reseller-api.ts), open to every origin
// because reseller tools call it from browsers too; the key travels in the request, never in cookies.
app.use('/api/v2/*', cors({ allowMethods: ['GET', 'POST'], exposeHeaders: ['Retry-After'], maxAge: 86_400 }));
// Tools are set up with or without the trailing slash; both reach it.
for (const path of ['/api/v2', '/api/v2/']) app.route(path, resellerApiRoutes);

app.notFound((c) => c.json({ message: STATUS_MESSAGES[404], error: 'Not Found' }, 404));

app.onError((error, c) => {
  if (error instanceof AppError) return c.json(error.toBody(), error.status);
  if (error instanceof ProviderError) {
    console.error(JSON.stringify({ level: 'warn', msg: 'outside service failed', requestId: c.var.requestId, path: c.req.path, kind: error.kind, error: error.message }));
    return error.kind === 'unavailable'
      ? c.json({ message: 'A partner service is not answering right now. Please try again in a moment.', error: 'Service Unavailable' }, 503)
      : c.json({ message: `A partner service refused the request: ${error.message}`, error: 'Bad Gateway' }, 502);
  }
  if (isValueRejectedByDatabase(error)) {
    // A schema let through a value Postgres cannot hold; warn so the schema can say precisely what is wrong.
    console.error(JSON.stringify({ level: 'warn', msg: 'database rejected an input value', requestId: c.var.requestId, method: c.req.method, path: c.req.path, error: describeError(error) }));
    return c.json({ message: STATUS_MESSAGES[400], error: 'Bad Request' }, 400);
  }
  if (isDatabaseUnavailable(error)) {
    // Postgres rolls back the transaction of a lost connection, so the caller may simply retry.
    console.error(JSON.stringify({ level: 'warn', msg: 'database unavailable', requestId: c.var.requestId, method: c.req.method, path: c.req.path, error: describeError(error) }));
    return c.json({ message: 'The service is briefly unavailable. Please try again in a moment.', error: 'Service Unavailable' }, 503);
  }
  console.error(JSON.stringify({
    level: 'error', msg: 'unhandled error', requestId: c.var.requestId, method: c.req.method, path: c.req.path,
    error: describeError(error),
  }));
  return c.json({ message: STATUS_MESSAGES[500], error: 'Internal Server Error' }, 500);
});
