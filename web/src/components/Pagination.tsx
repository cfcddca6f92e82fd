import { formatCount, formatTotal } from '@/lib/format';
import { Icon } from './Icon';

/**
 * "Showing 21–40 of 312" with previous/next buttons. A list that counted no further than its cap says
 * "of 10,000+" (or as many as the page reached, "+"), and its pages go on while they come back full
 * (`rowsShown`, the rows of this page); the last of them knows the total.
 */
export function Pagination({
  page,
  limit,
  total,
  totalCapped = false,
  rowsShown,
  onPage,
  disabled = false,
}: {
  page: number;
  limit: number;
  total: number;
  totalCapped?: boolean;
  rowsShown?: number;
  onPage: (p: number) => void;
  disabled?: boolean;
}) {
  const pages = Math.max(1, Math.ceil(total / limit));
  if (total <= 0) return null;
  const from = (page - 1) * limit + 1;
  const to = totalCapped ? from + (rowsShown ?? limit) - 1 : Math.min(total, page * limit);
  const last = totalCapped ? (rowsShown ?? limit) < limit : page >= pages;
  const shownTotal = totalCapped ? formatTotal(Math.max(total, to), !last) : formatCount(total);
  return (
    <nav aria-label="Pagination" className="flex flex-wrap items-center justify-between gap-3 pt-4">
      <p className="text-sm text-slate-600" aria-live="polite">
        Showing <span className="font-medium text-slate-900">{formatCount(from)}</span>–<span className="font-medium text-slate-900">{formatCount(to)}</span> of{' '}
        <span className="font-medium text-slate-900">{shownTotal}</span>
      </p>
      <div className="flex items-center gap-2">
        <button type="button" className="btn-sm btn-secondary" onClick={() => onPage(page - 1)} disabled={disabled || page <= 1} aria-label="Previous page">
          <Icon name="chevronLeft" className="h-4 w-4" /> Previous
        </button>
        <span className="text-sm text-slate-600">{totalCapped ? page : `${page} / ${pages}`}</span>
        <button type="button" className="btn-sm btn-secondary" onClick={() => onPage(page + 1)} disabled={disabled || last} aria-label="Next page">
          Next <Icon name="chevronRight" className="h-4 w-4" />
        </button>
      </div>
    </nav>
  );
}
