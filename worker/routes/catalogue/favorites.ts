// A user's favourite services, under user/ (guarded per route: other areas share the /user prefix).
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { pathId } from '../../lib/validation';
import { requireUser } from '../../middleware/auth';
import { addFavorite, favoriteIds, listFavorites, removeFavorite } from '../../services/catalogue';

export const favoriteRoutes = new Hono<AppEnv>()
  .get('/favorites', requireUser, async (c) => c.json({ message: 'Favorites fetched successfully', data: await listFavorites(c.var.db, c.var.principal.id) }))
  // Before /favorites/:serviceId, which would take 'ids' for an id.
  .get('/favorites/ids', requireUser, async (c) => c.json({ message: 'Favorites fetched successfully', data: await favoriteIds(c.var.db, c.var.principal.id) }))
  .put('/favorites/:serviceId', requireUser, async (c) => {
    await addFavorite(c.var.db, c.var.principal.id, pathId(c, 'service id', 'serviceId'));
    return c.json({ message: 'Added to favorites', data: null });
  })
  .delete('/favorites/:serviceId', requireUser, async (c) => {
    await removeFavorite(c.var.db, c.var.principal.id, pathId(c, 'service id', 'serviceId'));
    return c.json({ message: 'Removed from favorites', data: null });
  });
