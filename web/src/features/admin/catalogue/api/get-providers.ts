// GET admin/providers: every upstream provider with its balance, sync state and service count.
import { useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type AdminProvider = InferResponseType<typeof client.admin.providers.$get, 200>['data'][number];

export const getProviders = async (signal?: AbortSignal) => (await read(client.admin.providers.$get(undefined, { init: { signal } }))).data;

export const providersQueryOptions = () => adminQuery(['catalogue', 'providers'], getProviders);

export const useProviders = () => useQuery(providersQueryOptions());
