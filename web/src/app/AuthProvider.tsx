// Session start, login and logout exactly as spec section 4 describes them, and a tab that follows
// its session when another tab signs in as someone else or out, the session expires or is revoked
// (silently: the access guard leads to sign-in), or the account is suspended (the sign-in page says so).

import { useQueryClient } from '@tanstack/react-query';
import { type ReactNode, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { login as signIn } from '@/features/auth/api/login';
import { logout as signOut } from '@/features/auth/api/logout';
import { getProfile, type ProfileAnswer } from '@/features/user/api/get-profile';
import { isAccountSuspended, isApiError } from '@/lib/api';
import { AuthContext, type AuthContextValue, homeFor, type LoginState } from '@/lib/authContext';
import {
  adoptStoredUser,
  clearSession,
  getRefreshToken,
  getStoredUser,
  getTabUser,
  getToken,
  onSessionChange,
  rememberUser,
  type SessionChange,
  type SessionUser,
  sameAccount,
  saveSession,
  watchOtherTabs,
} from '@/lib/session';
import { toast } from '@/lib/toast';
import { takeProfileCheck } from './earlyRequests';

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // 1. The stored user record is loaded if any.
  const [user, setUserState] = useState<SessionUser | null>(() => adoptStoredUser());
  const [loading, setLoading] = useState(true);

  // Signed out because the account is suspended: the sign-in page says so, and how to reach support.
  const endSuspended = useCallback(() => {
    setUserState(null);
    queryClient.clear();
    navigate('/auth/login', { replace: true, state: { suspended: true } satisfies LoginState });
  }, [navigate, queryClient]);

  // The API client and other tabs clear, renew or replace the session on their own; follow them,
  // and move a tab whose account changed under it to where the new one belongs, saying why.
  useEffect(() => {
    const follow = ({ user: next, previous, cause }: SessionChange) => {
      setUserState(next);
      if (sameAccount(next, previous)) return;
      if (cause === 'suspended') {
        endSuspended();
        return;
      }
      // Silent, as at session start: a /user or /admin page's guard sends the visitor to sign in, and back after.
      if (cause === 'expired') return;
      if (previous && next) {
        toast.info(`Signed in as ${next.fullName} in another tab.`);
      } else if (previous && cause === 'other-tab') {
        toast.info('Signed out in another tab.');
      } else {
        // This tab's own sign-in or sign-out goes where it goes; a visitor's tab follows by itself.
        return;
      }
      queryClient.clear();
      navigate(next ? homeFor(next.userType) : '/auth/login', { replace: true });
    };
    const stopFollowing = onSessionChange(follow);
    const stopWatching = watchOtherTabs();
    return () => {
      stopFollowing();
      stopWatching();
    };
  }, [navigate, queryClient, endSuspended]);

  const adoptProfile = useCallback(
    async (check: Promise<ProfileAnswer>): Promise<SessionUser | null> => {
      try {
        const { data: profile } = await check;
        rememberUser(profile);
        setUserState(getTabUser());
        return getTabUser();
      } catch (error) {
        if (isApiError(error) && error.status === 401) {
          // A 401 clears the session silently.
          clearSession();
          setUserState(null);
        } else if (isAccountSuspended(error)) {
          // The API client has cleared the session; the check started before React may have finished before anyone listened.
          endSuspended();
        } else {
          // Other profile errors are only logged.
          console.error('Failed to load the current profile', error);
        }
        return null;
      }
    },
    [endSuspended],
  );
  const reloadProfile = useCallback(() => adoptProfile(getProfile()), [adoptProfile]);

  // 2. Then the current profile is fetched; loading stays true until it has finished. Without a
  // stored token or refresh token the call could only answer 401, so a visitor is spared it (and the
  // failed request in the console) and gets that 401's outcome at once: no session. With a session,
  // main.tsx has usually sent the call already, before rendering (earlyRequests.ts).
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    // Taken first: one sent before React may already have ended the session, and its answer says why.
    const sentEarly = takeProfileCheck();
    if (!sentEarly && !getToken() && !getRefreshToken()) {
      if (getStoredUser()) {
        clearSession();
        setUserState(null);
      }
      setLoading(false);
      return;
    }
    void (sentEarly ? adoptProfile(sentEarly) : reloadProfile()).finally(() => setLoading(false));
  }, [adoptProfile, reloadProfile]);

  const login = useCallback(
    async (credentials: { email: string; password: string; code?: string }) => {
      // The code goes only once the server has asked for it (two-factor sign-in); the spec's payload is email and password.
      const body = { email: credentials.email, password: credentials.password, ...(credentials.code ? { code: credentials.code } : {}) };
      const res = await signIn(body);
      queryClient.clear();
      saveSession({ accessToken: res.accessToken, refreshToken: res.refreshToken, user: res.user });
      setUserState(res.user);
      return res;
    },
    [queryClient],
  );

  const clearLocalSession = useCallback(() => {
    const hadToken = Boolean(getToken());
    if (hadToken) void signOut().catch(() => undefined);
    clearSession();
    setUserState(null);
  }, []);

  const logout = useCallback(async () => {
    toast.success('Logout successfully');
    try {
      await signOut();
    } catch (error) {
      console.error('Logout call failed', error);
    } finally {
      clearSession();
      setUserState(null);
      queryClient.clear();
      navigate('/auth/login', { replace: true });
    }
  }, [navigate, queryClient]);

  const setUser = useCallback((u: SessionUser) => {
    rememberUser(u);
    setUserState(getTabUser());
  }, []);

  const value = useMemo<AuthContextValue>(
    () => ({
      user,
      userType: user ? Number(user.userType) : null,
      loading,
      login,
      logout,
      clearLocalSession,
      setUser,
      reloadProfile,
    }),
    [user, loading, login, logout, clearLocalSession, setUser, reloadProfile],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}
