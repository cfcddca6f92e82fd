// Site and payment settings (worker/routes/settings.ts). Payment keys are write-only: the
// answer says only which are configured, and whether the provider accepts them.
import { useQuery } from '@tanstack/react-query';
import type { PaymentSettingsInput, SiteSettings } from '@schemas/settings';
import { api } from '@/lib/api';

type KeyFlags = Record<'paystackSecretKey' | 'flutterwaveSecretKey' | 'flutterwaveWebhookHash', boolean>;

export interface FlaggedPayment {
  reference: string;
  provider: string;
  amount: string;
  userId: number;
  email: string;
  flaggedAt: string | null;
}

/** The provider's refusals of the shop's own calls (checkout, confirmation, "Check now") since its key was last accepted. */
export interface PaymentRefusals {
  count: number;
  lastError: string;
  lastAt: string;
}

/** What is known of a provider's secret key in effect. */
export interface KeyCheck {
  /** Saved here, or the deployment's secret standing in; null when there is none. */
  source: 'settings' | 'deployment' | null;
  /** When the provider last accepted this very key; null when never, or not since it changed. */
  verifiedAt: string | null;
  refusals: PaymentRefusals | null;
}

/** GET admin/dashboard's paymentRefusals: the provider taking deposits now is refusing the shop. */
export interface PaymentRefusalAlert extends PaymentRefusals {
  provider: 'paystack' | 'flutterwave';
  label: string;
  /** When its key was last accepted, if ever. */
  verifiedAt: string | null;
}

export interface PaymentSettingsView {
  provider: 'paystack' | 'flutterwave';
  mode: 'test' | 'live';
  minDeposit: number;
  maxDeposit: number;
  /** Customers may fund by bank transfer to a personal account number (Paystack). */
  bankTransfer: boolean;
  /** Saved here (encrypted). */
  configuredKeys: KeyFlags;
  /** Set as the deployment's secrets; used while nothing is saved here. */
  deploymentKeys: KeyFlags;
  keyChecks: Record<'paystack' | 'flutterwave', KeyCheck>;
  /** Why card payments are refused right now, for the administrator; null when they are taken. */
  problem: string | null;
  /** Test payments that reached the shop in live mode, refused and kept for review (last 30 days). */
  flaggedPayments: { total: number; recent: FlaggedPayment[] };
}

export const settingsKeys = {
  site: ['admin', 'settings', 'site'] as const,
  payment: ['admin', 'settings', 'payment'] as const,
};

export function useSiteSettings() {
  return useQuery({ queryKey: settingsKeys.site, queryFn: async ({ signal }) => (await api.get<{ data: SiteSettings }>('admin/settings/site', { signal })).data });
}
export const saveSiteSettings = (body: SiteSettings) => api.put<{ message?: string; data: SiteSettings }>('admin/settings/site', body);

export function usePaymentSettings() {
  return useQuery({ queryKey: settingsKeys.payment, queryFn: async ({ signal }) => (await api.get<{ data: PaymentSettingsView }>('admin/settings/payment', { signal })).data });
}
export const savePaymentSettings = (body: PaymentSettingsInput) => api.put<{ message?: string; data: PaymentSettingsView }>('admin/settings/payment', body);
/** Asks the provider about its secret key in effect again; a refusal is counted and its message thrown. */
export const checkPaymentKey = (provider: PaymentSettingsView['provider']) =>
  api.post<{ message?: string; data: PaymentSettingsView }>('admin/settings/payment/check', { provider });
