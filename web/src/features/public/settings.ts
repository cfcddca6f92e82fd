import { useQuery } from '@tanstack/react-query';
import { publicApi } from '@/lib/api';

/** GET settings/public */
export interface PublicSettings {
  siteName?: string | null;
  logoUrl?: string | null;
  contactEmail?: string | null;
  contactPhone?: string | null;
  address?: string | null;
  aboutUs?: string | null;
  contactUs?: string | null;
  defaultCurrency?: string | null;
  maintenanceNotice?: string | null;
  minDeposit?: number | string | null;
  maxDeposit?: number | string | null;
}

export const SITE_NAME_FALLBACK = 'SMM Provider';

export const publicSettingsKey = ['settings', 'public'] as const;

export function usePublicSettings() {
  return useQuery({
    queryKey: publicSettingsKey,
    queryFn: ({ signal }) => publicApi.get<PublicSettings>('settings/public', { signal }),
    staleTime: 5 * 60_000,
  });
}

/** The site's currency (settings.defaultCurrency), NGN until settings load. */
export function useCurrency(): string {
  const { data } = usePublicSettings();
  const c = data?.defaultCurrency;
  return typeof c === 'string' && /^[A-Z]{3}$/.test(c) ? c : 'NGN';
}

export const toLimit = (v: number | string | null | undefined): number | null => {
  if (v === null || v === undefined || v === '') return null;
  const n = Number(v);
  return Number.isFinite(n) && n > 0 ? n : null;
};

/** GET rates: latest exchange rates based on USD (e.g. rates.NGN = naira per dollar). */
export interface RatesResponse {
  base: string;
  rates: Record<string, string | number>;
  updatedAt?: string | null;
}

export function useRates() {
  return useQuery({
    queryKey: ['rates'],
    // The answer is the rates object, or (as the Worker sends it) that object under `data`.
    queryFn: async ({ signal }) => {
      const res = await publicApi.get<RatesResponse | { data?: RatesResponse }>('rates', { signal });
      return (res && 'data' in res && res.data ? res.data : res) as RatesResponse;
    },
    staleTime: 30 * 60_000,
    retry: false,
  });
}

/** `amount` in `currency` converted to US dollars with the USD-based rates, or null. */
export function toUsd(amount: number, currency: string, rates: RatesResponse | undefined): number | null {
  if (!rates || rates.base !== 'USD' || !Number.isFinite(amount)) return null;
  const perUsd = Number(rates.rates?.[currency]);
  return Number.isFinite(perUsd) && perUsd > 0 ? amount / perUsd : null;
}
