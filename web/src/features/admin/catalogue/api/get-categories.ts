// GET admin/services/categories: every category with its platform, service count and markup.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type AdminCategory = InferResponseType<typeof client.admin.services.categories.$get, 200>['data'][number];

export const getAdminCategories = async (signal?: AbortSignal) => (await read(client.admin.services.categories.$get(undefined, { init: { signal } }))).data;

export const adminCategoriesQueryOptions = () =>
  queryOptions({
    // Under 'admin', so useRefreshAdmin re-reads it after any change.
    queryKey: ['admin', 'catalogue', 'categories'],
    queryFn: ({ signal }) => getAdminCategories(signal),
  });

export const useAdminCategories = () => useQuery(adminCategoriesQueryOptions());
