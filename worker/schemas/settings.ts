import { z } from './zod';

const text = (max: number) =>
  z
    .string()
    .trim()
    .max(max, { error: `Must be at most ${max} characters` });

export const siteSettingsSchema = z.object({
  siteName: text(80).min(1, { error: 'Site name is required' }),
  logoUrl: z.union([z.literal(''), z.url({ error: 'Logo must be a URL' }).max(500)]),
  contactEmail: z.union([z.literal(''), z.email({ error: 'Invalid email address' })]),
  contactPhone: text(40),
  address: text(300),
  aboutUs: text(10_000),
  contactUs: text(10_000),
  defaultCurrency: z
    .string()
    .trim()
    .regex(/^[A-Z]{3}$/, { error: 'Currency must be a 3-letter code' }),
  maintenanceNotice: text(500),
});
export type SiteSettings = z.infer<typeof siteSettingsSchema>;

/** Security settings; "Administrators must use two-factor" is on by default outside the local stack and the tests. */
export const securitySettingsSchema = z.object({
  adminTwoFactorRequired: z.boolean({ error: 'adminTwoFactorRequired must be true or false' }),
});
export type SecuritySettings = z.infer<typeof securitySettingsSchema>;

/** The reseller API's metered kinds of call: `add` also meters refill and cancel, `status` also refill_status. */
export const RESELLER_METERED_ACTIONS = ['add', 'status', 'services', 'balance'] as const;
export type ResellerMeteredAction = (typeof RESELLER_METERED_ACTIONS)[number];
export const MAX_CALLS_PER_MINUTE = 100_000;

const callsPerMinute = (action: ResellerMeteredAction) =>
  z
    .number({ error: `${action}: enter a whole number of calls per minute` })
    .int({ error: `${action}: enter a whole number of calls per minute` })
    .min(1, { error: `${action}: at least 1 call per minute` })
    .max(MAX_CALLS_PER_MINUTE, { error: `${action}: at most ${MAX_CALLS_PER_MINUTE.toLocaleString('en-US')} calls per minute` });

/** What the operator sets about the reseller API (/api/v2): calls per key and minute of each kind, and GET for writes. */
export const resellerApiSettingsSchema = z.object({
  refuseWritesOverGet: z.boolean({ error: 'refuseWritesOverGet must be true or false' }),
  perMinute: z.object({
    add: callsPerMinute('add'),
    status: callsPerMinute('status'),
    services: callsPerMinute('services'),
    balance: callsPerMinute('balance'),
  }),
});
export type ResellerApiSettings = z.infer<typeof resellerApiSettingsSchema>;

/** The keys Payment Settings can hold, each standing in for a deployment secret. */
export const PAYMENT_SECRET_NAMES = ['paystackSecretKey', 'flutterwaveSecretKey', 'flutterwaveWebhookHash'] as const;
export const PAYMENT_PROVIDERS = ['paystack', 'flutterwave'] as const;
export type PaymentProviderId = (typeof PAYMENT_PROVIDERS)[number];
/** How administrators and customers see each provider's name. */
export const PAYMENT_PROVIDER_LABELS: Record<PaymentProviderId, string> = { paystack: 'Paystack', flutterwave: 'Flutterwave' };
/** The key each provider's calls are authorised with (the Flutterwave webhook hash is no provider's secret key). */
export const PAYMENT_SECRET_KEY_OF = { paystack: 'paystackSecretKey', flutterwave: 'flutterwaveSecretKey' } as const satisfies Record<
  PaymentProviderId,
  (typeof PAYMENT_SECRET_NAMES)[number]
>;
const provider = z.enum(PAYMENT_PROVIDERS, { error: 'Provider must be paystack or flutterwave' });

/**
 * Deposit limits in naira; keys are write-only: empty or absent keeps the stored one, and a key
 * named in clearKeys is removed so the deployment's secret is used again.
 */
export const paymentSettingsSchema = z
  .object({
    provider,
    mode: z.enum(['test', 'live'], { error: 'Mode must be test or live' }),
    minDeposit: z.coerce
      .number({ error: 'Minimum deposit must be a number' })
      .int({ error: 'Minimum deposit must be whole naira' })
      .min(1, { error: 'Minimum deposit must be at least 1' }),
    maxDeposit: z.coerce
      .number({ error: 'Maximum deposit must be a number' })
      .int({ error: 'Maximum deposit must be whole naira' })
      .max(100_000_000, { error: 'Maximum deposit is too large' }),
    paystackSecretKey: z.string().trim().max(200).optional(),
    flutterwaveSecretKey: z.string().trim().max(200).optional(),
    flutterwaveWebhookHash: z.string().trim().max(200).optional(),
    /** Funding by bank transfer (Paystack dedicated accounts); left out, it stays as it is. */
    bankTransfer: z.boolean({ error: 'bankTransfer must be true or false' }).optional(),
    clearKeys: z
      .array(z.enum(PAYMENT_SECRET_NAMES, { error: 'Unknown key to clear' }))
      .max(PAYMENT_SECRET_NAMES.length)
      .optional(),
  })
  .refine((v) => v.maxDeposit >= v.minDeposit, { path: ['maxDeposit'], error: 'Maximum deposit must not be below the minimum' })
  .refine((v) => !v.clearKeys?.some((name) => v[name]), { path: ['clearKeys'], error: 'Enter a new key or clear the saved one, not both.' });
export type PaymentSettingsInput = z.infer<typeof paymentSettingsSchema>;

/** Checks the secret key in effect for a provider again, without changing any setting. */
export const paymentKeyCheckSchema = z.object({ provider });
export type PaymentKeyCheckInput = z.infer<typeof paymentKeyCheckSchema>;
