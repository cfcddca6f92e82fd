// The whole app at a path, signed in or not, for screen tests that go through the real routes.
import { render } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { routes } from '@/app/routes';
import { type SessionUser, setStoredUser, TOKEN_KEY } from '@/lib/session';
import { sessionUser, WithQuery } from './helpers';

/** The customer most component tests sign in as. */
export const ADA = sessionUser({ id: 1, fullName: 'Ada Lovelace', email: 'ada@example.com', username: 'ada', userType: 2, wallet: { balance: '2500.00' } });

/** The whole app at `path`, as `user` (stored as after a sign-in) or as a visitor; returns the router to move on. */
export function renderApp(path: string, user: SessionUser | null = ADA) {
  if (user) {
    window.localStorage.setItem(TOKEN_KEY, 'user-token');
    setStoredUser(user);
  }
  const router = createMemoryRouter(routes, { initialEntries: [path] });
  render(
    <WithQuery>
      <RouterProvider router={router} />
    </WithQuery>,
  );
  return router;
}
