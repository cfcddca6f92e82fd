import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { QueryClientProvider } from '@tanstack/react-query';
import { createBrowserRouter, RouterProvider } from 'react-router-dom';
import { ToastContainer } from 'react-toastify';
import { setNavigator } from '@/lib/api';
import { queryClient } from '@/lib/queryClient';
import { routes } from './routes';
import './index.css';

const router = createBrowserRouter(routes);
// The API client's shared error handler navigates through the router (no full reload).
setNavigator((path) => void router.navigate(path, { replace: true }));

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <QueryClientProvider client={queryClient}>
      <RouterProvider router={router} />
      <ToastContainer position="top-right" autoClose={1500} limit={1} newestOnTop closeOnClick pauseOnFocusLoss={false} />
    </QueryClientProvider>
  </StrictMode>,
);
