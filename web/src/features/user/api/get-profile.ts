// GET user/getCurrentProfile: the signed-in account (both user types), as the session starts and on the profile screen.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';

export const getProfile = (signal?: AbortSignal) => read(client.user.getCurrentProfile.$get(undefined, { init: { signal } }));
export type ProfileAnswer = Awaited<ReturnType<typeof getProfile>>;

export const profileKey = ['profile'] as const;

export const profileQuery = queryOptions({
  queryKey: profileKey,
  queryFn: async ({ signal }) => (await getProfile(signal)).data,
  staleTime: 0,
});

export const useProfile = () => useQuery(profileQuery);
