import type { UseQueryResult } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { getErrorMessage } from '@/lib/api';
import { ErrorState } from './EmptyState';

/** What waits for one read (a settings form, an order's detail): its failure with a retry, its skeleton while it loads, then its data. */
export function QueryState<T>({ query, skeleton, children }: { query: UseQueryResult<T>; skeleton: ReactNode; children: (data: T) => ReactNode }) {
  if (query.isError) return <ErrorState message={getErrorMessage(query.error)} onRetry={() => void query.refetch()} />;
  if (query.isPending) return skeleton;
  return children(query.data);
}
