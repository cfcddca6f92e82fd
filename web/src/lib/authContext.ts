import { USER_TYPE } from '@vocabulary';

import type { InferResponseType } from 'hono/client';
import { createContext, useContext } from 'react';
import type { Location } from 'react-router-dom';
import type { client } from './api';
import type { SessionUser } from './session';

export type LoginResponse = InferResponseType<typeof client.auth.login.$post, 200>;

export interface AuthContextValue {
  /** The signed-in person, or null for a visitor. */
  user: SessionUser | null;
  /** 1 administrator, 2 user, null visitor. */
  userType: number | null;
  /** True until the session-start profile check has finished. */
  loading: boolean;
  /** `code` only for administrators with two-factor sign-in on, once the server asks for it. */
  login: (credentials: { email: string; password: string; code?: string }) => Promise<LoginResponse>;
  /** Spec logout: toast, POST auth/logout, clear the stored user, go to /auth/login (even on failure). */
  logout: () => Promise<void>;
  /** Clears the stored session without a toast (the guard uses it for stale tokens). */
  clearLocalSession: () => void;
  /** Replaces the current user (after a profile update). */
  setUser: (user: SessionUser) => void;
  /** Fetches user/getCurrentProfile again. */
  reloadProfile: () => Promise<SessionUser | null>;
}

export const AuthContext = createContext<AuthContextValue | null>(null);

export function useAuth(): AuthContextValue {
  const ctx = useContext(AuthContext);
  if (!ctx) throw new Error('useAuth must be used inside <AuthProvider>');
  return ctx;
}

/** Where each kind of person lands after login, and where cross-area access sends them. */
export function homeFor(userType: number | null | undefined): string {
  if (userType === USER_TYPE.admin) return '/admin';
  if (userType === USER_TYPE.user) return '/user';
  return '/';
}

/** The page a visitor asked for before being sent to sign in (router state `from`). */
export type From = Pick<Location, 'pathname' | 'search' | 'hash'>;

/** The sign-in page's router state: the page to go back to, that the account was suspended while signed in, or was just created. */
export interface LoginState {
  from?: From;
  suspended?: boolean;
  registered?: boolean;
}

/** After login: the remembered location if it is in the person's own area, else /admin or /user. */
export function destinationAfterLogin(userType: number, from: From | null | undefined): string {
  const home = homeFor(userType);
  if (from && home !== '/' && (from.pathname === home || from.pathname.startsWith(`${home}/`))) {
    return `${from.pathname}${from.search ?? ''}${from.hash ?? ''}`;
  }
  return home;
}
