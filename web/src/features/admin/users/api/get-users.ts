// GET admin/users: every account, searched, filtered and sorted.

import type { UserListQuery } from '@schemas/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminKeys, asQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type AdminUser = InferResponseType<typeof client.admin.users.$get, 200>['data'][number];

export const getUsers = (q: UserListQuery, signal?: AbortSignal) => read(client.admin.users.$get({ query: asQuery(q) }, { init: { signal } }));

export const usersQueryOptions = (q: UserListQuery) =>
  queryOptions({ queryKey: adminKeys.users(q), queryFn: ({ signal }) => getUsers(q, signal), placeholderData: keepPreviousData });

export function useAdminUsers(q: UserListQuery, options: { enabled?: boolean } = {}) {
  return useQuery({ ...usersQueryOptions(q), enabled: options.enabled });
}
