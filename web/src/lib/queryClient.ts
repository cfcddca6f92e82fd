import { MutationCache, type Query, QueryClient } from '@tanstack/react-query';
import { isApiError } from './api';
import { BALANCE_REFRESH_MS, BELL_QUERY_KEY, bellNewest, isMoneyQuery, isOrdersQuery, MONEY_QUERY_PREFIXES, orderStates, someOrderMoved } from './moneyQueries';

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
 * - when the bell's poll brings a new notification of money moving (an administrator's credit, a
 *   deposit credited by its webhook, a refund), so the header balance agrees with the bell;
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
  watchBell(client);
  return client;
}

/**
 * Refreshes money when a bell answer holds a money notification newer than every one the previous answer held. The
 * first answer only sets the mark: the balances on screen were read with it, so the first load asks for nothing more.
 */
function watchBell(client: QueryClient): void {
  const seen = new WeakMap<Query, number>();
  client.getQueryCache().subscribe((event) => {
    if (event.type !== 'updated' || event.action.type !== 'success') return;
    const key = event.query.queryKey;
    if (key.length !== BELL_QUERY_KEY.length || !BELL_QUERY_KEY.every((part, i) => key[i] === part)) return;
    const after = bellNewest(event.query.state.data);
    const before = seen.get(event.query);
    seen.set(event.query, Math.max(before ?? 0, after.any));
    if (before !== undefined && after.money > before) void refreshMoney(client);
  });
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
