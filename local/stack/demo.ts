// The demo catalogue for the local stack: the sandbox SMM panel as a provider, every service it
// lists imported at the global markup, and catalogue settings that give prices like Nigerian
// panels charge. Idempotent: a restart only points the provider at the current sandbox URL and
// key; services, prices and settings an administrator changed are left alone.
import { eq } from 'drizzle-orm';
import { providers, services, settings } from '../../drizzle/schema';
import type { Db } from '../../worker/db';
import { SmmProviderError } from '../../worker/providers/smm/types';
import { createProvider, importFromProvider, providerClient, saveCatalogueSettings, updateProvider } from '../../worker/services/catalogue';

export interface DemoOptions {
  encryptionKey: string;
  smmApiUrl: string;
  smmApiKey: string;
  /** The sandbox rates service (provider prices are USD). */
  ratesApiUrl: string;
}

const DEMO_PROVIDER = 'Sandbox SMM Panel';
/** 60% over cost: Instagram followers at about ₦3,600 per 1000, TikTok views at about ₦30. */
const DEMO_SETTINGS = { defaultMarkupBps: 6_000, minMarginBps: 1_500, marginGuardAction: 'reprice' } as const;

export async function seedDemo(db: Db, options: DemoOptions): Promise<{ providerId: number; imported: number }> {
  const env = { ENCRYPTION_KEY: options.encryptionKey, RATES_API_URL: options.ratesApiUrl };
  const [settingsRow] = await db.select({ key: settings.key }).from(settings).where(eq(settings.key, 'catalogue'));
  if (!settingsRow) await saveCatalogueSettings(db, null, DEMO_SETTINGS);

  const [existing] = await db.select().from(providers).where(eq(providers.name, DEMO_PROVIDER));
  const providerId = existing
    ? existing.id
    : (await createProvider(db, env, null, { name: DEMO_PROVIDER, apiUrl: options.smmApiUrl, apiKey: options.smmApiKey, lowBalanceAlert: 100_000_000 })).id;
  if (existing && existing.apiUrl !== options.smmApiUrl) {
    await updateProvider(db, env, null, providerId, { apiUrl: options.smmApiUrl, apiKey: options.smmApiKey });
  }

  const [anyService] = await db.select({ id: services.id }).from(services).where(eq(services.providerId, providerId)).limit(1);
  if (anyService) return { providerId, imported: 0 };
  const [provider] = await db.select().from(providers).where(eq(providers.id, providerId));
  // The sandbox panel started rough (SMM_FAKE=rough) fails a call now and then, as real panels do: ask again.
  const { created } = await retryingPanel(async () => {
    const { services: offered } = await (await providerClient(env, provider)).services();
    return importFromProvider(db, env, null, providerId, { serviceIds: offered.map((service) => service.id) });
  });
  // The whole live catalogue was just read and imported: that is a catalogue sync.
  await db.update(providers).set({ catalogueSyncedAt: new Date() }).where(eq(providers.id, providerId));
  return { providerId, imported: created };
}

/** Runs `work` again (a few times) while the panel gives no readable answer. */
async function retryingPanel<T>(work: () => Promise<T>): Promise<T> {
  for (let attempt = 1; ; attempt += 1) {
    try {
      return await work();
    } catch (error) {
      if (!(error instanceof SmmProviderError && error.kind === 'unavailable') || attempt >= 8) throw error;
      await new Promise((resolve) => setTimeout(resolve, 200 * attempt));
    }
  }
}
