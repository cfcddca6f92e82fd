import type { ReactNode } from 'react';
import { cx } from '@/lib/hooks';
import { Skeleton } from './Skeleton';

export interface Column<T> {
  key: string;
  header: string;
  /** The header is for screen readers only (a column of checkboxes needs no visible word). */
  headerHidden?: boolean;
  cell: (row: T) => ReactNode;
  /** Classes for the <td>/<th> (e.g. 'text-right'). */
  className?: string;
  /** On phones: 'title' is the card's heading, 'hide' leaves the column out. */
  mobile?: 'title' | 'hide';
  /**
   * A secondary column, left out while the table itself is narrower than this (a container query,
   * so the admin sidebar counts): '6xl' (72rem) hides it on a 1366 px screen beside the sidebar,
   * '5xl' (64rem) only on narrower ones. Phone cards still show it.
   */
  hideBelow?: '5xl' | '6xl';
}

const HIDE_BELOW: Record<NonNullable<Column<unknown>['hideBelow']>, string> = {
  '5xl': 'hidden @5xl:table-cell',
  '6xl': 'hidden @6xl:table-cell',
};

/**
 * One line of text in a cell, cut with an ellipsis past `className`'s max width and shown whole
 * on hover: a table cell grows to fit text that cannot wrap, so long names, emails and links
 * would otherwise push Status and the actions out of sight.
 */
export function CellText({ text, className, children }: { text: string | null | undefined; className?: string; children?: ReactNode }) {
  return (
    <span title={text ?? undefined} className={cx('block max-w-[16rem] truncate', className)}>
      {children ?? text}
    </span>
  );
}

interface Props<T> {
  columns: ReadonlyArray<Column<T>>;
  rows: ReadonlyArray<T> | undefined;
  rowKey: (row: T) => string | number;
  loading?: boolean;
  empty?: ReactNode;
  caption?: string;
  skeletonRows?: number;
  /** A hand-made phone card instead of the generic label: value list. */
  renderCard?: (row: T) => ReactNode;
}

/** A table from `md` up; a stack of cards (label: value) on phones. */
export function ResponsiveTable<T>({ columns, rows, rowKey, loading = false, empty, caption, skeletonRows = 5, renderCard }: Props<T>) {
  if (loading) {
    return (
      <div role="status" aria-label="Loading" className="overflow-hidden rounded-2xl border border-slate-200 bg-white">
        {Array.from({ length: skeletonRows }, (_, i) => (
          // biome-ignore lint/suspicious/noArrayIndexKey: identical placeholder rows, never reordered: the position is all that tells them apart
          <div key={i} className="flex items-center gap-4 border-b border-slate-100 px-4 py-4 last:border-0">
            <Skeleton className="h-4 w-12" />
            <Skeleton className="h-4 flex-1" />
            <Skeleton className="h-4 w-20" />
            <Skeleton className="hidden h-4 w-24 md:block" />
          </div>
        ))}
      </div>
    );
  }
  if (!rows || rows.length === 0) return <>{empty}</>;
  const title = columns.find((c) => c.mobile === 'title');
  const rest = columns.filter((c) => c.mobile !== 'title' && c.mobile !== 'hide');
  return (
    <>
      <div className="@container hidden overflow-x-auto rounded-2xl border border-slate-200 bg-white shadow-sm md:block">
        <table className="min-w-full divide-y divide-slate-200 text-sm">
          {caption ? <caption className="sr-only">{caption}</caption> : null}
          <thead className="bg-slate-50">
            <tr>
              {columns.map((c) => (
                <th
                  key={c.key}
                  scope="col"
                  className={cx(
                    'px-3 py-3 text-left text-xs font-semibold tracking-wide text-slate-600 uppercase first:pl-4 last:pr-4',
                    c.hideBelow && HIDE_BELOW[c.hideBelow],
                    c.className,
                  )}
                >
                  {c.headerHidden ? <span className="sr-only">{c.header}</span> : c.header}
                </th>
              ))}
            </tr>
          </thead>
          <tbody className="divide-y divide-slate-100">
            {rows.map((r) => (
              <tr key={rowKey(r)} className="hover:bg-slate-50/60">
                {columns.map((c) => (
                  <td
                    key={c.key}
                    className={cx('px-3 py-3 align-middle text-slate-700 first:pl-4 last:pr-4', c.hideBelow && HIDE_BELOW[c.hideBelow], c.className)}
                  >
                    {c.cell(r)}
                  </td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      <ul className="space-y-3 md:hidden" aria-label={caption}>
        {rows.map((r) => (
          <li key={rowKey(r)} className="card p-4">
            {renderCard ? renderCard(r) : null}
            {renderCard ? null : title ? <div className="mb-2 font-semibold text-slate-900">{title.cell(r)}</div> : null}
            {renderCard ? null : (
              <dl className="grid grid-cols-[auto_minmax(0,1fr)] gap-x-4 gap-y-1.5 text-sm">
                {rest.map((c) => (
                  <div key={c.key} className="contents">
                    <dt className="text-slate-500">{c.header}</dt>
                    <dd className="min-w-0 text-right break-words text-slate-800">{c.cell(r)}</dd>
                  </div>
                ))}
              </dl>
            )}
          </li>
        ))}
      </ul>
    </>
  );
}
