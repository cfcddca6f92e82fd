// GET admin/settings/site: what visitors see on the public pages.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { settingsKeys } from './keys';

export const getSiteSettings = async (signal?: AbortSignal) => (await read(client.admin.settings.site.$get(undefined, { init: { signal } }))).data;

export const siteSettingsQueryOptions = () => queryOptions({ queryKey: settingsKeys.site, queryFn: ({ signal }) => getSiteSettings(signal) });

export const useSiteSettings = () => useQuery(siteSettingsQueryOptions());
