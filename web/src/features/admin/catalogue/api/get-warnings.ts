// GET admin/services/warnings: what the catalogue sync, the margin guard and the order sync told administrators.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type WarningQuery = NonNullable<InferRequestType<typeof client.admin.services.warnings.$get>['query']>;

export const getCatalogueWarnings = (query: WarningQuery, signal?: AbortSignal) => read(client.admin.services.warnings.$get({ query }, { init: { signal } }));

export const catalogueWarningsQueryOptions = (query: WarningQuery) =>
  queryOptions({
    // Under 'admin', so useRefreshAdmin re-reads it after any change.
    queryKey: ['admin', 'catalogue', 'warnings', query],
    queryFn: ({ signal }) => getCatalogueWarnings(query, signal),
    placeholderData: keepPreviousData,
  });

export const useCatalogueWarnings = (query: WarningQuery) => useQuery(catalogueWarningsQueryOptions(query));
