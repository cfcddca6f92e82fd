// Platform -> category -> service, usable with thousands of services: server-side search as you
// type, the services already loaded narrowed at once meanwhile, a virtualised listbox that loads
// more pages as it scrolls, keyboard navigation (combobox pattern: arrows move, Enter picks, Escape
// clears the search).

import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, useDeferredValue, useEffect, useId, useMemo, useRef, useState } from 'react';
import { matchesSearch, type Service, useServicesInfinite } from '@/api/catalogue';
import { Icon } from '@/components/Icon';
import { PlatformBadge } from '@/components/PlatformBadge';
import { Skeleton } from '@/components/Skeleton';
import { Spinner } from '@/components/Spinner';
import { getErrorMessage } from '@/lib/api';
import { useDisplayCurrency } from '@/lib/displayCurrency';
import { cx, useDebouncedValue } from '@/lib/hooks';
import { rateUnit } from '@/lib/serviceTypes';
import { elementScrollAfterLayout, elementSizeAfterLayout, rowSizeAfterLayout } from './measureAfterLayout';
import { PlatformChips } from './PlatformChips';
import { ServicesLoading } from './ServicesLoading';
import { usePlatformCategory } from './usePlatformCategory';

/** The list's height (h-80), its size until the browser has laid it out. */
const LIST_HEIGHT_PX = 320;

/** How far each navigation key moves the highlight. */
const STEPS: Partial<Record<string, number>> = { ArrowDown: 1, ArrowUp: -1, PageDown: 5, PageUp: -5 };

interface Props {
  onSelect: (service: Service) => void;
  selectedId?: Service['id'] | null;
}

export function ServicePicker({ onSelect, selectedId }: Props) {
  // Per-1000 prices in the visitor's display currency, 2 to 6 fraction digits.
  const { formatPrecise: price } = useDisplayCurrency();
  const ids = useId();
  const { platform, choosePlatform, platforms, category, setCategory, visibleCategories, categoriesPending } = usePlatformCategory();
  const [search, setSearch] = useState('');
  const [active, setActive] = useState(0);
  const debounced = useDebouncedValue(search.trim(), 250);

  const query = useServicesInfinite({ search: debounced || undefined, platform: platform || undefined, category: category || undefined }, 100);
  const loaded = useMemo(() => query.data?.pages.flatMap((p) => p.data) ?? [], [query.data]);
  // Until the server answers for the text typed, the services already here are narrowed to it, in a
  // deferred render that never holds up the keystrokes, so the list follows the typing frame by frame.
  const typed = useDeferredValue(search.trim());
  const answered = typed === debounced && !query.isPlaceholderData;
  const services = useMemo(() => (answered || !typed ? loaded : loaded.filter((s) => matchesSearch(s, typed))), [answered, loaded, typed]);

  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: services.length,
    getScrollElement: () => scrollRef.current,
    initialRect: { width: 0, height: LIST_HEIGHT_PX },
    observeElementRect: elementSizeAfterLayout,
    scrollToFn: elementScrollAfterLayout,
    estimateSize: () => 68,
    overscan: 4,
    measureElement: rowSizeAfterLayout,
    getItemKey: (i) => String(services[i]?.id ?? i),
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.length ? items[items.length - 1].index : -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = query;
  useEffect(() => {
    // Narrowed here, the list is short by design: more pages are for the server's answer to the text.
    if (answered && hasNextPage && !isFetchingNextPage && lastIndex >= services.length - 10) void fetchNextPage();
  }, [answered, hasNextPage, isFetchingNextPage, fetchNextPage, lastIndex, services.length]);

  // biome-ignore lint/correctness/useExhaustiveDependencies: the search and filters are the trigger, not inputs: a new list starts its highlight at the top
  useEffect(() => setActive(0), [typed, debounced, platform, category]);

  const move = (to: number) => {
    if (services.length === 0) return;
    const i = Math.max(0, Math.min(services.length - 1, to));
    setActive(i);
    virtualizer.scrollToIndex(i, { align: 'auto' });
  };
  const onKeyDown = (e: KeyboardEvent<HTMLInputElement>) => {
    const step = STEPS[e.key];
    if (step) {
      e.preventDefault();
      move(active + step);
    } else if (e.key === 'Enter') {
      e.preventDefault();
      const s = services[active];
      if (s) onSelect(s);
    } else if (e.key === 'Escape' && search) {
      e.preventDefault();
      setSearch('');
    }
  };

  const listId = `${ids}-list`;
  const optionId = (i: number) => `${ids}-opt-${i}`;

  return (
    <div className="space-y-3">
      {platforms.length > 0 ? (
        <PlatformChips platforms={platforms} value={platform} onChange={choosePlatform} allLabel="All" />
      ) : categoriesPending ? (
        <div className="flex gap-2">
          {Array.from({ length: 4 }, (_, i) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder chips, never reordered: the position is all that tells them apart
            <Skeleton key={i} className="h-10 w-24 rounded-full" />
          ))}
        </div>
      ) : null}

      <div>
        <label htmlFor={`${ids}-category`} className="label">
          Category
        </label>
        <select id={`${ids}-category`} className="input" value={category} onChange={(e) => setCategory(e.target.value)}>
          <option value="">{platform ? `All ${platform} categories` : 'All categories'}</option>
          {visibleCategories.map((c) => (
            <option key={c.id} value={String(c.id)}>
              {c.name}
            </option>
          ))}
        </select>
      </div>

      <div>
        <label htmlFor={`${ids}-search`} className="label">
          Service
        </label>
        <div className="relative">
          <Icon name="search" className="pointer-events-none absolute top-1/2 left-3.5 h-5 w-5 -translate-y-1/2 text-slate-400" />
          <input
            id={`${ids}-search`}
            type="search"
            role="combobox"
            aria-expanded="true"
            aria-controls={listId}
            aria-autocomplete="list"
            aria-activedescendant={services[active] ? optionId(active) : undefined}
            className="input pr-10 pl-11"
            placeholder="Search services by name or ID"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
            onKeyDown={onKeyDown}
            autoComplete="off"
          />
          {query.isFetching ? (
            <span className="absolute top-1/2 right-3 -translate-y-1/2 text-brand-600">
              <Spinner className="h-4 w-4" label="" />
            </span>
          ) : null}
        </div>
      </div>

      <div ref={scrollRef} className="h-80 overflow-y-auto rounded-xl border border-slate-200 bg-white" tabIndex={-1}>
        {query.isPending ? (
          <ServicesLoading rows={5} className="space-y-2 p-2" rowClassName="h-14 w-full rounded-lg" />
        ) : query.isError && services.length === 0 ? (
          <p role="alert" className="p-4 text-sm text-rose-700">
            {getErrorMessage(query.error)}
          </p>
        ) : services.length === 0 ? (
          <p className="p-6 text-center text-sm text-slate-500">No services match. Try another search or category.</p>
        ) : null}
        <div id={listId} role="listbox" aria-label="Services" className="relative" style={{ height: services.length ? virtualizer.getTotalSize() : 0 }}>
          {items.map((v) => {
            const s = services[v.index];
            if (!s) return null;
            const isActive = v.index === active;
            const isSelected = selectedId === s.id;
            return (
              // biome-ignore lint/a11y/useKeyWithClickEvents lint/a11y/useFocusableInteractive: the combobox pattern: focus stays in the search box, whose arrows and Enter move and pick (aria-activedescendant); an option only takes the pointer
              <div
                key={v.key}
                id={optionId(v.index)}
                role="option"
                aria-selected={isSelected}
                data-index={v.index}
                ref={virtualizer.measureElement}
                onMouseEnter={() => setActive(v.index)}
                onClick={() => onSelect(s)}
                className={cx(
                  'absolute top-0 left-0 flex w-full cursor-pointer items-center gap-3 border-b border-slate-100 px-3 py-2.5',
                  // Its grey texts are slate-600, not 500, to keep 4.5:1 on this tint.
                  isActive && 'bg-brand-50',
                  isSelected && 'ring-2 ring-brand-600 ring-inset',
                )}
                style={{ transform: `translateY(${v.start}px)` }}
              >
                <PlatformBadge platform={s.platform} className="h-8 w-8 text-[10px]" />
                <div className="min-w-0 flex-1">
                  {/* The whole name, wrapped: similar services often differ only towards its end. */}
                  <p className="text-sm font-medium break-words text-slate-900">
                    <span className="text-slate-600">#{s.id}</span> {s.name}
                  </p>
                  <p className="truncate text-xs text-slate-600">{s.category}</p>
                </div>
                <span className="shrink-0 text-right text-sm font-semibold text-slate-900 tabular-nums">
                  {price(s.rate)}
                  <span className="block text-[10px] font-normal text-slate-600">{rateUnit(s)}</span>
                </span>
              </div>
            );
          })}
        </div>
        {isFetchingNextPage ? (
          <div className="flex justify-center py-3 text-brand-600">
            <Spinner className="h-4 w-4" label="Loading more" />
          </div>
        ) : null}
      </div>
    </div>
  );
}
