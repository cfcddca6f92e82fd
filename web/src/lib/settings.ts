import { queryOptions, useQuery } from '@tanstack/react-query';
import { useEffect } from 'react';
import { publicClient, read } from './api';
import { DEFAULT_CURRENCY } from './moneyFormat';

export const SITE_NAME_FALLBACK = 'SMM Provider';

export const publicSettingsKey = ['settings', 'public'] as const;

/** How often the public settings are re-read while the page is visible, so a tab left open follows a new site name or maintenance notice. */
export const SETTINGS_REFRESH_MS = 5 * 60_000;

/**
 * GET settings/public: the site name, logo, notices and payment mode the layouts show. Re-read every SETTINGS_REFRESH_MS
 * while the tab is visible (paused while hidden) and when it regains focus once older than a minute.
 */
export const publicSettingsQuery = queryOptions({
  queryKey: publicSettingsKey,
  queryFn: ({ signal }) => read(publicClient.settings.public.$get(undefined, { init: { signal } })),
  staleTime: 60_000,
  refetchOnWindowFocus: true,
  refetchInterval: SETTINGS_REFRESH_MS,
  refetchIntervalInBackground: false,
});

export function usePublicSettings() {
  return useQuery(publicSettingsQuery);
}

/** The browser tab's title for a site name: index.html's pre-rendered one ("SMM Provider – ...") with the shop's own name. */
export const siteTitle = (siteName: string) => `${siteName} – Social media marketing services`;

/** Keeps the tab's title on the site name the settings give (index.html's title stays until they answer). Called by the layouts. */
export function useSiteTitle(siteName: string | null | undefined): void {
  const name = siteName?.trim();
  useEffect(() => {
    if (name) document.title = siteTitle(name);
  }, [name]);
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
