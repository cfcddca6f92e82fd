// GET admin/services/warnings: what the catalogue sync, the margin guard and the order sync told administrators.
import { useQuery } from '@tanstack/react-query';
import type { InferRequestType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';
import { pagedList } from '@/lib/queries';

export type WarningQuery = NonNullable<InferRequestType<typeof client.admin.services.warnings.$get>['query']>;

export const getCatalogueWarnings = (query: WarningQuery, signal?: AbortSignal) => read(client.admin.services.warnings.$get({ query }, { init: { signal } }));

export const catalogueWarningsQueryOptions = (query: WarningQuery) =>
  pagedList(adminQuery(['catalogue', 'warnings', query], (signal) => getCatalogueWarnings(query, signal)));

export const useCatalogueWarnings = (query: WarningQuery) => useQuery(catalogueWarningsQueryOptions(query));
