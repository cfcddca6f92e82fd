// Administrators' catalogue: all services with filters, edits, bulk actions, category and global
// markups with the margin settings, the CSV import, the margin guard's warnings, the rates, and the
// exchange rates and provider prices held for review.
import { Hono, type Context } from 'hono';
import type { AppEnv } from '../../context';
import { AppError, invalid } from '../../lib/errors';
import { jsonBody, parseWith, queryOf } from '../../lib/validation';
import {
  adminServiceListQuerySchema, bulkServicesSchema, catalogueSettingsSchema, csvImportFieldsSchema, currencyParam, providerPriceAcceptSchema,
  rateReviewSchema, updateCategorySchema, updateServiceSchema, warningListQuerySchema,
} from '../../schemas/catalogue';
import { idParam, paginationSchema } from '../../schemas/common';
import { adminListCategories, adminListServices, adminService } from '../../services/catalogue';
import { bulkUpdateServices, catalogueSettingsView, updateCatalogueSettings, updateCategory, updateService } from '../../services/catalogue-edits';
import { importServicesCsv } from '../../services/catalogue-import';
import { acknowledgeWarning, getCatalogueSettings, listWarnings } from '../../services/margin';
import { acceptProviderPrice, acceptRate, listHeldProviderPrices, listRateReview, rejectRate } from '../../services/price-review';
import { refreshRates } from '../../services/rates';

export const MAX_CSV_BYTES = 2 * 1024 * 1024;
const TOO_LARGE = 'The file is too large (at most 2 MB)';

const idOf = (c: Context<AppEnv>, name: string) => parseWith(idParam(name), c.req.param('id'));
const currencyOf = (c: Context<AppEnv>) => parseWith(currencyParam, c.req.param('currency'));

/** The spec's file upload: multipart with the file in `user_file`, plus the form's fields. */
async function uploadedCsv(c: Context<AppEnv>): Promise<{ providerId: number; text: string }> {
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
  return { providerId, text: await file.text() };
}

export const adminServiceRoutes = new Hono<AppEnv>()
  .get('/', async (c) => {
    const query = queryOf(c, adminServiceListQuerySchema);
    const { data, total } = await adminListServices(c.var.db, query);
    return c.json({ message: 'Services fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  .get('/categories', async (c) => c.json({ message: 'Categories fetched successfully', data: await adminListCategories(c.var.db) }))
  .put('/categories/:id', async (c) => {
    const id = idOf(c, 'category id');
    const input = await jsonBody(c, updateCategorySchema);
    return c.json({ message: 'Category updated', data: await updateCategory(c.var.db, c.var.principal.id, id, input) });
  })
  .get('/settings', async (c) => c.json({ message: 'Catalogue settings', data: catalogueSettingsView(await getCatalogueSettings(c.var.db)) }))
  .put('/settings', async (c) => {
    const input = await jsonBody(c, catalogueSettingsSchema);
    return c.json({ message: 'Catalogue settings saved', data: await updateCatalogueSettings(c.var.db, c.var.principal.id, input) });
  })
  .get('/warnings', async (c) => {
    const query = queryOf(c, warningListQuerySchema);
    const { data, total } = await listWarnings(c.var.db, query);
    return c.json({ message: 'Warnings fetched successfully', data, page: query.page, limit: query.limit, total });
  })
  .post('/warnings/:id/acknowledge', async (c) => {
    await acknowledgeWarning(c.var.db, c.var.principal.id, idOf(c, 'warning id'));
    return c.json({ message: 'Warning acknowledged' });
  })
  .post('/bulk', async (c) => {
    const input = await jsonBody(c, bulkServicesSchema);
    const result = await bulkUpdateServices(c.var.db, c.var.principal.id, input);
    return c.json({ message: `${result.updated} services updated`, ...result });
  })
  .post('/import', async (c) => {
    const { providerId, text } = await uploadedCsv(c);
    const result = await importServicesCsv(c.var.db, c.env, c.var.principal.id, providerId, text);
    return c.json({ message: `${result.imported} services imported, ${result.failed} rows failed`, ...result });
  })
  .post('/rates/refresh', async (c) => {
    const data = await refreshRates(c.var.db, c.env);
    const message = data.held.length > 0 ? `Exchange rates refreshed; ${data.held.map((rate) => rate.currency).join(', ')} held for review` : 'Exchange rates refreshed';
    return c.json({ message, data });
  })
  .get('/rates', async (c) => c.json({ message: 'Exchange rates', data: await listRateReview(c.var.db) }))
  .post('/rates/:currency/accept', async (c) => {
    const currency = currencyOf(c);
    const input = await jsonBody(c, rateReviewSchema);
    const data = await acceptRate(c.var.db, c.env, c.var.principal.id, currency, input);
    return c.json({ message: `${currency} rate accepted; ${data.repriced} services repriced`, data });
  })
  .post('/rates/:currency/reject', async (c) => {
    const currency = currencyOf(c);
    const input = await jsonBody(c, rateReviewSchema);
    return c.json({ message: `${currency} rate rejected; the old rate stays`, data: await rejectRate(c.var.db, c.var.principal.id, currency, input) });
  })
  .get('/held-prices', async (c) => {
    const query = queryOf(c, paginationSchema);
    const { data, total } = await listHeldProviderPrices(c.var.db, c.env, query);
    return c.json({ message: 'Held provider prices', data, page: query.page, limit: query.limit, total });
  })
  .post('/:id/provider-price/accept', async (c) => {
    const id = idOf(c, 'service id');
    const input = await jsonBody(c, providerPriceAcceptSchema);
    return c.json({ message: 'Provider price accepted', data: await acceptProviderPrice(c.var.db, c.env, c.var.principal.id, id, input) });
  })
  .get('/:id', async (c) => c.json({ message: 'Service fetched successfully', data: await adminService(c.var.db, idOf(c, 'service id')) }))
  .put('/:id', async (c) => {
    const id = idOf(c, 'service id');
    const input = await jsonBody(c, updateServiceSchema);
    return c.json({ message: 'Service updated', data: await updateService(c.var.db, c.var.principal.id, id, input) });
  });
