// GET user/favorites: the starred services, each with the user's last order of it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';
import { favoriteKeys } from '@/lib/favorites';

/** `available`: still on sale; a service switched off stays listed, to be unstarred, but cannot be ordered. */
export type Favorite = InferResponseType<typeof client.user.favorites.$get, 200>['data'][number];

export const getFavorites = (signal?: AbortSignal) => read(client.user.favorites.$get(undefined, { init: { signal } }));

export const favoritesQuery = queryOptions({ queryKey: favoriteKeys.list, queryFn: ({ signal }) => getFavorites(signal) });

export const useFavorites = () => useQuery({ ...favoritesQuery, select: (r) => r.data });
