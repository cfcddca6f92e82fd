// Access guard (spec section 4): spinner while the session check runs; visitors go to
// /auth/login (the requested location is remembered, a stale token is cleared); a person of the
// other type goes to their own area; anything else is logged out.

import type { UserType } from '@schemas/session';
import { USER_TYPE } from '@schemas/session';
import { type ReactNode, useEffect } from 'react';
import { Navigate, Outlet, useLocation } from 'react-router-dom';
import { PageSpinner } from '@/components/Spinner';
import { useAuth } from '@/lib/authContext';

function VisitorRedirect() {
  const { clearLocalSession } = useAuth();
  const location = useLocation();
  useEffect(() => {
    clearLocalSession();
  }, [clearLocalSession]);
  return <Navigate to="/auth/login" replace state={{ from: { pathname: location.pathname, search: location.search, hash: location.hash } }} />;
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
  if (loading) return <PageSpinner fullScreen />;
  if (!user) return <VisitorRedirect />;
  if (userType !== type) {
    if (userType === USER_TYPE.admin) return <Navigate to="/admin" replace />;
    if (userType === USER_TYPE.user) return <Navigate to="/user" replace />;
    return <LogoutRedirect />;
  }
  return <>{children ?? <Outlet />}</>;
}
