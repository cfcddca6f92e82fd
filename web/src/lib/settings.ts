import { queryOptions, useQuery } from '@tanstack/react-query';
import { publicClient, read } from './api';
import { DEFAULT_CURRENCY } from './moneyFormat';

export const SITE_NAME_FALLBACK = 'SMM Provider';

export const publicSettingsKey = ['settings', 'public'] as const;

export const publicSettingsQuery = queryOptions({
  queryKey: publicSettingsKey,
  queryFn: ({ signal }) => read(publicClient.settings.public.$get(undefined, { init: { signal } })),
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
export function useRates() {
  return useQuery({
    queryKey: ['rates'],
    queryFn: async ({ signal }) => (await read(publicClient.rates.$get(undefined, { init: { signal } }))).data,
    staleTime: 30 * 60_000,
    retry: false,
  });
}
