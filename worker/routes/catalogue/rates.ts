// USD-based exchange rates for the SPA's currency display (spec section 7), from the cache.
import { Hono } from 'hono';
import type { AppEnv } from '../../context';
import { listRates } from '../../services/catalogue';

export const rateRoutes = new Hono<AppEnv>().get('/', async (c) => c.json({ message: 'Exchange rates', data: await listRates(c.var.db, c.env) }));
