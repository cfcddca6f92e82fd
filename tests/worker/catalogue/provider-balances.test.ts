// A provider's balance is read by the cron on its own schedule, not only with a catalogue refresh: a
// provider whose catalogue was just imported (a new one, the local stack's seeded one) is read at the
// next run instead of showing "not checked yet" for half an hour.
import { env } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { providers } from '../../../drizzle/schema';
import { scheduledJobs } from '../../../worker/scheduled';
import { BALANCE_MAX_AGE_MS, providersDueForBalanceCheck } from '../../../worker/services/catalogue/provider-balances';
import { checkProviderBalance } from '../../../worker/services/catalogue/providers';
import { withDb } from '../../support/api';
import { newShop } from '../fixtures/shop-fixtures';

const isDue = async (providerId: number) => (await withDb(providersDueForBalanceCheck)).some((due) => due.id === providerId);
const providerRow = async (providerId: number) => (await withDb((db) => db.select().from(providers).where(eq(providers.id, providerId))))[0];

describe('provider balances', () => {
  it('are due at the next cron run for a provider just added, even though its catalogue is fresh', async () => {
    const { providerId } = await newShop({ serviceIds: ['1021'] });
    const fresh = await providerRow(providerId);
    expect(fresh.balanceCheckedAt).toBeNull();
    expect(await isDue(providerId)).toBe(true);

    await withDb((db) => checkProviderBalance(db, env, providerId));
    expect((await providerRow(providerId)).balanceCheckedAt).not.toBeNull();
    expect(await isDue(providerId)).toBe(false);
  });

  it('are read again once older than the catalogue refresh interval, and never for a provider switched off', async () => {
    const { providerId } = await newShop({ serviceIds: ['1021'] });
    const stale = new Date(Date.now() - BALANCE_MAX_AGE_MS - 60_000);
    await withDb((db) => db.update(providers).set({ balanceCheckedAt: stale }).where(eq(providers.id, providerId)));
    expect(await isDue(providerId)).toBe(true);
    await withDb((db) => db.update(providers).set({ enabled: false }).where(eq(providers.id, providerId)));
    expect(await isDue(providerId)).toBe(false);
  });

  it('are a cron job of their own, run after the sync that reads them with each catalogue it refreshes', () => {
    const jobs = Object.keys(scheduledJobs);
    expect(jobs).toContain('checkProviderBalances');
    expect(jobs.indexOf('checkProviderBalances')).toBeGreaterThan(jobs.indexOf('runSmmSync'));
  });
});
