import { MutationCache, type Query, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api';
import { BALANCE_REFRESH_MS, isMoneyQuery, isOrdersQuery, MONEY_QUERY_PREFIXES, orderStates, someOrderMoved } from './moneyQueries';

/** Re-reads every answer on screen that shows money (the others are marked stale for their next use). */
export function refreshMoney(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ predicate: (query) => isMoneyQuery(query.queryKey) });
}

/**
 * A query client whose money stays fresh on every screen, wherever it moved:
 * - after any successful change (an order placed or canceled, an administrator's credit), since
 *   the screen that made it cannot know every balance it touched;
 * - when a re-read orders list shows an order whose status or refund changed (the sync job
 *   refunded it while the customer watched);
 * - when the tab regains focus, and every BALANCE_REFRESH_MS while it is visible (money moved
 *   elsewhere: an administrator's credit, a card payment's webhook).
 * Client errors (4xx) are not retried. A dead refresh token needs nothing here: the API client ends
 * the session wherever it meets one (lib/api.ts), silently, and the access guard leads to sign-in.
 */
export function createQueryClient(): QueryClient {
  const client: QueryClient = new QueryClient({
    mutationCache: new MutationCache({
      // Not awaited: the change's own success handling need not wait for the balances.
      onSuccess: () => {
        void refreshMoney(client);
      },
    }),
    defaultOptions: {
      queries: {
        staleTime: 30_000,
        retry: (failureCount, error) => {
          if (isApiError(error) && error.status !== null && error.status < 500) return false;
          return failureCount < 2;
        },
        refetchOnWindowFocus: true,
      },
      mutations: { retry: false },
    },
  });
  for (const prefix of MONEY_QUERY_PREFIXES) {
    client.setQueryDefaults(prefix, { refetchOnWindowFocus: 'always', refetchInterval: BALANCE_REFRESH_MS, refetchIntervalInBackground: false });
  }
  watchOrders(client);
  return client;
}

/** Compares each orders answer with the one it replaces, and refreshes money when an order in both moved. */
function watchOrders(client: QueryClient): void {
  const seen = new WeakMap<Query, Map<string, string>>();
  client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success' || !isOrdersQuery(event.query.queryKey)) return;
    const after = orderStates(event.query.state.data);
    const before = seen.get(event.query);
    seen.set(event.query, after);
    if (before && someOrderMoved(before, after)) void refreshMoney(client);
  });
}

/** The shop's query client. */
export const queryClient = createQueryClient();
