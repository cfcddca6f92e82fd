// A user's favourite services, under user/ (guarded per route: other areas share the /user prefix).
import { type Context, Hono } from 'hono';
import type { AppEnv } from '../context';
import { parseWith } from '../lib/validation';
import { requireUser } from '../middleware/auth';
import { idParam } from '../schemas/common';
import { addFavorite, favoriteIds, listFavorites, removeFavorite } from '../services/favorites';

const serviceId = (c: Context<AppEnv>) => parseWith(idParam('service id'), c.req.param('serviceId'));

export const favoriteRoutes = new Hono<AppEnv>()
  .get('/favorites', requireUser, async (c) => c.json({ message: 'Favorites fetched successfully', data: await listFavorites(c.var.db, c.var.principal.id) }))
  // Before /favorites/:serviceId, which would take 'ids' for an id.
  .get('/favorites/ids', requireUser, async (c) => c.json({ message: 'Favorites fetched successfully', data: await favoriteIds(c.var.db, c.var.principal.id) }))
  .put('/favorites/:serviceId', requireUser, async (c) => {
    await addFavorite(c.var.db, c.var.principal.id, serviceId(c));
    return c.json({ message: 'Added to favorites', data: null });
  })
  .delete('/favorites/:serviceId', requireUser, async (c) => {
    await removeFavorite(c.var.db, c.var.principal.id, serviceId(c));
    return c.json({ message: 'Removed from favorites', data: null });
  });
