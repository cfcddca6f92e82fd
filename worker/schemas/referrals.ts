// Referral schemas shared by the Worker (validation) and the SPA (forms). Pure zod, no other imports.

import { paginationSchema, trimmedText } from './common';
import { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH } from './referral-code';
import { nairaAmount } from './wallet';
import { z } from './zod';

export { REFERRAL_CODE_ALPHABET, REFERRAL_CODE_LENGTH };
export const DEFAULT_REFERRAL_RATE_BPS = 500;
export const MAX_REFERRAL_RATE_BPS = 5000;
/** How long a commission is held before the referrer can spend it: a deposit is most often refunded or disputed within it. */
export const DEFAULT_REFERRAL_HOLD_DAYS = 14;
export const MAX_REFERRAL_HOLD_DAYS = 90;

/**
 * The code from a referral link as registration receives it. Anything that is not a code is
 * dropped, never refused: a mangled link must not stop anyone from signing up.
 */
export const referralCodeField = z
  .string()
  .trim()
  .toUpperCase()
  .regex(new RegExp(`^[${REFERRAL_CODE_ALPHABET}]{${REFERRAL_CODE_LENGTH}}$`))
  .optional()
  .catch(undefined);

/**
 * PUT admin/referrals/settings: the commission as a percentage of each referred deposit, up to two decimals; how many
 * days it is held; the most one referred account can earn its referrer (naira, null for no cap). Omitted: unchanged.
 */
export const referralSettingsSchema = z.object({
  enabled: z.boolean({ error: 'enabled must be true or false' }),
  ratePercent: z
    .string({ error: 'Commission must be a percentage' })
    .trim()
    .regex(/^\d{1,2}(\.\d{1,2})?$/, { error: 'Commission must be a percentage with at most two decimals' })
    .refine((value) => Number(value) > 0 && Number(value) * 100 <= MAX_REFERRAL_RATE_BPS, {
      error: `Commission must be more than 0% and at most ${MAX_REFERRAL_RATE_BPS / 100}%`,
    }),
  holdDays: z
    .number({ error: 'Hold must be a whole number of days' })
    .int({ error: 'Hold must be a whole number of days' })
    .min(0, { error: 'Hold must be a whole number of days' })
    .max(MAX_REFERRAL_HOLD_DAYS, { error: `Hold must be at most ${MAX_REFERRAL_HOLD_DAYS} days` })
    .optional(),
  capPerReferred: nairaAmount('Cap must be an amount in naira, like 5000').nullable().optional(),
});
export type ReferralSettingsInput = z.infer<typeof referralSettingsSchema>;

/** POST admin/referrals/:referredUserId/void. */
export const voidReferralSchema = z.object({
  reason: trimmedText({ required: 'Please give a reason', min: 3, max: 300, tooLong: 'Reason must be at most 300 characters' }),
});

export const adminReferralsQuerySchema = paginationSchema.extend({
  /** Referrals made by this user, or of this user. */
  userId: z.coerce.number().int().positive().max(2_147_483_647).optional(),
});
export type AdminReferralsQuery = z.infer<typeof adminReferralsQuerySchema>;
