// Cron: each enabled provider's balance, checked on its own schedule. It used to be read only with a
// catalogue refresh, so a provider whose catalogue had just been imported (a new one, or the local
// stack's seeded one) showed "not checked yet" for half an hour, and one whose catalogue failed to
// sync was never checked at all.
import { and, eq, isNull, lt, or } from 'drizzle-orm';
import { providers } from '../../../drizzle/schema';
import type { Db } from '../../db';
import { log } from '../../lib/log';
import { checkProviderBalance, type ProviderEnv } from './providers';

/** A balance older than this is read again; a provider never checked is read at the next run. */
export const BALANCE_MAX_AGE_MS = 30 * 60_000;

/** Enabled providers whose balance was never read, or not for BALANCE_MAX_AGE_MS. */
export function providersDueForBalanceCheck(db: Db) {
  return db
    .select({ id: providers.id, name: providers.name })
    .from(providers)
    .where(and(eq(providers.enabled, true), or(isNull(providers.balanceCheckedAt), lt(providers.balanceCheckedAt, new Date(Date.now() - BALANCE_MAX_AGE_MS)))));
}

export async function checkProviderBalances(db: Db, env: ProviderEnv): Promise<{ checked: number; errors: string[] }> {
  const due = await providersDueForBalanceCheck(db);
  const errors: string[] = [];
  let checked = 0;
  for (const provider of due) {
    try {
      await checkProviderBalance(db, env, provider.id);
      checked += 1;
    } catch (error) {
      // Left unchecked, so the next run tries again; the dashboard says the last try failed.
      const message = error instanceof Error ? error.message : String(error);
      errors.push(`${provider.name} balance: ${message}`);
      log.warn('provider balance check failed', { providerId: provider.id, error: message });
      await db.update(providers).set({ lastError: message }).where(eq(providers.id, provider.id));
    }
  }
  return { checked, errors };
}
