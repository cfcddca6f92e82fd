// Session start, login and logout exactly as spec section 4 describes them.
import { useCallback, useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { useNavigate } from 'react-router-dom';
import { useQueryClient } from '@tanstack/react-query';
import { toast } from 'react-toastify';
import { api, isApiError, publicApi } from '@/lib/api';
import { clearSession, getStoredUser, getToken, onSessionChange, saveSession, setStoredUser, type SessionUser } from '@/lib/session';
import { AuthContext, type AuthContextValue, type LoginResponse } from './authContext';

export interface ProfileResponse {
  message?: string;
  data: SessionUser;
}

export function AuthProvider({ children }: { children: ReactNode }) {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // 1. The stored user record is loaded if any.
  const [user, setUserState] = useState<SessionUser | null>(() => getStoredUser());
  const [loading, setLoading] = useState(true);

  // The API client clears or renews the session on its own (refresh); follow it.
  useEffect(() => onSessionChange((u) => setUserState(u)), []);

  const reloadProfile = useCallback(async (): Promise<SessionUser | null> => {
    try {
      const res = await api.get<ProfileResponse>('user/getCurrentProfile');
      const profile = res?.data ?? null;
      if (profile) {
        setStoredUser(profile, { silent: true });
        setUserState(profile);
      }
      return profile;
    } catch (error) {
      if (isApiError(error) && error.status === 401) {
        // A 401 clears the session silently.
        clearSession();
        setUserState(null);
      } else {
        // Other profile errors are only logged.
        console.error('Failed to load the current profile', error);
      }
      return null;
    }
  }, []);

  // 2. Then the current profile is fetched; loading stays true until it has finished.
  const started = useRef(false);
  useEffect(() => {
    if (started.current) return;
    started.current = true;
    void reloadProfile().finally(() => setLoading(false));
  }, [reloadProfile]);

  const login = useCallback(async (credentials: { email: string; password: string; code?: string }) => {
    // The code goes only once the server has asked for it (two-factor sign-in); the spec's payload is email and password.
    const body = { email: credentials.email, password: credentials.password, ...(credentials.code ? { code: credentials.code } : {}) };
    const res = await publicApi.post<LoginResponse>('auth/login', body);
    queryClient.clear();
    saveSession({ accessToken: res.accessToken, refreshToken: res.refreshToken, user: res.user });
    setUserState(res.user);
    return res;
  }, [queryClient]);

  const clearLocalSession = useCallback(() => {
    const hadToken = Boolean(getToken());
    if (hadToken) void api.post('auth/logout').catch(() => undefined);
    clearSession();
    setUserState(null);
  }, []);

  const logout = useCallback(async () => {
    toast.success('Logout successfully');
    try {
      await api.post('auth/logout');
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
    setStoredUser(u, { silent: true });
    setUserState(u);
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
