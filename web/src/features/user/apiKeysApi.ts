// Reseller API key calls (user/api-keys): list, create, rotate, revoke. A key's secret arrives
// only in the answer to create and rotate.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';

export interface ApiKey {
  id: number;
  name: string;
  /** The key's first characters, to tell keys apart. */
  prefix: string;
  created_at: string;
  last_used_at: string | null;
}

/** A key just made or rotated, with its secret: shown once. */
export interface NewApiKey extends ApiKey {
  key: string;
}

export const apiKeyKeys = { all: ['api-keys'] as const };

export function useApiKeys() {
  return useQuery({
    queryKey: apiKeyKeys.all,
    queryFn: ({ signal }) => api.get<{ data: ApiKey[] }>('user/api-keys', { signal }).then((res) => res.data),
  });
}

export const createApiKey = (name: string) => api.post<{ message: string; data: NewApiKey }>('user/api-keys', { name });
export const rotateApiKey = (id: number) => api.post<{ message: string; data: NewApiKey }>(`user/api-keys/${id}/rotate`);
export const revokeApiKey = (id: number) => api.delete<{ message: string }>(`user/api-keys/${id}`);
