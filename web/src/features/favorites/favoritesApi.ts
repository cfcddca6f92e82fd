// GET user/favorites: the starred services, each with the user's last order of it.
import { useQuery } from '@tanstack/react-query';
import { api } from '@/lib/api';
import { favoriteKeys } from '@/lib/favorites';
import type { Service } from '@/features/orders/catalog';

export interface Favorite {
  service: Service;
  /** Still on sale: a service switched off stays listed, to be unstarred, but cannot be ordered. */
  available: boolean;
  starredAt: string;
  lastOrder: { link: string; quantity: number; orderedAt: string } | null;
}

export function useFavorites() {
  return useQuery({
    queryKey: favoriteKeys.list,
    queryFn: ({ signal }) => api.get<{ data: Favorite[] }>('user/favorites', { signal }),
    select: (r) => (Array.isArray(r?.data) ? r.data : []),
  });
}

/** The order form, filled with the service and, when there is one, the last order's link and quantity. */
export function orderAgainPath({ service, lastOrder }: Pick<Favorite, 'service' | 'lastOrder'>): string {
  const params = new URLSearchParams({ service: String(service.id) });
  if (lastOrder) {
    params.set('link', lastOrder.link);
    params.set('quantity', String(lastOrder.quantity));
  }
  return `/user/create-order?${params}`;
}
