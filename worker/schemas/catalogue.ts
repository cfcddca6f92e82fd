// Catalogue request schemas: the public service list, and the administrators' providers,
// services, markups and settings. Shared with the SPA; pure zod. Money and percentages are read
// from their decimal text (never through floating point) into kobo and basis points.

import { LINK_KINDS, MARGIN_GUARD_ACTIONS, WARNING_KINDS } from '../../vocabulary';
import { idParam, paginationSchema, trimmedText } from './common';
import { z } from './zod';

/** Decimal text (or a JSON number) with at most `decimals` places -> integer of 10^-decimals units. */
function scaledDecimal(decimals: number, maxIntegerDigits: number, message: string) {
  const pattern = new RegExp(`^\\d{1,${maxIntegerDigits}}(?:\\.\\d{0,${decimals}})?$`);
  return z.union([z.string(), z.number()], { error: message }).transform((value, ctx) => {
    const text = String(value).trim();
    if (!pattern.test(text)) {
      ctx.addIssue({ code: 'custom', message });
      return z.NEVER;
    }
    const [whole, fraction = ''] = text.split('.');
    return Number(whole) * 10 ** decimals + Number(fraction.padEnd(decimals, '0') || '0');
  });
}

/** A percentage with up to 2 decimals ("12.5" = 1250 basis points), 0 to 1000%. */
export const percentField = (name: string) =>
  scaledDecimal(2, 4, `${name} must be a percentage between 0 and 1000 with at most 2 decimals`).refine((bps) => bps <= 100_000, {
    error: `${name} must be a percentage between 0 and 1000 with at most 2 decimals`,
  });

/** Naira with up to 2 decimals, as kobo (a number: at most 10^11 kobo, exact as a double). */
export const nairaField = (name: string) =>
  scaledDecimal(2, 9, `${name} must be an amount in naira with at most 2 decimals`).refine((kobo) => kobo > 0, { error: `${name} must be greater than 0` });

const booleanText = z
  .union([z.boolean(), z.enum(['true', 'false', '1', '0'])], { error: 'must be true or false' })
  .transform((v) => v === true || v === 'true' || v === '1');

const searchText = z.string().trim().max(100, { error: 'search must be at most 100 characters' }).optional();

export const serviceListQuerySchema = paginationSchema.extend({
  search: searchText,
  category: z.string().trim().max(200).optional(),
  platform: z.string().trim().max(50).optional(),
});
export type ServiceListQuery = z.infer<typeof serviceListQuerySchema>;

export const adminServiceListQuerySchema = serviceListQuerySchema.extend({
  providerId: idParam('providerId').optional(),
  enabled: booleanText.optional(),
});
export type AdminServiceListQuery = z.infer<typeof adminServiceListQuerySchema>;

const apiUrl = trimmedText({ required: 'API URL is required', max: 500, tooLong: 'API URL is too long' }).refine(
  (value) => /^https?:\/\/[^\s/]+/i.test(value) && URL.canParse(value),
  { error: 'API URL must be an http(s) URL' },
);

const providerFields = {
  name: trimmedText({ required: 'Name is required', max: 100, tooLong: 'Name must be at most 100 characters' }),
  apiUrl,
  apiKey: trimmedText({ required: 'API key is required', max: 500, tooLong: 'API key is too long' }),
  enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
  currency: z
    .string()
    .trim()
    .regex(/^[A-Za-z]{3}$/, { error: 'currency must be a 3-letter code' })
    .transform((v) => v.toUpperCase())
    .optional(),
  timeoutMs: z
    .number({ error: 'timeoutMs must be a number' })
    .int()
    .min(1000, { error: 'timeoutMs must be at least 1000' })
    .max(60_000, { error: 'timeoutMs must be at most 60000' })
    .optional(),
  /** In the provider's currency, e.g. "10.00"; null switches the alert off. */
  lowBalanceAlert: scaledDecimal(6, 9, 'lowBalanceAlert must be an amount with at most 6 decimals').nullable().optional(),
  /** What a panel like ours signs its webhooks with (write-only, as the key); null forgets it. */
  webhookSecret: trimmedText({
    required: 'Webhook signing secret must be text',
    min: 8,
    tooShort: 'Webhook signing secret must be at least 8 characters',
    max: 500,
    tooLong: 'Webhook signing secret is too long',
  })
    .nullable()
    .optional(),
};

export const createProviderSchema = z.object(providerFields);
export type CreateProviderInput = z.infer<typeof createProviderSchema>;

export const updateProviderSchema = z.object(providerFields).partial();
export type UpdateProviderInput = z.infer<typeof updateProviderSchema>;

export const importServicesSchema = z.object({
  /** The provider's service ids to import (or re-import). */
  serviceIds: z
    .array(z.union([z.string().trim().min(1).max(64), z.number().int().nonnegative()]).transform(String), {
      error: 'serviceIds must be a list of provider service ids',
    })
    .min(1, { error: 'Pick at least one service' })
    .max(5000, { error: 'At most 5000 services at a time' }),
  /** Markup of the imported services; absent = they inherit their category's or the global markup. */
  markupPercent: percentField('markupPercent').optional(),
});
export type ImportServicesInput = z.infer<typeof importServicesSchema>;

export const updateServiceSchema = z
  .object({
    name: z.string().trim().min(1, { error: 'Name is required' }).max(300, { error: 'Name must be at most 300 characters' }).optional(),
    description: z.string().trim().max(5000, { error: 'Description must be at most 5000 characters' }).optional(),
    /** Moves the service to this category, made when it does not exist. */
    category: z.string().trim().min(1, { error: 'Category is required' }).max(200).optional(),
    /** A fixed price in naira per 1000; switches the service to fixed pricing. */
    rate: nairaField('rate').optional(),
    /** Own markup; null = inherit the category's or the global one. Switches the service to markup pricing. */
    markupPercent: percentField('markupPercent').nullable().optional(),
    min: z
      .number({ error: 'min must be a whole number' })
      .int({ error: 'min must be a whole number' })
      .positive({ error: 'min must be at least 1' })
      .optional(),
    max: z
      .number({ error: 'max must be a whole number' })
      .int({ error: 'max must be a whole number' })
      .positive({ error: 'max must be at least 1' })
      .optional(),
    enabled: z.boolean({ error: 'enabled must be true or false' }).optional(),
    /** Days after completion a refill may be asked for; null = no limit. Imported from the provider's name ("Refill 30D") until set here. */
    refillDays: z
      .number({ error: 'refillDays must be a whole number of days' })
      .int({ error: 'refillDays must be a whole number of days' })
      .min(1, { error: 'refillDays must be at least 1' })
      .max(3650, { error: 'refillDays must be at most 3650' })
      .nullable()
      .optional(),
    /** Refills one order may have (refused ones do not count), one at a time. */
    maxRefills: z
      .number({ error: 'maxRefills must be a whole number' })
      .int({ error: 'maxRefills must be a whole number' })
      .min(1, { error: 'maxRefills must be at least 1' })
      .max(100, { error: 'maxRefills must be at most 100' })
      .optional(),
    /** What the order's link is: 'url' (a post or page) or 'username' (an account); null = decided from the type and category. */
    linkKind: z.enum(LINK_KINDS, { error: 'linkKind must be url or username' }).nullable().optional(),
  })
  .refine((v) => !(v.rate !== undefined && v.markupPercent !== undefined), { error: 'Set either rate or markupPercent, not both' });
export type UpdateServiceInput = z.infer<typeof updateServiceSchema>;

export const bulkServicesSchema = z
  .object({
    ids: z.array(z.number().int().positive(), { error: 'ids must be a list of service ids' }).min(1, { error: 'Pick at least one service' }).max(5000),
    action: z.enum(['enable', 'disable', 'markup'], { error: 'action must be enable, disable or markup' }),
    markupPercent: percentField('markupPercent').nullable().optional(),
  })
  .refine((v) => v.action !== 'markup' || v.markupPercent !== undefined, { error: 'markupPercent is required for the markup action', path: ['markupPercent'] });
export type BulkServicesInput = z.infer<typeof bulkServicesSchema>;

export const updateCategorySchema = z.object({
  name: z.string().trim().min(1, { error: 'Name is required' }).max(200).optional(),
  platform: z.string().trim().min(1).max(50).optional(),
  /** null = the global markup. */
  markupPercent: percentField('markupPercent').nullable().optional(),
});
export type UpdateCategoryInput = z.infer<typeof updateCategorySchema>;

const FACTOR_MESSAGE = 'providerPriceFactor must be a factor above 1 and at most 100, with at most 2 decimals';

export const catalogueSettingsSchema = z
  .object({
    defaultMarkupPercent: percentField('defaultMarkupPercent').optional(),
    minMarginPercent: percentField('minMarginPercent').optional(),
    marginGuardAction: z.enum(MARGIN_GUARD_ACTIONS, { error: 'marginGuardAction must be reprice or disable' }).optional(),
    /** How far (either way) a new exchange rate may move and still be taken without review, e.g. "10". */
    rateBandPercent: percentField('rateBandPercent')
      .refine((bps) => bps > 0, { error: 'rateBandPercent must be more than 0' })
      .optional(),
    /** How many times higher or lower a provider's new price may be before it is held for review, e.g. "3". */
    providerPriceFactor: scaledDecimal(2, 3, FACTOR_MESSAGE)
      .refine((hundredths) => hundredths > 100 && hundredths <= 10_000, { error: FACTOR_MESSAGE })
      .optional(),
  })
  .transform(({ defaultMarkupPercent, minMarginPercent, marginGuardAction, rateBandPercent, providerPriceFactor }) => ({
    ...(defaultMarkupPercent !== undefined && { defaultMarkupBps: defaultMarkupPercent }),
    ...(minMarginPercent !== undefined && { minMarginBps: minMarginPercent }),
    ...(marginGuardAction !== undefined && { marginGuardAction }),
    ...(rateBandPercent !== undefined && { rateBandBps: rateBandPercent }),
    ...(providerPriceFactor !== undefined && { providerPriceFactorBps: providerPriceFactor * 100 }),
  }));
export type CatalogueSettingsInput = z.infer<typeof catalogueSettingsSchema>;

export const warningListQuerySchema = paginationSchema.extend({
  kind: z.enum(WARNING_KINDS, { error: 'Unknown warning kind' }).optional(),
  acknowledged: booleanText.optional(),
});
export type WarningListQuery = z.infer<typeof warningListQuerySchema>;

/**
 * An administrator's answer to an exchange rate held for review: the proposed rate as they saw it
 * (units per USD, up to 6 decimals), so a proposal that changed meanwhile is not decided blind.
 */
export const rateReviewSchema = z.object({
  rate: z
    .string({ error: 'rate is required (the proposed rate as shown)' })
    .trim()
    .regex(/^\d{1,12}(?:\.\d{1,6})?$/, { error: 'rate must be a number with at most 6 decimals' }),
});
export type RateReviewInput = z.infer<typeof rateReviewSchema>;

export const currencyParam = z
  .string()
  .trim()
  .regex(/^[A-Za-z]{3}$/, { error: 'currency must be a 3-letter code' })
  .transform((v) => v.toUpperCase());

/** Accepting a provider price held by the catalogue sync: the price as the administrator saw it. */
export const providerPriceAcceptSchema = z.object({
  providerRate: z
    .string({ error: 'providerRate is required (the held provider price as shown)' })
    .trim()
    .regex(/^\d{1,12}(?:\.\d{1,6})?$/, { error: 'providerRate must be a number with at most 6 decimals' }),
  /** Switch the service back on when the held price was what switched it off (default true). */
  enable: z.boolean({ error: 'enable must be true or false' }).optional(),
});
export type ProviderPriceAcceptInput = z.infer<typeof providerPriceAcceptSchema>;

/** The CSV import's form: the provider the rows' `service` ids belong to (the file is the `user_file` field). */
export const csvImportFieldsSchema = z.object({
  providerId: z.coerce
    .number({ error: 'providerId is required' })
    .int()
    .positive({ error: 'providerId is required' })
    .max(2_147_483_647, { error: 'providerId is out of range' }),
});

interface PricePoint {
  cost: string;
  rate: string;
  enabled: boolean;
}

/** One service's automatic price move, as the audit log keeps it (the SPA reads it from the audit entry). */
export interface PriceChange {
  serviceId: number;
  name: string;
  before: PricePoint;
  after: PricePoint;
  /** Why, when more than the run's cause says (a held provider price, a vanished service). */
  note?: string;
}
