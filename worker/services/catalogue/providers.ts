// Upstream SMM panels: the administrators' CRUD, the API client for a stored provider (its key
// decrypted only in memory), the balance check with its low-balance alert, and the provider's
// own catalogue priced in kobo for the import screen.
import { asc, count, eq, sql } from 'drizzle-orm';
import { providers, services } from '../../../drizzle/schema';
import type { Db, DbOrTx } from '../../db';
import type { Env } from '../../env';
import { decryptSecret, encryptSecret } from '../../lib/crypto';
import { isUniqueViolation } from '../../lib/db-errors';
import { formatScaled, koboToNaira } from '../../lib/decimal';
import { conflict, notFound } from '../../lib/errors';
import { createSmmClient, type SmmClient } from '../../providers/smm/client';
import { PROVIDER_MONEY_SCALE } from '../../providers/smm/types';
import type { CreateProviderInput, UpdateProviderInput } from '../../schemas/catalogue';
import { fieldChanges, recordAudit, recordWarningOnce } from '../oversight';

import { koboConverter } from './rates';

export type ProviderRow = typeof providers.$inferSelect;
export type ProviderEnv = Pick<Env, 'ENCRYPTION_KEY' | 'RATES_API_URL'>;

const providerMoney = (micros: bigint | null) => (micros === null ? null : formatScaled(micros, PROVIDER_MONEY_SCALE, 2));

/** What administrators see of a provider; the key never leaves the database. */
function toProviderView(row: ProviderRow, serviceCount = 0) {
  return {
    id: row.id,
    name: row.name,
    apiUrl: row.apiUrl,
    apiKeySet: true,
    // Whether the panel's webhooks are followed; the secret itself, like the key, never leaves the database.
    webhookSecretSet: row.webhookSecretEncrypted !== null,
    currency: row.currency,
    timeoutMs: row.timeoutMs,
    enabled: row.enabled,
    lowBalanceAlert: providerMoney(row.lowBalanceMicros),
    balance: providerMoney(row.balanceMicros),
    lowBalance: row.balanceMicros !== null && row.lowBalanceMicros !== null && row.balanceMicros < row.lowBalanceMicros,
    balanceCheckedAt: row.balanceCheckedAt?.toISOString() ?? null,
    catalogueSyncedAt: row.catalogueSyncedAt?.toISOString() ?? null,
    lastError: row.lastError,
    serviceCount,
    created_at: row.createdAt.toISOString(),
    updated_at: row.updatedAt.toISOString(),
  };
}
export type ProviderView = ReturnType<typeof toProviderView>;

export async function getProvider(db: DbOrTx, id: number): Promise<ProviderRow> {
  const [row] = await db.select().from(providers).where(eq(providers.id, id));
  if (!row) throw notFound('Provider not found');
  return row;
}

export async function providerClient(
  env: Pick<Env, 'ENCRYPTION_KEY'>,
  provider: Pick<ProviderRow, 'apiUrl' | 'apiKeyEncrypted' | 'timeoutMs'>,
): Promise<SmmClient> {
  const apiKey = await decryptSecret(env.ENCRYPTION_KEY, provider.apiKeyEncrypted);
  return createSmmClient({ apiUrl: provider.apiUrl, apiKey, timeoutMs: provider.timeoutMs });
}

/** The secret the provider signs its webhooks with, decrypted only in memory; null when it sends none we follow. */
export async function providerWebhookSecret(env: Pick<Env, 'ENCRYPTION_KEY'>, provider: Pick<ProviderRow, 'webhookSecretEncrypted'>): Promise<string | null> {
  return provider.webhookSecretEncrypted === null ? null : decryptSecret(env.ENCRYPTION_KEY, provider.webhookSecretEncrypted);
}

export async function listProviders(db: Db): Promise<ProviderView[]> {
  // Counted per provider from the services' (provider, provider's id) key alone, not by reading every service's row.
  // Spelled out: Drizzle writes the columns of a one-table select without their table, and an unqualified "id" in
  // the subquery would be the service's own.
  const serviceCount = sql<number>`(select count(*) from services s where s.provider_id = providers.id)`.mapWith(Number);
  const rows = await db.select({ provider: providers, serviceCount }).from(providers).orderBy(asc(providers.name));
  return rows.map((row) => toProviderView(row.provider, row.serviceCount));
}

export async function providerDetail(db: Db, id: number): Promise<ProviderView> {
  const provider = await getProvider(db, id);
  const [{ total }] = await db.select({ total: count() }).from(services).where(eq(services.providerId, id));
  return toProviderView(provider, total);
}

const nameTaken = () => conflict('A provider with this name already exists');

export async function createProvider(db: Db, env: Pick<Env, 'ENCRYPTION_KEY'>, actorId: number | null, input: CreateProviderInput): Promise<ProviderView> {
  const apiKeyEncrypted = await encryptSecret(env.ENCRYPTION_KEY, input.apiKey);
  const webhookSecretEncrypted = input.webhookSecret ? await encryptSecret(env.ENCRYPTION_KEY, input.webhookSecret) : null;
  try {
    // Interactive: the audit row names the id the insert returned.
    return await db.transaction(async (tx) => {
      const [row] = await tx
        .insert(providers)
        .values({
          name: input.name,
          apiUrl: input.apiUrl,
          apiKeyEncrypted,
          webhookSecretEncrypted,
          enabled: input.enabled ?? true,
          currency: input.currency ?? 'USD',
          timeoutMs: input.timeoutMs ?? 15_000,
          lowBalanceMicros: input.lowBalanceAlert == null ? null : BigInt(input.lowBalanceAlert),
        })
        .returning();
      await recordAudit(tx, {
        actorId,
        action: 'provider.create',
        target: { type: 'provider', id: row.id },
        details: { name: row.name, apiUrl: row.apiUrl, webhookSecretSet: webhookSecretEncrypted !== null },
      });
      return toProviderView(row);
    });
  } catch (error) {
    if (isUniqueViolation(error, 'providers_name_key')) throw nameTaken();
    throw error;
  }
}

export async function updateProvider(
  db: Db,
  env: Pick<Env, 'ENCRYPTION_KEY'>,
  actorId: number | null,
  id: number,
  input: UpdateProviderInput,
): Promise<ProviderView> {
  const { apiKey, lowBalanceAlert, webhookSecret, ...plain } = input;
  const changes: Partial<typeof providers.$inferInsert> = { ...plain, updatedAt: new Date() };
  if (apiKey !== undefined) changes.apiKeyEncrypted = await encryptSecret(env.ENCRYPTION_KEY, apiKey);
  if (webhookSecret !== undefined) changes.webhookSecretEncrypted = webhookSecret === null ? null : await encryptSecret(env.ENCRYPTION_KEY, webhookSecret);
  if (lowBalanceAlert !== undefined) changes.lowBalanceMicros = lowBalanceAlert === null ? null : BigInt(lowBalanceAlert);
  try {
    // Interactive: a missing provider fails before the audit row is written.
    await db.transaction(async (tx) => {
      const [before] = await tx
        .select({
          name: providers.name,
          apiUrl: providers.apiUrl,
          enabled: providers.enabled,
          currency: providers.currency,
          timeoutMs: providers.timeoutMs,
          lowBalanceMicros: providers.lowBalanceMicros,
        })
        .from(providers)
        .where(eq(providers.id, id))
        .for('update');
      if (!before) throw notFound('Provider not found');
      await tx.update(providers).set(changes).where(eq(providers.id, id));
      // The audit names what changed, never the key itself.
      await recordAudit(tx, {
        actorId,
        action: 'provider.update',
        target: { type: 'provider', id },
        details: {
          ...plain,
          apiKeyChanged: apiKey !== undefined,
          lowBalanceAlert,
          ...(webhookSecret === undefined ? {} : { webhookSecretSet: webhookSecret !== null }),
          // Each field the edit changed, before and after (the keys are never recorded).
          changes: fieldChanges(
            { ...before, lowBalanceMicros: undefined, lowBalanceAlert: providerMoney(before.lowBalanceMicros) },
            { ...plain, lowBalanceAlert: lowBalanceAlert === undefined ? undefined : providerMoney(lowBalanceAlert === null ? null : BigInt(lowBalanceAlert)) },
          ),
        },
      });
    });
  } catch (error) {
    if (isUniqueViolation(error, 'providers_name_key')) throw nameTaken();
    throw error;
  }
  return providerDetail(db, id);
}

/** Only a provider nothing was ever bought from can go; others are disabled instead, to keep order history whole. */
export async function deleteProvider(db: Db, actorId: number, id: number): Promise<void> {
  // Interactive: counts the provider's services, then decides whether it may go.
  await db.transaction(async (tx) => {
    const [{ total }] = await tx.select({ total: count() }).from(services).where(eq(services.providerId, id));
    if (total > 0) throw conflict('This provider has services; disable it instead of deleting it');
    const [row] = await tx.delete(providers).where(eq(providers.id, id)).returning({ id: providers.id, name: providers.name });
    if (!row) throw notFound('Provider not found');
    // The name goes with the row: the log names a provider by joining it, which a deleted one no longer allows.
    await recordAudit(tx, { actorId, action: 'provider.delete', target: { type: 'provider', id }, details: { name: row.name } });
  });
}

/** Asks the provider for its balance, stores it, and raises one low-balance warning until an administrator reads it. */
export async function checkProviderBalance(db: Db, env: ProviderEnv, id: number) {
  const provider = await getProvider(db, id);
  const client = await providerClient(env, provider);
  const { balanceMicros, currency } = await client.balance();
  await db.update(providers).set({ balanceMicros, balanceCheckedAt: new Date() }).where(eq(providers.id, id));
  const low = provider.lowBalanceMicros !== null && balanceMicros < provider.lowBalanceMicros;
  if (low) {
    await recordWarningOnce(db, {
      kind: 'provider_low_balance',
      providerId: id,
      message: `${provider.name} balance is low: ${providerMoney(balanceMicros)} ${currency || provider.currency}`,
      details: { balance: providerMoney(balanceMicros), threshold: providerMoney(provider.lowBalanceMicros) },
    });
  }
  return { providerId: id, balance: providerMoney(balanceMicros)!, currency: currency || provider.currency, lowBalance: low };
}

/** The provider's live catalogue with each service's cost in naira and, when imported, our service id. */
export async function providerCatalogue(db: Db, env: ProviderEnv, id: number) {
  const provider = await getProvider(db, id);
  const client = await providerClient(env, provider);
  const [catalogue, toKobo, imported] = await Promise.all([
    client.services(),
    koboConverter(db, env, provider.currency),
    db.select({ id: services.id, providerServiceId: services.providerServiceId }).from(services).where(eq(services.providerId, id)),
  ]);
  const ourIdOf = new Map(imported.map((row) => [row.providerServiceId, row.id]));
  return {
    currency: provider.currency,
    unreadable: catalogue.unreadable.length,
    data: catalogue.services.map((service) => ({
      service: service.id,
      name: service.name,
      type: service.type,
      category: service.category,
      rate: formatScaled(service.ratePer1000Micros, PROVIDER_MONEY_SCALE, 6).replace(/0{1,4}$/, ''),
      cost: koboToNaira(toKobo(service.ratePer1000Micros)),
      min: service.min,
      max: service.max,
      refill: service.refill,
      cancel: service.cancel,
      dripfeed: service.dripfeed,
      importedServiceId: ourIdOf.get(service.id) ?? null,
    })),
  };
}
