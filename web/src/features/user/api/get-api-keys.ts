// GET user/api-keys: the user's live reseller API keys, without their secrets, those stopped lately with why, and what
// every key may do (the operator's limits per minute, and whether writes are taken over GET).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getApiKeys = (signal?: AbortSignal) => read(client.user['api-keys'].$get(undefined, { init: { signal } }));
type ApiKeysAnswer = Awaited<ReturnType<typeof getApiKeys>>;
export type ApiKey = ApiKeysAnswer['data'][number];
export type RevokedApiKey = ApiKeysAnswer['revoked'][number];
export type ApiLimits = ApiKeysAnswer['limits'];

export const apiKeyKeys = { all: ['api-keys'] as const };

export const apiKeysQuery = queryOptions({
  queryKey: apiKeyKeys.all,
  queryFn: async ({ signal }) => {
    const { data, revoked, limits } = await getApiKeys(signal);
    return { live: data, revoked, limits };
  },
});

export const useApiKeys = () => useQuery(apiKeysQuery);
