import { QueryCache, QueryClient } from '@tanstack/react-query';
import { handleApiError, isApiError, isRefreshTokenError } from './api';

/**
 * Shared query client. Client errors (4xx) are not retried; a dead refresh token on any query
 * runs the shared handler (clears local storage, goes to /auth/login).
 */
export const queryClient = new QueryClient({
  queryCache: new QueryCache({
    onError: (error) => {
      if (isRefreshTokenError(error)) handleApiError(error);
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
