// GET admin/administrators: who runs the shop, searched by name or email.

import type { UserListQuery } from '@schemas/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminKeys, asQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

type AdministratorListQuery = Pick<UserListQuery, 'page' | 'limit' | 'search'>;

export const getAdministrators = (q: AdministratorListQuery, signal?: AbortSignal) =>
  read(client.admin.administrators.$get({ query: asQuery(q) }, { init: { signal } }));

export const administratorsQueryOptions = (q: AdministratorListQuery) =>
  queryOptions({ queryKey: adminKeys.administrators(q), queryFn: ({ signal }) => getAdministrators(q, signal), placeholderData: keepPreviousData });

export const useAdministrators = (q: AdministratorListQuery) => useQuery(administratorsQueryOptions(q));
