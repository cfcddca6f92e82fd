// GET admin/services: every service with its provider, cost, price and why it is off, filtered and paged.
import { useQuery } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';
import { pagedList } from '@/lib/queries';

export type AdminServiceQuery = NonNullable<InferRequestType<typeof client.admin.services.$get>['query']>;
export type AdminService = InferResponseType<typeof client.admin.services.$get, 200>['data'][number];

export const getAdminServices = (query: AdminServiceQuery, signal?: AbortSignal) => read(client.admin.services.$get({ query }, { init: { signal } }));

export const adminServicesQueryOptions = (query: AdminServiceQuery) =>
  pagedList(adminQuery(['catalogue', 'services', query], (signal) => getAdminServices(query, signal)));

export const useAdminServices = (query: AdminServiceQuery) => useQuery(adminServicesQueryOptions(query));
