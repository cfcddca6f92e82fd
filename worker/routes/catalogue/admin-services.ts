// Administrators' catalogue: all services with filters, edits, bulk actions, category and global
// markups with the margin settings, the CSV import, the margin guard's warnings, the rates, and the
// exchange rates and provider prices held for review.
import { type Context, type Env, Hono } from 'hono';
import { createMiddleware } from 'hono/factory';
import type { AppEnv } from '../../context';
import { AppError, invalid } from '../../lib/errors';
import { parseWith, pathId, validJson, validQuery } from '../../lib/validation';
import {
  adminServiceListQuerySchema,
  bulkServicesSchema,
  catalogueSettingsSchema,
  csvImportFieldsSchema,
  currencyParam,
  providerPriceAcceptSchema,
  rateReviewSchema,
  updateCategorySchema,
  updateServiceSchema,
  warningListQuerySchema,
} from '../../schemas/catalogue';
import { listPage, paginationSchema } from '../../schemas/common';
import {
  acceptProviderPrice,
  acceptRate,
  adminListCategories,
  adminListServices,
  adminService,
  bulkUpdateServices,
  catalogueSettingsView,
  getCatalogueSettings,
  importServicesCsv,
  listHeldProviderPrices,
  listRateReview,
  refreshRates,
  rejectRate,
  updateCatalogueSettings,
  updateCategory,
  updateService,
} from '../../services/catalogue';

import { acknowledgeWarning, listWarnings } from '../../services/oversight';

export const MAX_CSV_BYTES = 2 * 1024 * 1024;
const TOO_LARGE = 'The file is too large (at most 2 MB)';

const currencyOf = (c: Context<AppEnv>) => parseWith(currencyParam, c.req.param('currency'));

/** What `hc` clients send (the file, the provider id as text) and what the handler reads. */
type CsvUpload = { in: { form: { user_file: File; providerId: string } }; out: { form: { providerId: number; text: string } } };

/** The spec's file upload: multipart with the file in `user_file`, plus the form's fields; the handler reads `c.req.valid('form')`. */
const csvUpload = createMiddleware<Env, string, CsvUpload>(async (c, next) => {
  if (!(c.req.header('content-type') ?? '').includes('multipart/form-data')) {
    throw new AppError('unsupported_media', 'Upload the file as multipart/form-data in the field user_file');
  }
  if (Number(c.req.header('content-length') ?? '0') > MAX_CSV_BYTES) throw new AppError('too_large', TOO_LARGE);
  let form: Record<string, unknown>;
  try {
    form = await c.req.parseBody();
  } catch {
    throw invalid('Malformed form body.');
  }
  const file = form.user_file;
  if (!(file instanceof File)) throw invalid('Attach the CSV file in the field user_file');
  if (file.size > MAX_CSV_BYTES) throw new AppError('too_large', TOO_LARGE);
  const { providerId } = parseWith(csvImportFieldsSchema, form);
  c.req.addValidatedData('form', { providerId, text: await file.text() });
  await next();
});

export const adminServiceRoutes = new Hono<AppEnv>()
  .get('/', validQuery(adminServiceListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Services fetched successfully', query, await adminListServices(c.var.db, query)));
  })
  .get('/categories', async (c) => c.json({ message: 'Categories fetched successfully', data: await adminListCategories(c.var.db) }))
  .put('/categories/:id', validJson(updateCategorySchema), async (c) => {
    const id = pathId(c, 'category id');
    const input = c.req.valid('json');
    return c.json({ message: 'Category updated', data: await updateCategory(c.var.db, c.var.principal.id, id, input) });
  })
  .get('/settings', async (c) => c.json({ message: 'Catalogue settings', data: catalogueSettingsView(await getCatalogueSettings(c.var.db)) }))
  .put('/settings', validJson(catalogueSettingsSchema), async (c) => {
    const input = c.req.valid('json');
    return c.json({ message: 'Catalogue settings saved', data: await updateCatalogueSettings(c.var.db, c.var.principal.id, input) });
  })
  .get('/warnings', validQuery(warningListQuerySchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Warnings fetched successfully', query, await listWarnings(c.var.db, query)));
  })
  .post('/warnings/:id/acknowledge', async (c) => {
    await acknowledgeWarning(c.var.db, c.var.principal.id, pathId(c, 'warning id'));
    return c.json({ message: 'Warning acknowledged' });
  })
  .post('/bulk', validJson(bulkServicesSchema), async (c) => {
    const input = c.req.valid('json');
    const result = await bulkUpdateServices(c.var.db, c.var.principal.id, input);
    return c.json({ message: `${result.updated} services updated`, ...result });
  })
  .post('/import', csvUpload, async (c) => {
    const { providerId, text } = c.req.valid('form');
    const result = await importServicesCsv(c.var.db, c.env, c.var.principal.id, providerId, text);
    return c.json({ message: `${result.imported} services imported, ${result.failed} rows failed`, ...result });
  })
  .post('/rates/refresh', async (c) => {
    const data = await refreshRates(c.var.db, c.env);
    const message =
      data.held.length > 0 ? `Exchange rates refreshed; ${data.held.map((rate) => rate.currency).join(', ')} held for review` : 'Exchange rates refreshed';
    return c.json({ message, data });
  })
  .get('/rates', async (c) => c.json({ message: 'Exchange rates', data: await listRateReview(c.var.db) }))
  .post('/rates/:currency/accept', validJson(rateReviewSchema), async (c) => {
    const currency = currencyOf(c);
    const input = c.req.valid('json');
    const data = await acceptRate(c.var.db, c.env, c.var.principal.id, currency, input);
    return c.json({ message: `${currency} rate accepted; ${data.repriced} services repriced`, data });
  })
  .post('/rates/:currency/reject', validJson(rateReviewSchema), async (c) => {
    const currency = currencyOf(c);
    const input = c.req.valid('json');
    return c.json({ message: `${currency} rate rejected; the old rate stays`, data: await rejectRate(c.var.db, c.var.principal.id, currency, input) });
  })
  .get('/held-prices', validQuery(paginationSchema), async (c) => {
    const query = c.req.valid('query');
    return c.json(listPage('Held provider prices', query, await listHeldProviderPrices(c.var.db, c.env, query)));
  })
  .post('/:id/provider-price/accept', validJson(providerPriceAcceptSchema), async (c) => {
    const id = pathId(c, 'service id');
    const input = c.req.valid('json');
    return c.json({ message: 'Provider price accepted', data: await acceptProviderPrice(c.var.db, c.env, c.var.principal.id, id, input) });
  })
  .get('/:id', async (c) => c.json({ message: 'Service fetched successfully', data: await adminService(c.var.db, pathId(c, 'service id')) }))
  .put('/:id', validJson(updateServiceSchema), async (c) => {
    const id = pathId(c, 'service id');
    const input = c.req.valid('json');
    return c.json({ message: 'Service updated', data: await updateService(c.var.db, c.var.principal.id, id, input) });
  });
