import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/Spinner';
import { destinationAfterLogin, type From, useAuth } from '@/lib/authContext';
import { chosenServiceOrderForm } from '@/lib/chosenService';

/**
 * Centres the login / register card under the public header. A signed-in person is sent to their own
 * area instead: signing in again from here, as someone else, would change the account of every open tab.
 */
export default function AuthLayout() {
  const { user, userType, loading } = useAuth();
  const location = useLocation();
  // A stored session is checked first: a stale one is cleared and the form shows.
  if (user && loading) return <PageSpinner />;
  // The same place the sign-in form sends to (this can render first, as the sign-in sets the user).
  const from = (location.state as { from?: From } | null)?.from ?? chosenServiceOrderForm();
  if (user) return <Navigate to={destinationAfterLogin(Number(userType), from)} replace />;
  return (
    <div className="flex min-h-[calc(100dvh-4rem)] items-start justify-center bg-gradient-to-b from-brand-50/70 to-slate-50 px-4 py-8 sm:items-center sm:py-12">
      <div className="w-full max-w-md">
        <Outlet />
      </div>
    </div>
  );
}
