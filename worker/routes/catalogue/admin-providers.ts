// Administrators' upstream providers: CRUD (the key is write-only), balance, the provider's live
// catalogue, importing services from it, and its catalogue sync on demand.
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validJson } from '../../lib/validation';
import { createProviderSchema, importServicesSchema, updateProviderSchema } from '../../schemas/catalogue';
import {
  checkProviderBalance,
  createProvider,
  deleteProvider,
  importFromProvider,
  listProviders,
  providerCatalogue,
  providerDetail,
  syncProviderCatalogue,
  updateProvider,
} from '../../services/catalogue';

export const adminProviderRoutes = new Hono<AppEnv>()
  .get('/', async (c) => c.json({ message: 'Providers fetched successfully', data: await listProviders(c.var.db) }))
  .post('/', validJson(createProviderSchema), async (c) => {
    const input = c.req.valid('json');
    return c.json({ message: 'Provider added', data: await createProvider(c.var.db, c.env, c.var.principal.id, input) }, 201);
  })
  .get('/:id', async (c) => c.json({ message: 'Provider fetched successfully', data: await providerDetail(c.var.db, pathId(c, 'provider id')) }))
  .put('/:id', validJson(updateProviderSchema), async (c) => {
    const id = pathId(c, 'provider id');
    const input = c.req.valid('json');
    return c.json({ message: 'Provider updated', data: await updateProvider(c.var.db, c.env, c.var.principal.id, id, input) });
  })
  .delete('/:id', async (c) => {
    await deleteProvider(c.var.db, c.var.principal.id, pathId(c, 'provider id'));
    return c.json({ message: 'Provider deleted' });
  })
  .get('/:id/balance', async (c) => c.json({ message: 'Provider balance', data: await checkProviderBalance(c.var.db, c.env, pathId(c, 'provider id')) }))
  .get('/:id/services', async (c) => c.json({ message: 'Provider services', ...(await providerCatalogue(c.var.db, c.env, pathId(c, 'provider id'))) }))
  .post('/:id/import', validJson(importServicesSchema), async (c) => {
    const id = pathId(c, 'provider id');
    const input = c.req.valid('json');
    const result = await importFromProvider(c.var.db, c.env, c.var.principal.id, id, input);
    return c.json({ message: `${result.created} services imported`, ...result });
  })
  .post('/:id/sync', async (c) => c.json({ message: 'Catalogue synced', data: await syncProviderCatalogue(c.var.db, c.env, pathId(c, 'provider id')) }));
