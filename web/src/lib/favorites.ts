// The user's favourite services (user/favorites): the ids for the stars beside services, and the
// star/unstar mutation, which shows the new state at once and puts it back if the call fails.
// Shared code because the services list, the order form and the Favorites screen all star.
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { client, handleApiError, read } from './api';

export const favoriteKeys = {
  all: ['favorites'] as const,
  ids: ['favorites', 'ids'] as const,
  list: ['favorites', 'list'] as const,
};

export const getFavoriteIds = (signal?: AbortSignal) => read(client.user.favorites.ids.$get(undefined, { init: { signal } }));

const star = (serviceId: number) => read(client.user.favorites[':serviceId'].$put({ param: { serviceId: String(serviceId) } }));
const unstar = (serviceId: number) => read(client.user.favorites[':serviceId'].$delete({ param: { serviceId: String(serviceId) } }));

/** The starred ids alone are kept, so a star can change them before the server answers. */
export const favoriteIdsQuery = queryOptions({
  queryKey: favoriteKeys.ids,
  queryFn: async ({ signal }) => (await getFavoriteIds(signal)).data,
  staleTime: 5 * 60_000,
});

const toIdSet = (ids: number[]) => new Set(ids);

/** Whether a service is starred; `enabled: false` for visitors, who have no favourites. */
export function useFavoriteIds(enabled = true) {
  return useQuery({ ...favoriteIdsQuery, select: toIdSet, enabled });
}

export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serviceId, starred }: { serviceId: number; starred: boolean }) => (starred ? star(serviceId) : unstar(serviceId)),
    onMutate: async ({ serviceId, starred }) => {
      await queryClient.cancelQueries({ queryKey: favoriteKeys.ids });
      const before = queryClient.getQueryData(favoriteIdsQuery.queryKey);
      const ids = new Set(before);
      if (starred) ids.add(serviceId);
      else ids.delete(serviceId);
      queryClient.setQueryData(favoriteIdsQuery.queryKey, [...ids]);
      return { before };
    },
    onError: (error, _vars, context) => {
      queryClient.setQueryData(favoriteIdsQuery.queryKey, context?.before);
      handleApiError(error, { toast: true });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: favoriteKeys.all }),
  });
}
