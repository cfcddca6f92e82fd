// The whole SPA around a router: the browser's in main.tsx, a memory router when the build
// pre-renders the public pages (static-pages.tsx). One tree for both, so the browser hydrates
// exactly the markup the build wrote (same elements, same useId ids).
import { StrictMode } from 'react';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider, type createBrowserRouter } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { queryClient } from '@/lib/queryClient';

export type AppRouter = ReturnType<typeof createBrowserRouter>;

export function App({ router }: { router: AppRouter }) {
  return (
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <ToastContainer position="top-right" autoClose={1500} limit={1} newestOnTop closeOnClick pauseOnFocusLoss={false} />
      </QueryClientProvider>
    </StrictMode>
  );
}
