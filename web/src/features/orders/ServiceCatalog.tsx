// The services catalogue used by the public Services page and the user's Services tab:
// search as you type, platform chips, category filter, per-1000 prices, and a window-virtualised
// list (grouped by category) that loads further pages as it scrolls — thousands of rows stay smooth.

import { useWindowVirtualizer } from '@tanstack/react-virtual';
import { useDeferredValue, useEffect, useMemo, useRef, useState } from 'react';
import { type Service, useServicesInfinite } from '@/api/catalogue';
import { EmptyState, ErrorState } from '@/components/EmptyState';
import { Icon } from '@/components/Icon';
import { PlatformBadge } from '@/components/PlatformBadge';
import { Skeleton } from '@/components/Skeleton';
import { Spinner } from '@/components/Spinner';
import { StarButton } from '@/components/StarButton';
import { Badge } from '@/components/StatusBadge';
import { getErrorMessage } from '@/lib/api';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { formatCount, formatDuration } from '@/lib/format';
import { useDebouncedValue } from '@/lib/hooks';
import { rateUnit } from '@/lib/serviceTypes';
import { rowSizeAfterLayout, viewportAfterLayout, viewportNow, windowScrollAfterLayout } from './measureAfterLayout';
import { PlatformChips } from './PlatformChips';
import { ServicesLoading } from './ServicesLoading';
import { usePlatformCategory } from './usePlatformCategory';

type Row = { kind: 'header'; key: string; title: string; platform: string } | { kind: 'service'; key: string; service: Service };

interface Props {
  /** Label and handler of each row's action button (e.g. "Order"). */
  actionLabel: string;
  onAction: (service: Service) => void;
  /** Initial search text (e.g. from the URL). */
  initialSearch?: string;
  /** A star beside each service to add it to the signed-in user's favourites. */
  withFavorites?: boolean;
}

export function ServiceCatalog({ actionLabel, onAction, initialSearch = '', withFavorites = false }: Props) {
  // Per-1000 prices in the visitor's display currency, 2 to 6 fraction digits.
  const { formatPrecise: price } = useDisplayCurrency();
  const [search, setSearch] = useState(initialSearch);
  const debounced = useDebouncedValue(search.trim(), 300);
  const { platform, choosePlatform, platforms, category, setCategory, visibleCategories, categoriesPending } = usePlatformCategory();

  const query = useServicesInfinite({ search: debounced || undefined, category: category || undefined, platform: platform || undefined });
  // A page of services arriving is drawn in a deferred render, in slices the phone can interrupt,
  // rather than in the one that takes the answer in. So is the first page when it is already here as the page
  // mounts (prefetched with the page's code): the page's frame first, then its rows. (React defers a first
  // render only from an initial value other than undefined.)
  const pages = useDeferredValue(query.data?.pages ?? null, null);
  const services = useMemo(() => pages?.flatMap((p) => p.data) ?? [], [pages]);
  const total = pages?.[0]?.total ?? 0;
  // Loading until the first page is drawn, not merely here.
  const pending = pages === null && !query.isError;

  // Interleave a header row whenever the category changes.
  const rows = useMemo<Row[]>(() => {
    const out: Row[] = [];
    let last: string | null = null;
    for (const s of services) {
      if (s.category !== last) {
        out.push({ kind: 'header', key: `h-${s.category}-${s.id}`, title: s.category, platform: s.platform });
        last = s.category;
      }
      out.push({ kind: 'service', key: `s-${s.id}`, service: s });
    }
    return out;
  }, [services]);

  const listRef = useRef<HTMLUListElement>(null);
  const [scrollMargin, setScrollMargin] = useState(0);
  // Where the list starts on the page, read in the next frame, when the browser lays the page out anyway.
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const top = (listRef.current?.getBoundingClientRect().top ?? 0) + window.scrollY;
      if (Math.abs(top - scrollMargin) > 1) setScrollMargin(top);
    });
    return () => cancelAnimationFrame(frame);
  });

  const [initialRect] = useState(viewportNow);
  const virtualizer = useWindowVirtualizer({
    count: rows.length,
    initialRect,
    observeElementRect: viewportAfterLayout,
    scrollToFn: windowScrollAfterLayout,
    estimateSize: (i) => (rows[i]?.kind === 'header' ? 52 : 132),
    overscan: 4,
    scrollMargin,
    measureElement: rowSizeAfterLayout,
    getItemKey: (i) => rows[i]?.key ?? i,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;

  // Fetch the next page when the end of the loaded rows comes into view.
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    if (hasNextPage && !isFetchingNextPage && rows.length > 0 && lastIndex >= rows.length - 12) void fetchNextPage();
  }, [hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, rows.length]);

  return (
    <div>
      <div className="card sticky top-16 z-20 space-y-3 p-3 sm:p-4">
        <div className="flex flex-col gap-3 sm:flex-row">
          <div className="relative flex-1">
            <label htmlFor="service-search" className="sr-only">
              Search services
            </label>
            <Icon name="search" className="pointer-events-none absolute top-1/2 left-3.5 h-5 w-5 -translate-y-1/2 text-slate-400" />
            <input
              id="service-search"
              type="search"
              value={search}
              onChange={(e) => setSearch(e.target.value)}
              placeholder="Search by name or ID, e.g. Instagram followers"
              className="input pl-11"
              autoComplete="off"
            />
          </div>
          <div className="sm:w-64">
            <label htmlFor="service-category" className="sr-only">
              Category
            </label>
            <select id="service-category" value={category} onChange={(e) => setCategory(e.target.value)} className="input">
              <option value="">All categories</option>
              {visibleCategories.map((c) => (
                <option key={c.id} value={String(c.id)}>
                  {c.name}
                  {c.serviceCount ? ` (${c.serviceCount})` : ''}
                </option>
              ))}
            </select>
          </div>
        </div>
        {platforms.length > 0 ? (
          <PlatformChips platforms={platforms} value={platform} onChange={choosePlatform} allLabel="All platforms" />
        ) : categoriesPending ? (
          // The chips' height, kept while the categories load, so the list below does not move when they arrive.
          <div className="h-11" aria-hidden="true" />
        ) : null}
      </div>

      <div className="mt-4 flex items-center justify-between px-1 text-sm text-slate-600" aria-live="polite">
        {pending ? <Skeleton className="h-4 w-32" /> : <span>{formatCount(total)} services</span>}
        {query.isFetching && !pending ? <Spinner className="h-4 w-4" label="Updating" /> : null}
      </div>

      {/* Column headings for the wide layout. */}
      <div
        aria-hidden="true"
        className="mt-2 hidden grid-cols-[4.5rem_minmax(0,1fr)_9rem_9rem_8rem_7rem] gap-4 px-4 text-xs font-semibold tracking-wide text-slate-500 uppercase lg:grid"
      >
        <span>ID</span>
        <span>Service</span>
        <span className="text-right">Rate / 1000</span>
        <span className="text-right">Min / Max</span>
        <span>Avg. time</span>
        <span />
      </div>

      {/* The list comes before the loading, error and empty states: it stays where it is when they give way to rows. */}
      <ul ref={listRef} aria-label="Services" className="relative mt-2" style={{ height: rows.length ? virtualizer.getTotalSize() : 0 }}>
        {items.map((v) => {
          const row = rows[v.index];
          if (!row) return null;
          return (
            // A platform's heading is an item too: a list may hold nothing but items.
            <li
              key={v.key}
              data-index={v.index}
              ref={virtualizer.measureElement}
              className="absolute top-0 left-0 w-full pb-2"
              style={{ transform: `translateY(${v.start - virtualizer.options.scrollMargin}px)` }}
            >
              {row.kind === 'header' ? (
                <h2 className="flex items-center gap-2 px-1 pt-3 pb-1 text-sm font-semibold text-slate-800">
                  <PlatformBadge platform={row.platform} className="h-6 w-6 rounded-md text-[10px]" />
                  {row.title}
                </h2>
              ) : (
                <ServiceRow service={row.service} price={price} actionLabel={actionLabel} onAction={onAction} withFavorites={withFavorites} />
              )}
            </li>
          );
        })}
      </ul>
      {pending ? (
        <ServicesLoading rows={6} className="mt-2 space-y-2" rowClassName="h-28 w-full rounded-2xl lg:h-16" />
      ) : query.isError && services.length === 0 ? (
        <div className="mt-2">
          <ErrorState message={getErrorMessage(query.error)} onRetry={() => void query.refetch()} />
        </div>
      ) : rows.length === 0 ? (
        <div className="mt-2">
          <EmptyState icon="search" title="No services found">
            Try another search or clear the filters.
          </EmptyState>
        </div>
      ) : null}

      {isFetchingNextPage ? (
        <div className="flex justify-center py-4 text-brand-600">
          <Spinner label="Loading more services" />
        </div>
      ) : null}
    </div>
  );
}

function ServiceRow({
  service: s,
  price,
  actionLabel,
  onAction,
  withFavorites,
}: {
  service: Service;
  price: (naira: string) => string;
  actionLabel: string;
  onAction: (s: Service) => void;
  withFavorites: boolean;
}) {
  return (
    <article className="card grid grid-cols-1 gap-2 p-4 lg:grid-cols-[4.5rem_minmax(0,1fr)_9rem_9rem_8rem_7rem] lg:items-center lg:gap-4 lg:py-3">
      <span className="text-xs font-medium text-slate-500 lg:text-sm">#{s.id}</span>
      <div className="min-w-0">
        <div className="flex items-start justify-between gap-2">
          <h3 className="font-semibold text-slate-900 lg:text-sm">{s.name}</h3>
          {withFavorites ? <StarButton serviceId={s.id} serviceName={s.name} className="-mt-2.5 -mr-2.5" /> : null}
        </div>
        {s.description ? <p className="mt-0.5 line-clamp-2 text-sm text-slate-600 lg:text-xs">{s.description}</p> : null}
        <div className="mt-1.5 flex flex-wrap gap-1.5">
          {s.refill ? <Badge tone="green">Refill</Badge> : null}
          {s.cancel ? <Badge tone="blue">Cancel</Badge> : null}
          {s.dripfeed ? <Badge tone="violet">Drip-feed</Badge> : null}
        </div>
      </div>
      <div className="flex items-baseline justify-between lg:block lg:text-right">
        <span className="text-sm text-slate-500 lg:sr-only">Rate {rateUnit(s)}</span>
        <span className="font-semibold text-slate-900">
          {price(s.rate)}
          {rateUnit(s) === 'per package' ? <span className="block text-xs font-normal text-slate-500">per package</span> : null}
        </span>
      </div>
      <div className="flex items-baseline justify-between text-sm lg:block lg:text-right">
        <span className="text-slate-500 lg:sr-only">Min / Max</span>
        <span className="text-slate-700">
          {formatCount(s.min)} / {formatCount(s.max)}
        </span>
      </div>
      <div className="flex items-baseline justify-between text-sm lg:block">
        <span className="text-slate-500 lg:sr-only">Average time</span>
        <span className="text-slate-700">{formatDuration(s.averageTimeSeconds)}</span>
      </div>
      <button type="button" className="btn-sm btn-primary mt-1 w-full lg:mt-0" onClick={() => onAction(s)} aria-label={`${actionLabel}: ${s.name}`}>
        {actionLabel}
      </button>
    </article>
  );
}
