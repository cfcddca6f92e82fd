import type { ReactNode } from 'react';
import { cx, type UrlFilters } from '@/lib/hooks';

/** A list screen's filter bar: its filters laid out by `className`, then Clear, which is on while any filter is set. */
export function FilterBar({
  filters,
  className,
  clearClassName,
  children,
}: {
  filters: Pick<UrlFilters, 'active' | 'clear'>;
  className: string;
  clearClassName?: string;
  children: ReactNode;
}) {
  return (
    <section aria-label="Filters" className={cx('card grid gap-3 p-4', className)}>
      {children}
      <button type="button" className={cx('btn btn-ghost', clearClassName)} disabled={!filters.active} onClick={filters.clear}>
        Clear
      </button>
    </section>
  );
}

/** A filter bar's box for an ID (a user's, a service's): only digits reach the URL, so the query is never refused for it. */
export function IdFilter({ filters, name, label }: { filters: Pick<UrlFilters, 'get' | 'update'>; name: string; label: string }) {
  return (
    <input
      aria-label={label}
      className="input"
      inputMode="numeric"
      placeholder={label}
      value={filters.get(name)}
      onChange={(e) => filters.update({ [name]: e.target.value.replace(/\D/g, '') })}
    />
  );
}
