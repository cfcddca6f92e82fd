// A signed-in page's first requests, sent before React renders (main.tsx) rather than from the
// components that need them, which mount only once the JavaScript has run and the guard's spinner
// gave way: the session-start profile check the guard waits for, the public settings (the test-mode
// banner) and, on the pages that list services, the catalogue's first page and its categories.
// The queries go into the query client under the keys and fetch functions the screens use, so the
// screens find them there and nothing is asked twice. The catalogue's are sent once its module is
// here (fetched alongside the page's screens, which need it too): a visitor's page carries none of it.

import { getProfile, type ProfileAnswer } from '@/features/user/api/get-profile';
import { queryClient } from '@/lib/queryClient';
import { adoptStoredUser, getRefreshToken, getToken } from '@/lib/session';
import { publicSettingsQuery } from '@/lib/settings';

/** The routes that open on the services list or picker (routes.tsx), with its default filters. */
const CATALOGUE_PAGES = new Set(['/user', '/user/services', '/user/create-order']);

let profileCheck: Promise<ProfileAnswer> | null = null;

/** Starts the requests when a session is stored (a visitor's page asks for none of them). */
export function startSessionRequests(pathname: string): void {
  if (!getToken() && !getRefreshToken()) return;
  // The account the call names (X-Account-Id) is the one the AuthProvider will show: the stored one.
  adoptStoredUser();
  profileCheck = getProfile();
  // The AuthProvider handles its failure when it takes it; this keeps one that comes first from counting as unhandled.
  profileCheck.catch(() => undefined);
  void queryClient.prefetchQuery(publicSettingsQuery);
  if (CATALOGUE_PAGES.has(pathname.replace(/\/+$/, ''))) {
    void import('@/api/catalogue').then(({ categoriesQuery, servicesListQuery }) => {
      void queryClient.prefetchInfiniteQuery(servicesListQuery({}));
      void queryClient.prefetchQuery(categoriesQuery);
    });
  }
}

/** The profile check started for this page load, once: later checks ask again. */
export function takeProfileCheck(): Promise<ProfileAnswer> | null {
  const check = profileCheck;
  profileCheck = null;
  return check;
}
