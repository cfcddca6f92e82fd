// GET admin/services/categories: every category with its platform, service count and markup.
import { useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type AdminCategory = InferResponseType<typeof client.admin.services.categories.$get, 200>['data'][number];

export const getAdminCategories = async (signal?: AbortSignal) => (await read(client.admin.services.categories.$get(undefined, { init: { signal } }))).data;

export const adminCategoriesQueryOptions = () => adminQuery(['catalogue', 'categories'], getAdminCategories);

export const useAdminCategories = () => useQuery(adminCategoriesQueryOptions());
