// The whole app at a path, signed in or not, for screen tests that go through the real routes.
import { act, render } from '@testing-library/react';
import { type Location, MemoryRouter, type NavigateFunction, useLocation, useNavigate } from 'react-router-dom';
import { AppRoutes } from '@/app/routes';
import { type SessionUser, setStoredUser, TOKEN_KEY } from '@/lib/session';
import { jsonResponse, sessionUser, WithQuery } from './helpers';

/** The customer most component tests sign in as. */
export const ADA = sessionUser({ id: 1, fullName: 'Ada Lovelace', email: 'ada@example.com', username: 'ada', userType: 2, wallet: { balance: '2500.00' } });

/**
 * What the signed-in user area asks the server whatever the screen (exchange rates, shop settings,
 * profile, balances, categories), answered for `user`; undefined for the screen's own calls.
 */
export function userAreaAnswer(url: string, user: SessionUser = ADA): Response | undefined {
  if (url.includes('/v1/rates')) return jsonResponse(200, { data: { base: 'USD', rates: { NGN: '1550.25', USD: '1' } } });
  if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'Boost Hub' });
  if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { message: 'ok', data: user });
  if (url.includes('user/getWalletBalance')) return jsonResponse(200, { walletBalance: Number(user.wallet?.balance ?? 0) });
  if (url.includes('user/getMai')) return jsonResponse(200, { smmBalance: 0 });
  if (url.includes('services/categories')) return jsonResponse(200, { data: [] });
  return undefined;
}

/** The whole app at `path`, as `user` (stored as after a sign-in) or as a visitor; returns the router to move on. */
export function renderApp(path: string, user: SessionUser | null = ADA) {
  if (user) {
    window.localStorage.setItem(TOKEN_KEY, 'user-token');
    setStoredUser(user);
  }
  return renderRoutes(path);
}

/** Where the app is and a way to move it on, as a test drives it. */
export interface TestRouter {
  state: { location: Location };
  navigate(to: string): Promise<void>;
}

/** The whole app at `path` with whatever session the test stored itself; returns the router to move on. */
export function renderRoutes(path: string): TestRouter {
  const seen: RouterSeen = {};
  render(
    <WithQuery>
      <MemoryRouter initialEntries={[path]}>
        <AppRoutes />
        <RouterProbe seen={seen} />
      </MemoryRouter>
    </WithQuery>,
  );
  return {
    get state() {
      return { location: seen.location! };
    },
    navigate: (to) => act(async () => void seen.navigate!(to)),
  };
}

interface RouterSeen {
  location?: Location;
  navigate?: NavigateFunction;
}

/** Keeps the router's latest location and navigate function where the test can reach them. */
function RouterProbe({ seen }: { seen: RouterSeen }) {
  seen.location = useLocation();
  seen.navigate = useNavigate();
  return null;
}
