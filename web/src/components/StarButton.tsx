// The star that adds a service to the user's favourites or takes it off; pressed when starred.

import { useFavoriteIds, useToggleFavorite } from '@/lib/favorites';
import { cx } from '@/lib/hooks';
import { Icon } from './Icon';

export function StarButton({ serviceId, serviceName, className }: { serviceId: number | string; serviceName: string; className?: string }) {
  const ids = useFavoriteIds();
  const toggle = useToggleFavorite();
  const id = Number(serviceId);
  const starred = ids.data?.has(id) ?? false;
  return (
    <button
      type="button"
      className={cx(
        'inline-flex h-11 w-11 shrink-0 items-center justify-center rounded-full hover:bg-amber-50',
        starred ? 'text-amber-500' : 'text-slate-400 hover:text-amber-600',
        className,
      )}
      aria-pressed={starred}
      aria-label={starred ? `Remove ${serviceName} from favorites` : `Add ${serviceName} to favorites`}
      title={starred ? 'Remove from favorites' : 'Add to favorites'}
      disabled={ids.isPending}
      onClick={() => toggle.mutate({ serviceId: id, starred: !starred })}
    >
      <Icon name="star" className="h-5 w-5" fill={starred ? 'currentColor' : 'none'} />
    </button>
  );
}
