// Access guard (spec section 4): spinner while the session check runs; visitors go to
// /auth/login (the requested location is remembered, a stale token is cleared); a person of the
// other type goes to their own area; anything else is logged out.
// While the check runs for someone whose stored record is of this area's type, the spinner shows over
// the area's page, which stays inert and busy underneath: the build pre-renders the pages people open
// most in that state (web/prerender.ts), so a phone paints the page at once and React, taking over,
// shows the same thing instead of swapping it for a blank spinner and back.

import { USER_TYPE, type UserType } from '@vocabulary';

import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation, useNavigate } from 'react-router-dom';
import { PageSpinner, Spinner } from '@/components/Spinner';
import { type LoginState, useAuth } from '@/lib/authContext';
import { takePendingLink } from '@/lib/firstTap';
import { sessionEndedBy } from '@/lib/session';

function VisitorRedirect() {
  const { clearLocalSession } = useAuth();
  const location = useLocation();
  useEffect(() => {
    clearLocalSession();
  }, [clearLocalSession]);
  const state: LoginState = { from: { pathname: location.pathname, search: location.search, hash: location.hash } };
  // The guard can get here before the AuthProvider's own move to sign-in (the router moves in a transition): it must still say why.
  if (sessionEndedBy() === 'suspended') state.suspended = true;
  return <Navigate to="/auth/login" replace state={state} />;
}

function LogoutRedirect() {
  const { logout } = useAuth();
  useEffect(() => {
    void logout();
  }, [logout]);
  return <PageSpinner fullScreen />;
}

export function RequireUserType({ type, children }: { type: UserType; children?: ReactNode }) {
  const { user, userType, loading } = useAuth();
  if (loading && userType === type) return <SessionCheck>{children}</SessionCheck>;
  if (loading) return <PageSpinner fullScreen />;
  if (!user) return <VisitorRedirect />;
  if (userType !== type) {
    if (userType === USER_TYPE.admin) return <Navigate to="/admin" replace />;
    if (userType === USER_TYPE.user) return <Navigate to="/user" replace />;
    return <LogoutRedirect />;
  }
  return <SessionCheck done>{children}</SessionCheck>;
}

/**
 * The area's page, busy and inert under a spinner until the session check is `done`; one element either way, so the
 * page is not mounted twice. A link tapped on the inert page is followed once it is done (lib/firstTap.ts).
 */
function SessionCheck({ done = false, children }: { done?: boolean; children?: ReactNode }) {
  const navigate = useNavigate();
  useEffect(() => {
    const tapped = done ? takePendingLink() : null;
    if (tapped) navigate(tapped);
  }, [done, navigate]);
  return (
    <>
      <div className="contents" aria-busy={!done} inert={!done}>
        {children ?? <Outlet />}
      </div>
      {done ? null : (
        <div className="pointer-events-none fixed inset-x-0 top-20 z-50 flex justify-center">
          <span className="rounded-full bg-white p-2 text-brand-600 shadow-lg">
            <Spinner className="h-6 w-6" />
          </span>
        </div>
      )}
    </>
  );
}
