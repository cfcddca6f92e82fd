import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicApi } from '@/lib/api';
import { DEFAULT_CURRENCY } from '@/lib/format';

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
  /** 'test' while the shop takes sandbox payments (every page then says so). */
  paymentMode?: 'test' | 'live' | null;
  /** Customers can fund their wallet by bank transfer to a personal account number. */
  bankTransfer?: boolean | null;
}

export const SITE_NAME_FALLBACK = 'SMM Provider';

export const publicSettingsKey = ['settings', 'public'] as const;

export const publicSettingsQuery = queryOptions({
  queryKey: publicSettingsKey,
  queryFn: ({ signal }) => publicApi.get<PublicSettings>('settings/public', { signal }),
  staleTime: 5 * 60_000,
});

export function usePublicSettings() {
  return useQuery(publicSettingsQuery);
}

/**
 * The currency of every amount the API sends: always NGN (naira). Admin screens label their
 * amounts with it. It is deliberately not the site's defaultCurrency: that only picks the
 * visitor's initial display currency, and amounts shown in another currency must be converted,
 * which `useDisplayCurrency()` (./currency) does for the public and user screens.
 */
export function useCurrency(): string {
  return DEFAULT_CURRENCY;
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
