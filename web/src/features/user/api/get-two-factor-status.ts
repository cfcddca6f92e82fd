// GET auth/2fa: whether an administrator's two-factor sign-in is on, since when, the recovery codes left, and whether the site requires it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getTwoFactorStatus = (signal?: AbortSignal) => read(client.auth['2fa'].$get(undefined, { init: { signal } }));

export const twoFactorStatusKey = ['auth', '2fa'] as const;

export const twoFactorStatusQuery = queryOptions({
  queryKey: twoFactorStatusKey,
  queryFn: async ({ signal }) => (await getTwoFactorStatus(signal)).data,
});

export const useTwoFactorStatus = () => useQuery(twoFactorStatusQuery);
