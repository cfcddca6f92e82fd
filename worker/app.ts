// Composes the API from one sub-app per area. Cross-cutting concerns live here:
// request ids, the per-request database, the error contract and the JSON 404.
import { type Context, Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { cors } from 'hono/cors';
import { secureHeaders } from 'hono/secure-headers';
import type { AppEnv } from './context';
import { openDatabase } from './db';
import { describeError, isDatabaseUnavailable, isValueRejectedByDatabase } from './lib/db-errors';
import { AppError, internalError, invalid, notFound } from './lib/errors';
import { createLogger } from './lib/log';
import { MAX_JSON_BYTES } from './lib/validation';
import { accessLog } from './middleware/access-log';
import { requireAdmin } from './middleware/auth';
import { ProviderError } from './providers/http';
import { adminUserRoutes } from './routes/accounts/admin-users';
import { adminAdministratorRoutes } from './routes/accounts/administrators';
import { apiKeyRoutes } from './routes/accounts/api-keys';
import { authRoutes } from './routes/accounts/auth';
import { profileRoutes } from './routes/accounts/profile';
import { twoFactorRoutes } from './routes/accounts/two-factor';
import { adminProviderRoutes } from './routes/catalogue/admin-providers';
import { adminServiceRoutes, MAX_CSV_BYTES } from './routes/catalogue/admin-services';
import { favoriteRoutes } from './routes/catalogue/favorites';
import { rateRoutes } from './routes/catalogue/rates';
import { serviceRoutes } from './routes/catalogue/services';
import { adminDashboardRoutes } from './routes/dashboard/admin-dashboard';
import { adminReferralRoutes } from './routes/money/admin-referrals';
import { adminWalletRoutes } from './routes/money/admin-wallet';
import { referralRoutes } from './routes/money/referrals';
import { walletRoutes } from './routes/money/wallet';
import { webhookRoutes } from './routes/money/webhooks';
import { notificationRoutes, unsubscribeRoutes } from './routes/notifications/notifications';
import { adminOrderRoutes } from './routes/orders/admin-orders';
import { orderRoutes } from './routes/orders/orders';
import { providerWebhookRoutes } from './routes/orders/provider-webhooks';
import { adminAuditRoutes } from './routes/oversight/admin-audit';
import { resellerApiRoutes } from './routes/reseller/reseller-api';
import { webhookEndpointRoutes } from './routes/reseller/webhooks';
import { adminSettingsRoutes, publicSettingsRoutes } from './routes/settings/settings';
import { crawlerRoutes } from './routes/site/crawlers';
import { healthRoutes } from './routes/site/health';
import { adminTicketRoutes } from './routes/support/admin-tickets';
import { ticketRoutes } from './routes/support/tickets';

export const app = new Hono<AppEnv>();

/**
 * Sets a header of the finished answer in place. c.header() would copy the whole Response to do it (twice a
 * request, a tenth of a simple read's own work); an answer whose headers cannot change still goes that way.
 */
function setAnswerHeader(c: Context<AppEnv>, name: string, value: string) {
  try {
    c.res.headers.set(name, value);
  } catch {
    c.header(name, value);
  }
}

// Outermost, so the line carries the final status (after onError) and the whole duration.
app.use('*', accessLog);

app.use('*', async (c, next) => {
  const requestId = crypto.randomUUID();
  c.set('requestId', requestId);
  c.set('log', createLogger({ requestId }));
  const { db, close, pooled } = openDatabase(c.env);
  c.set('db', db);
  try {
    await next();
  } finally {
    // Only a transaction's Pool has anything to close; most requests open none.
    if (pooled()) c.executionCtx.waitUntil(close().catch(() => {}));
    setAnswerHeader(c, 'x-request-id', requestId);
  }
});

// The API answers JSON only: nothing in it may be framed, sniffed or run as a page.
app.use(
  '*',
  secureHeaders({
    contentSecurityPolicy: { defaultSrc: ["'none'"], frameAncestors: ["'none'"] },
    strictTransportSecurity: 'max-age=63072000; includeSubDomains',
    referrerPolicy: 'strict-origin-when-cross-origin',
    xFrameOptions: 'DENY',
  }),
);

// Answers with tokens or personal data must stay out of browser and proxy caches (a shared phone, a
// carrier's proxy); only the public catalogue, settings and rates may be kept.
const CACHEABLE_GETS = new Set(['/api/v1/services', '/api/v1/services/categories', '/api/v1/settings/public', '/api/v1/rates']);
app.use('/api/*', async (c, next) => {
  await next();
  const cacheable = (c.req.method === 'GET' || c.req.method === 'HEAD') && CACHEABLE_GETS.has(c.req.path) && c.res.ok;
  if (!cacheable) setAnswerHeader(c, 'Cache-Control', 'no-store');
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
  .route('/user', webhookEndpointRoutes)
  .route('/user', ticketRoutes)
  .route('/user', favoriteRoutes)
  .route('/user', referralRoutes)
  .route('/user', notificationRoutes)
  .route('/notifications', unsubscribeRoutes)
  .route('/services', serviceRoutes)
  .route('/rates', rateRoutes)
  .route('/webhooks', webhookRoutes)
  .route('/webhooks/providers', providerWebhookRoutes)
  .route('/admin', admin);

/** The /api/v1 routes' inputs and answers, for the SPA's typed client (`hc<AppType>('/api/v1')`). */
export type AppType = typeof api;

app.route('/api/v1', api);
app.route('/', crawlerRoutes);

// The reseller API: its own protocol and error shape (routes/reseller/reseller-api.ts), open to every origin
// because reseller tools call it from browsers too; the key travels in the request, never in cookies.
app.use(
  '/api/v2/*',
  cors({ allowMethods: ['GET', 'POST'], exposeHeaders: ['Retry-After', 'X-RateLimit-Limit', 'X-RateLimit-Remaining', 'X-RateLimit-Reset'], maxAge: 86_400 }),
);
// Tools are set up with or without the trailing slash; both reach it.
for (const path of ['/api/v2', '/api/v2/']) app.route(path, resellerApiRoutes);

/** The one place an error answer of /api/v1 is written. */
const answerError = (c: Context<AppEnv>, error: AppError) => c.json(error.toBody(c.get('requestId')), error.status);

// Answered here rather than thrown: a throw would skip the work after next() of the innermost middleware.
app.notFound((c) => answerError(c, notFound()));

app.onError((error, c) => answerError(c, asAppError(error, c)));

/** Every failure the API answers, as the AppError whose body it gets; the unexpected ones are logged here. */
function asAppError(error: Error, c: Context<AppEnv>): AppError {
  if (error instanceof AppError) return error;
  if (error instanceof ProviderError) {
    c.var.log.warn('outside service failed', { path: c.req.path, kind: error.kind, error: error.message });
    return error.kind === 'unavailable'
      ? new AppError('unavailable', 'A partner service is not answering right now. Please try again in a moment.', { code: 'provider_unavailable' })
      : new AppError('upstream', `A partner service refused the request: ${error.message}`, { code: 'provider_refused' });
  }
  if (isValueRejectedByDatabase(error)) {
    // A schema let through a value Postgres cannot hold; warn so the schema can say precisely what is wrong.
    c.var.log.warn('database rejected an input value', { method: c.req.method, path: c.req.path, error: describeError(error) });
    return invalid();
  }
  if (isDatabaseUnavailable(error)) {
    // Postgres rolls back the transaction of a lost connection, so the caller may simply retry.
    c.var.log.warn('database unavailable', { method: c.req.method, path: c.req.path, error: describeError(error) });
    return new AppError('unavailable', 'The service is briefly unavailable. Please try again in a moment.', { code: 'database_unavailable' });
  }
  c.var.log.error('unhandled error', { method: c.req.method, path: c.req.path, error: describeError(error) });
  return internalError();
}
