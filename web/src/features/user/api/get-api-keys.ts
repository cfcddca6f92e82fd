// GET user/api-keys: the user's live reseller API keys, without their secrets, and those stopped lately with why.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getApiKeys = (signal?: AbortSignal) => read(client.user['api-keys'].$get(undefined, { init: { signal } }));
type ApiKeysAnswer = Awaited<ReturnType<typeof getApiKeys>>;
export type ApiKey = ApiKeysAnswer['data'][number];
export type RevokedApiKey = ApiKeysAnswer['revoked'][number];

export const apiKeyKeys = { all: ['api-keys'] as const };

export const apiKeysQuery = queryOptions({
  queryKey: apiKeyKeys.all,
  queryFn: async ({ signal }) => {
    const { data, revoked } = await getApiKeys(signal);
    return { live: data, revoked };
  },
});

export const useApiKeys = () => useQuery(apiKeysQuery);
