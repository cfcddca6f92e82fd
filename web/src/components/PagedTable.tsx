import type { JSX, ReactNode } from 'react';
import { getErrorMessage } from '@/lib/api';
import { ErrorState } from './EmptyState';
import { Pagination } from './Pagination';
import { type Column, ResponsiveTable } from './ResponsiveTable';

type Key = string | number;

/** What a list screen's query holds: one page of rows, the page size the server used, and how many rows there are in all. */
interface PageQuery<T> {
  data: { data: ReadonlyArray<T>; limit: number; total: number | string; totalCapped?: boolean } | undefined;
  error: unknown;
  isError: boolean;
  isPending: boolean;
  isFetching: boolean;
  refetch: () => unknown;
}

interface Props<T> {
  query: PageQuery<T>;
  /** The page shown and how to show another (a screen's URL filters, or its own state). */
  paging: { page: number; setPage: (page: number) => void };
  caption: string;
  columns: ReadonlyArray<Column<T>>;
  empty: ReactNode;
  renderCard?: (row: T) => ReactNode;
  skeletonRows?: number;
  /** While a read is on its way, by default; a list that polls passes its own. */
  pagerDisabled?: boolean;
}

const byId = (row: unknown) => (row as { id: Key }).id;

/** A list screen's results, the same on every list: the page's rows (cards on phones), a failed read with a retry, the pager under them. */
export function PagedTable<T extends { id: Key }>(props: Props<T> & { rowKey?: (row: T) => Key }): JSX.Element;
/** Rows without an id say what tells them apart. */
export function PagedTable<T>(props: Props<T> & { rowKey: (row: T) => Key }): JSX.Element;
export function PagedTable<T>({ query, paging, pagerDisabled = query.isFetching, rowKey = byId, ...table }: Props<T> & { rowKey?: (row: T) => Key }) {
  if (query.isError && !query.data) return <ErrorState message={getErrorMessage(query.error)} onRetry={() => void query.refetch()} />;
  return (
    <>
      <ResponsiveTable {...table} rowKey={rowKey} rows={query.data?.data} loading={query.isPending} />
      {query.data ? (
        <Pagination
          page={paging.page}
          limit={query.data.limit}
          total={Number(query.data.total)}
          totalCapped={query.data.totalCapped}
          rowsShown={query.data.data.length}
          onPage={paging.setPage}
          disabled={pagerDisabled}
        />
      ) : null}
    </>
  );
}
