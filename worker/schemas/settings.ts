import { z } from 'zod';

const text = (max: number) => z.string().trim().max(max, { error: `Must be at most ${max} characters` });

export const siteSettingsSchema = z.object({
  siteName: text(80).min(1, { error: 'Site name is required' }),
  logoUrl: z.union([z.literal(''), z.url({ error: 'Logo must be a URL' }).max(500)]),
  contactEmail: z.union([z.literal(''), z.email({ error: 'Invalid email address' })]),
  contactPhone: text(40),
  address: text(300),
  aboutUs: text(10_000),
  contactUs: text(10_000),
  defaultCurrency: z.string().trim().regex(/^[A-Z]{3}$/, { error: 'Currency must be a 3-letter code' }),
  maintenanceNotice: text(500),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** Deposit limits in naira; keys are write-only: empty or absent keeps the stored one. */
export const paymentSettingsSchema = z
  .object({
    provider: z.enum(['paystack', 'flutterwave'], { error: 'Provider must be paystack or flutterwave' }),
    mode: z.enum(['test', 'live'], { error: 'Mode must be test or live' }),
    minDeposit: z.coerce.number({ error: 'Minimum deposit must be a number' }).int({ error: 'Minimum deposit must be whole naira' }).min(1, { error: 'Minimum deposit must be at least 1' }),
    maxDeposit: z.coerce.number({ error: 'Maximum deposit must be a number' }).int({ error: 'Maximum deposit must be whole naira' }).max(100_000_000, { error: 'Maximum deposit is too large' }),
    paystackSecretKey: z.string().trim().max(200).optional(),
    flutterwaveSecretKey: z.string().trim().max(200).optional(),
    flutterwaveWebhookHash: z.string().trim().max(200).optional(),
  })
  .refine((v) => v.maxDeposit >= v.minDeposit, { path: ['maxDeposit'], error: 'Maximum deposit must not be below the minimum' });
export type PaymentSettingsInput = z.infer<typeof paymentSettingsSchema>;
