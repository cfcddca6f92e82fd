// The user's favourite services (user/favorites): the ids for the stars beside services, and the
// star/unstar mutation, which shows the new state at once and puts it back if the call fails.
// Shared code because the services list, the order form and the Favorites screen all star.
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, handleApiError } from '@/lib/api';

export const favoriteKeys = {
  all: ['favorites'] as const,
  ids: ['favorites', 'ids'] as const,
  list: ['favorites', 'list'] as const,
};

export const favoriteIdsQuery = {
  queryKey: favoriteKeys.ids,
  queryFn: ({ signal }: { signal: AbortSignal }) => api.get<{ data: number[] }>('user/favorites/ids', { signal }),
  select: (r: { data: number[] } | undefined) => new Set((Array.isArray(r?.data) ? r.data : []).map(Number)),
  staleTime: 5 * 60_000,
};

/** Whether a service is starred; `enabled: false` for visitors, who have no favourites. */
export function useFavoriteIds(enabled = true) {
  return useQuery({ ...favoriteIdsQuery, enabled });
}

export function useToggleFavorite() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ serviceId, starred }: { serviceId: number; starred: boolean }) =>
      starred ? api.put(`user/favorites/${serviceId}`) : api.delete(`user/favorites/${serviceId}`),
    onMutate: async ({ serviceId, starred }) => {
      await queryClient.cancelQueries({ queryKey: favoriteKeys.ids });
      const before = queryClient.getQueryData<{ data: number[] }>(favoriteKeys.ids);
      const ids = new Set((before?.data ?? []).map(Number));
      if (starred) ids.add(serviceId);
      else ids.delete(serviceId);
      queryClient.setQueryData(favoriteKeys.ids, { ...before, data: [...ids] });
      return { before };
    },
    onError: (error, _vars, context) => {
      queryClient.setQueryData(favoriteKeys.ids, context?.before);
      handleApiError(error, { toast: true });
    },
    onSettled: () => queryClient.invalidateQueries({ queryKey: favoriteKeys.all }),
  });
}
