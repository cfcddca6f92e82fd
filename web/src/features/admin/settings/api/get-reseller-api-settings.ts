// GET admin/settings/reseller-api: how many calls of each kind one API key may make in a minute, and
// whether add, refill and cancel sent over GET are refused.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { settingsKeys } from './keys';

export const getResellerApiSettings = async (signal?: AbortSignal) =>
  (await read(client.admin.settings['reseller-api'].$get(undefined, { init: { signal } }))).data;

export const resellerApiSettingsQueryOptions = () =>
  queryOptions({ queryKey: settingsKeys.resellerApi, queryFn: ({ signal }) => getResellerApiSettings(signal) });

export const useResellerApiSettings = () => useQuery(resellerApiSettingsQueryOptions());
