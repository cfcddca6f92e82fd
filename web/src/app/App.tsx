// The whole SPA around a router: the browser's in main.tsx, a memory router when the build
// pre-renders the public pages (static-pages.tsx). One tree for both, so the browser hydrates
// exactly the markup the build wrote (same elements, same useId ids).

import { QueryClientProvider } from '@tanstack/react-query';
import { type ComponentType, StrictMode, useEffect, useState } from 'react';
import { type createBrowserRouter, RouterProvider } from 'react-router-dom';
import type { ToastContainerProps } from 'react-toastify';
import { queryClient } from '@/lib/queryClient';
import { loadToastify } from '@/lib/toast';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function App({ router }: { router: AppRouter }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <Toasts />
      </QueryClientProvider>
    </StrictMode>
  );
}

/** react-toastify's container once the library is here (lib/toast.ts): nothing at first, as in the pre-rendered markup. */
function Toasts() {
  const [Container, setContainer] = useState<ComponentType<ToastContainerProps> | null>(null);
  useEffect(() => {
    void loadToastify().then(({ ToastContainer }) => setContainer(() => ToastContainer));
  }, []);
  return Container ? <Container position="top-right" autoClose={1500} limit={1} newestOnTop closeOnClick pauseOnFocusLoss={false} /> : null;
}
