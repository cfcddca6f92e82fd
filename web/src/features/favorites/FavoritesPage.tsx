// /user/favorites: starred services as cards, each with "Order again" (the form filled with the
// last link and quantity used for it) or "Order", and the star to take it off the list.
import { Link } from 'react-router-dom';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { PageHeader } from '@/components/PageHeader';
import { ServiceHeading } from '@/components/ServiceHeading';
import { Skeleton } from '@/components/Skeleton';
import { StarButton } from '@/components/StarButton';
import { Badge } from '@/components/StatusBadge';
import { TimeAgo } from '@/components/TimeAgo';
import { getErrorMessage } from '@/lib/api';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { formatCount } from '@/lib/format';
import { rateUnit } from '@/lib/serviceTypes';
import { type Favorite, useFavorites } from './api/get-favorites';

/** The order form, filled with the service and, when there is one, the last order's link and quantity. */
function orderAgainPath({ service, lastOrder }: Pick<Favorite, 'service' | 'lastOrder'>): string {
  const params = new URLSearchParams({ service: String(service.id) });
  if (lastOrder) {
    params.set('link', lastOrder.link);
    params.set('quantity', String(lastOrder.quantity));
  }
  return `/user/create-order?${params}`;
}

export default function FavoritesPage() {
  const favorites = useFavorites();
  return (
    <div className="space-y-5">
      <PageHeader title="Favorites" description="Services you starred, ready to order again in one tap." />
      {favorites.isPending ? (
        <div className="grid gap-3 sm:grid-cols-2" role="status" aria-label="Loading favorites">
          <Skeleton className="h-40 w-full" />
          <Skeleton className="h-40 w-full" />
        </div>
      ) : favorites.isError ? (
        <ErrorState message={getErrorMessage(favorites.error)} onRetry={() => void favorites.refetch()} />
      ) : favorites.data.length === 0 ? (
        <EmptyState
          icon="star"
          title="No favorites yet"
          action={
            <Link to="/user/services" className="btn btn-primary">
              Browse services
            </Link>
          }
        >
          Tap the star beside a service in Services or on the order form to keep it here.
        </EmptyState>
      ) : (
        <ul className="grid gap-3 sm:grid-cols-2" aria-label="Favorite services">
          {favorites.data.map((favorite) => (
            <FavoriteCard key={favorite.service.id} favorite={favorite} />
          ))}
        </ul>
      )}
    </div>
  );
}

function FavoriteCard({ favorite }: { favorite: Favorite }) {
  const money = useDisplayCurrency();
  const { service: s, lastOrder, available } = favorite;
  return (
    <li className="card flex min-w-0 flex-col gap-3 p-4">
      <ServiceHeading service={s}>
        <StarButton serviceId={s.id} serviceName={s.name} className="-mt-2 -mr-2" />
      </ServiceHeading>
      <p className="text-sm text-slate-700">
        <strong className="text-slate-900">{money.formatPrecise(s.rate)}</strong> {rateUnit(s)} · min {formatCount(s.min)} · max {formatCount(s.max)}
      </p>
      {lastOrder ? (
        <div className="rounded-xl bg-slate-50 p-3 text-sm">
          <p className="text-xs text-slate-500">
            Last ordered <TimeAgo at={lastOrder.orderedAt} />
          </p>
          <p className="truncate text-slate-800" title={lastOrder.link}>
            {lastOrder.link}
          </p>
          <p className="text-slate-600">Quantity {formatCount(lastOrder.quantity)}</p>
        </div>
      ) : null}
      <div className="mt-auto">
        {available ? (
          <Link to={orderAgainPath(favorite)} className="btn btn-primary w-full" aria-label={`${lastOrder ? 'Order again' : 'Order'}: ${s.name}`}>
            <Icon name={lastOrder ? 'refresh' : 'cart'} className="h-4 w-4" /> {lastOrder ? 'Order again' : 'Order'}
          </Link>
        ) : (
          <Badge>No longer available</Badge>
        )}
      </div>
    </li>
  );
}
