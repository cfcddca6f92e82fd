// What the operator sets about the reseller API (/api/v2): how many calls of each kind one key may make in a minute,
// and whether writes (add, refill, cancel) sent over GET are refused. Defaults in code, sized for busy resellers.
import { eq } from 'drizzle-orm';
import { settings } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import { type ResellerApiSettings, resellerApiSettingsSchema } from '../../schemas/settings';
import { fieldChanges, recordAudit } from '../oversight';
import { saveSetting } from './settings';

const KEY = 'reseller_api';

/**
 * A child panel polls `status` for its open orders (up to 100 ids a call) and places orders in bursts; GET is allowed
 * because many bots build GET URLs, and the API page tells the key's owner when one was seen.
 */
export const DEFAULT_RESELLER_API_SETTINGS: ResellerApiSettings = {
  refuseWritesOverGet: false,
  perMinute: { add: 600, status: 1200, services: 60, balance: 600 },
};

/** The saved document, as a query that can travel in a caller's batch (read it with resellerApiSettingsOf). */
export const resellerApiSettingsQuery = (db: DbOrTx) => db.select({ value: settings.value }).from(settings).where(eq(settings.key, KEY));

/** The saved settings over the defaults; a document this code cannot read counts as never saved. */
export function resellerApiSettingsOf(rows: { value: unknown }[]): ResellerApiSettings {
  const saved = rows[0]?.value as Partial<ResellerApiSettings> | undefined;
  const merged = { ...DEFAULT_RESELLER_API_SETTINGS, ...saved, perMinute: { ...DEFAULT_RESELLER_API_SETTINGS.perMinute, ...saved?.perMinute } };
  const parsed = resellerApiSettingsSchema.safeParse(merged);
  return parsed.success ? parsed.data : DEFAULT_RESELLER_API_SETTINGS;
}

export async function getResellerApiSettings(db: DbOrTx): Promise<ResellerApiSettings> {
  return resellerApiSettingsOf(await resellerApiSettingsQuery(db));
}

export async function updateResellerApiSettings(db: Db, actorId: number, input: ResellerApiSettings): Promise<ResellerApiSettings> {
  // Interactive only because saveSetting runs its own statement; an administrator's rare save.
  await db.transaction(async (tx) => {
    const before = await getResellerApiSettings(tx);
    await saveSetting(tx, KEY, input, actorId);
    await recordAudit(tx, {
      actorId,
      action: 'settings.reseller_api.update',
      target: { type: 'settings', id: KEY },
      details: { ...input, changes: fieldChanges(before, input) },
    });
  });
  return input;
}
