// A user's reseller API keys, under user/ (guarded per route: other areas share the /user prefix).
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId, validJson } from '../../lib/validation';
import { requireUser } from '../../middleware/auth';
import { createApiKeySchema } from '../../schemas/api-keys';
import { apiKeysQuery, apiKeysView, createApiKey, revokeApiKey, rotateApiKey } from '../../services/accounts';
import { resellerApiSettingsOf, resellerApiSettingsQuery } from '../../services/settings';

export const apiKeyRoutes = new Hono<AppEnv>()
  .get('/api-keys', requireUser, async (c) => {
    const [rows, settingsRows] = await c.var.db.batch([apiKeysQuery(c.var.db, c.var.principal.id), resellerApiSettingsQuery(c.var.db)]);
    const { live, revoked } = apiKeysView(rows);
    // What the keys may do, for the API page's documentation: the operator's limits and GET rule.
    const { perMinute, refuseWritesOverGet } = resellerApiSettingsOf(settingsRows);
    return c.json({ message: 'API keys fetched successfully', data: live, revoked, limits: { perMinute, writesOverGet: !refuseWritesOverGet } });
  })
  .post('/api-keys', requireUser, validJson(createApiKeySchema), async (c) => {
    const { name } = c.req.valid('json');
    const data = await createApiKey(c.var.db, c.var.principal.id, name);
    return c.json({ message: 'API key created. Copy it now: it is shown only once.', data }, 201);
  })
  .post('/api-keys/:id/rotate', requireUser, async (c) => {
    const data = await rotateApiKey(c.var.db, c.var.principal.id, pathId(c, 'API key id'));
    return c.json({ message: 'API key rotated. Copy the new key now: it is shown only once.', data });
  })
  .delete('/api-keys/:id', requireUser, async (c) => {
    await revokeApiKey(c.var.db, c.var.principal.id, pathId(c, 'API key id'));
    return c.json({ message: 'API key revoked' });
  });
