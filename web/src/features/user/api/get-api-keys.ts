// GET user/api-keys: the user's reseller API keys, without their secrets.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getApiKeys = (signal?: AbortSignal) => read(client.user['api-keys'].$get(undefined, { init: { signal } }));
export type ApiKey = Awaited<ReturnType<typeof getApiKeys>>['data'][number];

export const apiKeyKeys = { all: ['api-keys'] as const };

export const apiKeysQuery = queryOptions({
  queryKey: apiKeyKeys.all,
  queryFn: async ({ signal }) => (await getApiKeys(signal)).data,
});

export const useApiKeys = () => useQuery(apiKeysQuery);
