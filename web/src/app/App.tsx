// The whole SPA around a router: the browser's (main.tsx), or one held at a path when the build
// pre-renders a page (static-pages.tsx) and in tests. One tree for both, so the browser hydrates
// exactly the markup the build wrote (same elements, same useId ids).

import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, type ReactNode, StrictMode, useEffect, useState } from 'react';
import { BrowserRouter } from 'react-router-dom';
import type { ToastContainerProps } from 'react-toastify';
import { queryClient } from '@/lib/queryClient';
import { loadToastifyWhenIdle } from '@/lib/toast';
import { AppRoutes } from './routes';

/**
 * `router`: the browser's by default; the build's pre-render passes one held at its page's path (a
 * parameter rather than a choice made here, so the browser's bundle carries one router, not two).
 */
export function App({ router: Router = BrowserRouter }: { router?: ComponentType<{ children: ReactNode }> }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <Router>
          <AppRoutes />
        </Router>
        <Toasts />
      </QueryClientProvider>
    </StrictMode>
  );
}

/** react-toastify's container once the library is here (lib/toast.ts): nothing at first, as in the pre-rendered markup. */
function Toasts() {
  const [Container, setContainer] = useState<ComponentType<ToastContainerProps> | null>(null);
  useEffect(() => loadToastifyWhenIdle(({ ToastContainer }) => setContainer(() => ToastContainer)), []);
  return Container ? <Container position="top-right" autoClose={1500} limit={1} newestOnTop closeOnClick pauseOnFocusLoss={false} /> : null;
}
