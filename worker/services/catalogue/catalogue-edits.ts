// The administrators' catalogue edits: a service, many services at once, a category, and the pricing
// rules. Each checks the edit against the margin guard (margin.ts), writes prices through pricing.ts
// and records its audit row in the same transaction.
import { eq, inArray } from 'drizzle-orm';
import { serviceCategories, services } from '../../../drizzle/schema';
import type { Db } from '../../db';
import { isUniqueViolation } from '../../lib/db-errors';
import { bpsToPercent, formatNaira, formatScaled, koboToNaira } from '../../lib/decimal';
import { conflict, invalid, notFound } from '../../lib/errors';
import type { BulkServicesInput, CatalogueSettingsInput, UpdateCategoryInput, UpdateServiceInput } from '../../schemas/catalogue';
import { fieldChanges, recordAudit } from '../oversight';
import { adminListCategories, adminService, ensureCategories } from './catalogue';
import { PROVIDER_PRICE_REASON } from './catalogue-sync';
import { HELD_BELOW_COST } from './held-cost';
import { type CatalogueSettings, getCatalogueSettings, guardPrice, priceWithMarkup, saveCatalogueSettings } from './margin';
import { checkMarkup, effectiveMarkup, type PriceState, repriceServices, selectPriceStates } from './pricing';

export async function updateService(db: Db, actorId: number, id: number, input: UpdateServiceInput) {
  // Interactive: reads the service FOR UPDATE, then checks the edit against its prices and the pricing rules.
  await db.transaction(async (tx) => {
    const [current] = await selectPriceStates(tx, {
      min: services.min,
      max: services.max,
      providerMin: services.providerMin,
      providerMax: services.providerMax,
      categoryId: services.categoryId,
      refillDays: services.refillDays,
      description: services.description,
      maxRefills: services.maxRefills,
      linkKind: services.linkKind,
      categoryName: serviceCategories.name,
    })
      .where(eq(services.id, id))
      .for('update', { of: services });
    if (!current) throw notFound('Service not found');
    const settings = await getCatalogueSettings(tx);
    const category = input.category
      ? (await ensureCategories(tx, [input.category])).get(input.category)!
      : { id: current.categoryId, markupBps: current.categoryMarkupBps };

    const next: PriceState = { ...current, categoryMarkupBps: category.markupBps };
    if (input.rate !== undefined) {
      next.priceMode = 'fixed';
      next.rateKobo = BigInt(input.rate);
    } else if (input.markupPercent !== undefined) {
      checkMarkup(input.markupPercent, settings);
      next.priceMode = 'markup';
      next.markupBps = input.markupPercent;
    }
    if (next.priceMode === 'markup') next.rateKobo = priceWithMarkup(current.costKobo, effectiveMarkup(next, settings));
    const floor = priceWithMarkup(current.costKobo, settings.minMarginBps);
    if (next.rateKobo < floor) throw invalid(`Price must be at least ${formatNaira(floor)} (cost ${formatNaira(current.costKobo)} plus the minimum margin)`);

    if (input.enabled === true && current.disabledReason === PROVIDER_PRICE_REASON) throw heldProviderPrice();
    if (input.enabled === true && current.disabledReason === HELD_BELOW_COST) throw heldBelowCost();

    const min = input.min ?? current.min;
    const max = input.max ?? current.max;
    if (min < current.providerMin) throw invalid(`min must be at least the provider's minimum (${current.providerMin})`);
    if (max > current.providerMax) throw invalid(`max must be at most the provider's maximum (${current.providerMax})`);
    if (min > max) throw invalid('min cannot be more than max');

    const enabled = input.enabled ?? current.enabled;
    await tx
      .update(services)
      .set({
        name: input.name,
        description: input.description,
        categoryId: category.id,
        priceMode: next.priceMode,
        markupBps: next.markupBps,
        rateKobo: next.rateKobo,
        min,
        max,
        refillDays: input.refillDays,
        // A window the administrator changed (cleared included) is theirs: the sync no longer reads it from the name.
        refillDaysByAdmin: input.refillDays !== undefined && input.refillDays !== current.refillDays ? true : undefined,
        maxRefills: input.maxRefills,
        linkKind: input.linkKind,
        enabled,
        disabledReason: enabled ? null : input.enabled === false ? 'admin' : current.disabledReason,
        updatedAt: new Date(),
      })
      .where(eq(services.id, id));
    await recordAudit(tx, {
      actorId,
      action: 'service.update',
      target: { type: 'service', id },
      details: {
        ...input,
        rateKobo: String(next.rateKobo),
        previousRateKobo: String(current.rateKobo),
        // The price per 1000 and its cost before and after, and every field the edit changed.
        price: {
          before: { rate: koboToNaira(current.rateKobo), cost: koboToNaira(current.costKobo) },
          after: { rate: koboToNaira(next.rateKobo), cost: koboToNaira(current.costKobo) },
        },
        changes: fieldChanges(
          serviceFields(current, current.categoryName),
          serviceFields(
            {
              ...next,
              min,
              max,
              enabled,
              name: input.name ?? current.name,
              description: input.description ?? current.description,
              refillDays: input.refillDays === undefined ? current.refillDays : input.refillDays,
              maxRefills: input.maxRefills ?? current.maxRefills,
              linkKind: input.linkKind === undefined ? current.linkKind : input.linkKind,
            },
            input.category ?? current.categoryName,
          ),
        ),
      },
    });
  });
  return adminService(db, id);
}

/** A service's fields as its audit row compares them: money and markups as the screens write them. */
function serviceFields(
  state: Pick<PriceState, 'rateKobo' | 'priceMode' | 'markupBps' | 'enabled' | 'name'> & {
    description: string | null;
    min: number;
    max: number;
    refillDays: number | null;
    maxRefills: number;
    linkKind: string | null;
  },
  category: string,
) {
  return {
    name: state.name,
    description: state.description,
    category,
    priceMode: state.priceMode,
    markupPercent: state.markupBps === null ? null : bpsToPercent(state.markupBps),
    rate: koboToNaira(state.rateKobo),
    min: state.min,
    max: state.max,
    refillDays: state.refillDays,
    maxRefills: state.maxRefills,
    linkKind: state.linkKind,
    enabled: state.enabled,
  };
}

const heldProviderPrice = () => invalid("The provider's new price for this service is held for review; accept it before switching the service on");
const heldBelowCost = () =>
  invalid('At the exchange rate held for review this service would sell below cost; accept or reject the rate on the Pricing tab before switching it on');

export async function bulkUpdateServices(db: Db, actorId: number, input: BulkServicesInput): Promise<{ updated: number; skipped: number[] }> {
  // Interactive: reads the pricing rules, then picks which services may be switched on.
  return db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    const selected = inArray(services.id, input.ids);
    let updated = 0;
    const skipped: number[] = [];
    if (input.action === 'disable') {
      updated = (
        await tx.update(services).set({ enabled: false, disabledReason: 'admin', updatedAt: new Date() }).where(selected).returning({ id: services.id })
      ).length;
    } else if (input.action === 'enable') {
      // A fixed price under the margin floor stays off until its price is raised, a service whose provider
      // price is held stays off until that price is accepted, and one under cost at a held rate until the rate is decided.
      const states = await selectPriceStates(tx, {}).where(selected);
      const allowed = states.filter((state) => {
        const ok =
          state.disabledReason !== PROVIDER_PRICE_REASON &&
          state.disabledReason !== HELD_BELOW_COST &&
          guardPrice({ ...state, effectiveMarkupBps: effectiveMarkup(state, settings) }, settings).action !== 'disabled';
        if (!ok) skipped.push(state.id);
        return ok;
      });
      if (allowed.length > 0) {
        updated = (
          await tx
            .update(services)
            .set({ enabled: true, disabledReason: null, updatedAt: new Date() })
            .where(
              inArray(
                services.id,
                allowed.map((state) => state.id),
              ),
            )
            .returning({ id: services.id })
        ).length;
      }
    } else {
      const markupBps = input.markupPercent ?? null;
      checkMarkup(markupBps, settings);
      updated = (await tx.update(services).set({ markupBps, priceMode: 'markup', updatedAt: new Date() }).where(selected).returning({ id: services.id }))
        .length;
      await repriceServices(tx, selected, settings, { actorId, cause: 'rules', targetType: 'service', targetId: null });
    }
    await recordAudit(tx, {
      actorId,
      action: `service.bulk_${input.action}`,
      target: { type: 'service' },
      details: { ids: input.ids, markupPercent: input.markupPercent ?? null, skipped },
    });
    return { updated, skipped };
  });
}

export async function updateCategory(db: Db, actorId: number, id: number, input: UpdateCategoryInput) {
  // Interactive: locks the category, then reprices its services under the rules read here.
  await db.transaction(async (tx) => {
    const settings = await getCatalogueSettings(tx);
    if (input.markupPercent !== undefined) checkMarkup(input.markupPercent, settings);
    const [row] = await tx
      .select({ id: serviceCategories.id, name: serviceCategories.name, platform: serviceCategories.platform, markupBps: serviceCategories.markupBps })
      .from(serviceCategories)
      .where(eq(serviceCategories.id, id))
      .for('update');
    if (!row) throw notFound('Category not found');
    if (input.name !== undefined || input.platform !== undefined || input.markupPercent !== undefined) {
      await tx
        .update(serviceCategories)
        .set({ name: input.name, platform: input.platform, markupBps: input.markupPercent })
        .where(eq(serviceCategories.id, id))
        .catch((error: unknown) => {
          throw isUniqueViolation(error, 'service_categories_name_key') ? conflict('A category with this name already exists') : error;
        });
    }
    if (input.markupPercent !== undefined) {
      await repriceServices(tx, eq(services.categoryId, id), settings, { actorId, cause: 'rules', targetType: 'category', targetId: String(id) });
    }
    const percent = (bps: number | null | undefined) => (bps == null ? bps : bpsToPercent(bps));
    await recordAudit(tx, {
      actorId,
      action: 'category.update',
      target: { type: 'category', id },
      details: {
        ...input,
        changes: fieldChanges(
          { name: row.name, platform: row.platform, markupPercent: percent(row.markupBps) },
          { name: input.name, platform: input.platform, markupPercent: percent(input.markupPercent) },
        ),
      },
    });
  });
  return (await adminListCategories(db)).find((category) => category.id === id)!;
}

/** The pricing rules (markup, margin, guard action, and the limits on new rates and provider prices); every price is re-checked against them. */
export async function updateCatalogueSettings(db: Db, actorId: number, input: CatalogueSettingsInput) {
  // Interactive: checks the new rules against the current ones, then reprices every service with what was saved.
  return db.transaction(async (tx) => {
    const current = await getCatalogueSettings(tx);
    if (input.defaultMarkupBps !== undefined && input.defaultMarkupBps < (input.minMarginBps ?? current.minMarginBps)) {
      throw invalid(`The default markup must be at least the minimum margin (${bpsToPercent(input.minMarginBps ?? current.minMarginBps)}%)`);
    }
    const next = await saveCatalogueSettings(tx, actorId, input);
    const repriced = await repriceServices(tx, undefined, next, { actorId, cause: 'rules', targetType: 'settings', targetId: 'catalogue' });
    return { ...catalogueSettingsView(next), repriced };
  });
}

export function catalogueSettingsView(settings: CatalogueSettings) {
  return {
    defaultMarkupPercent: bpsToPercent(settings.defaultMarkupBps),
    minMarginPercent: bpsToPercent(settings.minMarginBps),
    marginGuardAction: settings.marginGuardAction,
    rateBandPercent: bpsToPercent(settings.rateBandBps),
    /** "3.00": a provider price 3× above or below the last one is held for review. */
    providerPriceFactor: formatScaled(BigInt(settings.providerPriceFactorBps), 4, 2),
  };
}
