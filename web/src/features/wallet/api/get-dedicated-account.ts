// GET user/dedicated-account: the user's personal account number for bank transfers (null until asked for).
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getDedicatedAccount = (signal?: AbortSignal) => read(client.user['dedicated-account'].$get(undefined, { init: { signal } }));

export const dedicatedAccountQuery = queryOptions({
  queryKey: ['wallet', 'dedicated-account'],
  queryFn: ({ signal }) => getDedicatedAccount(signal),
  staleTime: 5 * 60_000,
});

export const useDedicatedAccount = (enabled: boolean) => useQuery({ ...dedicatedAccountQuery, select: (r) => r.data, enabled });
