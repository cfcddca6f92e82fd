// What every admin screen shares: the query keys under 'admin' (so one refresh re-reads them all),
// that refresh, and the shape the list queries are sent in.

import type { AuditQuery, DashboardPeriod, UserListQuery } from '@schemas/admin';
import type { AdminTransactionQuery } from '@schemas/wallet';
import { queryOptions, useQueryClient } from '@tanstack/react-query';

type AdministratorListQuery = Pick<UserListQuery, 'page' | 'limit' | 'search'>;

export const adminKeys = {
  all: ['admin'] as const,
  user: (userId: string | number) => ['admin', 'user', String(userId)] as const,
  users: (q: UserListQuery) => ['admin', 'users', q] as const,
  administrators: (q: AdministratorListQuery) => ['admin', 'administrators', q] as const,
  dashboard: (period: DashboardPeriod) => ['admin', 'dashboard', period] as const,
  audit: (q: AuditQuery) => ['admin', 'audit', q] as const,
  transactions: (q: AdminTransactionQuery) => ['admin', 'transactions', q] as const,
};

/**
 * Re-reads every admin list after a change. Reads already on their way may predate the change
 * (a search that settled while a confirmation was open), and react-query would hand their answer
 * to the refetch, so they are cancelled first.
 */
export function useRefreshAdmin(): () => Promise<void> {
  const queryClient = useQueryClient();
  return async () => {
    await queryClient.cancelQueries({ queryKey: adminKeys.all });
    await queryClient.invalidateQueries({ queryKey: adminKeys.all });
  };
}

/** Options for an admin read: its key goes under 'admin', so useRefreshAdmin re-reads it after any change. */
export const adminQuery = <T>(key: ReadonlyArray<unknown>, fetch: (signal: AbortSignal) => Promise<T>) =>
  queryOptions({ queryKey: [...adminKeys.all, ...key], queryFn: ({ signal }) => fetch(signal) });

type AsText<V> = V extends number ? string : V;

/**
 * A list query as the typed client sends it: numbers as text (the Worker's schemas read them back),
 * keys in the order given, so the address stays the same; the client leaves out empty values.
 */
export const asQuery = <Q extends object>(q: Q) =>
  Object.fromEntries(Object.entries(q).map(([key, value]) => [key, typeof value === 'number' ? String(value) : value])) as { [K in keyof Q]: AsText<Q[K]> };
