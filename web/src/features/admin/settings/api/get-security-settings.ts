// GET admin/settings/security: whether administrators must use two-factor sign-in.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { settingsKeys } from './keys';

export const getSecuritySettings = async (signal?: AbortSignal) => (await read(client.admin.settings.security.$get(undefined, { init: { signal } }))).data;

export const securitySettingsQueryOptions = () => queryOptions({ queryKey: settingsKeys.security, queryFn: ({ signal }) => getSecuritySettings(signal) });

export const useSecuritySettings = () => useQuery(securitySettingsQueryOptions());
