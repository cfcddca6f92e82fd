// GET admin/providers/:id/services: the provider's live catalogue, what can be imported from it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getProviderCatalogue = (providerId: number, signal?: AbortSignal) =>
  read(client.admin.providers[':id'].services.$get({ param: { id: String(providerId) } }, { init: { signal } }));

export const providerCatalogueQueryOptions = (providerId: number) =>
  queryOptions({
    queryKey: ['admin', 'catalogue', 'provider-services', providerId],
    queryFn: ({ signal }) => getProviderCatalogue(providerId, signal),
    staleTime: 5 * 60_000,
  });

/** Loaded once the import dialog has a provider to show. */
export const useProviderCatalogue = (providerId: number | null) =>
  useQuery({ ...providerCatalogueQueryOptions(providerId ?? 0), enabled: providerId !== null });
