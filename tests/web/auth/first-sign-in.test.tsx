// A newcomer's way in: the service chosen on the public Services page survives Register and the
// sign-in that follows (the order form opens on it), and nobody is told "Welcome back" the first time.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { chosenServiceOrderForm, rememberChosenService } from '@/lib/chosenService';
import { noteSignIn } from '@/lib/firstSignIn';
import { ADA, renderApp, renderRoutes, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

const LIKES = {
  id: 102,
  name: 'Instagram Likes',
  category: 'Instagram Likes',
  type: 'Default',
  platform: 'Instagram',
  categoryId: 1,
  rate: '12.50',
  rateKobo: '1250',
  min: 100,
  max: 10000,
  linkKind: 'url',
  refill: false,
  cancel: false,
  dripfeed: false,
  averageTimeSeconds: null,
  refillDays: null,
};

/** A visitor's server until they sign in (unless `signedIn`); `firstSignIn` is what the login answer says. */
function server(firstSignIn: boolean, signedIn = false) {
  mockFetch((url) => {
    if (url.includes('auth/register')) return jsonResponse(201, { message: 'Registered', user: ADA });
    if (url.includes('auth/login')) {
      signedIn = true;
      return jsonResponse(200, { accessToken: 'new-token', refreshToken: 'r', user: ADA, firstSignIn, message: 'Login successful' });
    }
    if (url.includes('user/getCurrentProfile') && !signedIn) return jsonResponse(401, { message: 'Unauthorized' });
    if (url.includes('auth/refresh')) return jsonResponse(401, { message: 'Unauthorized', error: 'Invalid or expired refresh token.' });
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('/services')) return jsonResponse(200, { data: [LIKES], page: 1, limit: 100, total: 1 });
    return jsonResponse(404, {});
  });
}

describe('the service a visitor chose before signing up', () => {
  it('is kept through Register and the first sign-in, and the order form opens on it', async () => {
    const user = userEvent.setup();
    server(true);
    const router = renderRoutes('/services');
    const card = (await screen.findAllByText(LIKES.name)).at(0)!.closest('li, article, div')!;
    await user.click(within(card.parentElement!).getAllByRole('button', { name: /Order/ })[0]);
    await waitFor(() => expect(router.state.location.pathname).toBe('/auth/login'));

    // No account yet: Register, which loses the router state, then the sign-in page a newcomer sees.
    await user.click(await screen.findByRole('link', { name: 'Register' }));
    await user.type(await screen.findByLabelText('Full Name'), 'Ada Lovelace');
    await user.type(screen.getByLabelText('Email Address'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'password-1');
    await user.type(screen.getByLabelText('Confirm Password'), 'password-1');
    await user.click(screen.getByRole('button', { name: 'Sign Up' }));
    expect(await screen.findByRole('heading', { name: 'Your account is ready' })).toBeTruthy();
    expect(screen.getByText('Sign in to place your first order.')).toBeTruthy();
    expect(screen.queryByText(/Welcome back/)).toBeNull();

    await user.type(screen.getByLabelText('Email'), 'ada@example.com');
    await user.type(screen.getByLabelText('Password'), 'password-1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(`${router.state.location.pathname}${router.state.location.search}`).toBe('/user/create-order?service=102'));
    expect(await screen.findByText(LIKES.name, { selector: 'p' })).toBeTruthy();
    // Used once: a later sign-in goes to the person's own area.
    expect(chosenServiceOrderForm()).toBeNull();
  });

  it('is forgotten after a day', () => {
    const now = Date.now();
    rememberChosenService(102, now - 25 * 60 * 60 * 1000);
    expect(chosenServiceOrderForm(now)).toBeNull();
    rememberChosenService(102, now);
    expect(chosenServiceOrderForm(now)).toEqual({ pathname: '/user/create-order', search: '?service=102', hash: '' });
  });
});

describe('the greeting on the services page', () => {
  it('welcomes a first sign-in without "back"', async () => {
    noteSignIn(ADA.id, true);
    server(true, true);
    renderApp('/user/services');
    expect(await screen.findByText('Welcome, Ada')).toBeTruthy();
    expect(screen.queryByText(/Welcome back/)).toBeNull();
  });

  it('welcomes back someone who signed in before', async () => {
    noteSignIn(ADA.id, false);
    server(false, true);
    renderApp('/user/services');
    expect(await screen.findByText('Welcome back, Ada')).toBeTruthy();
  });
});

describe('the sign-in dialog after creating an account', () => {
  it('does not say "Welcome back"', async () => {
    const user = userEvent.setup();
    server(true);
    renderRoutes('/');
    await user.click((await screen.findAllByRole('link', { name: 'Sign Up' }))[0]);
    const register = await screen.findByRole('dialog', { name: 'Create your account' });
    await user.type(await within(register).findByLabelText('Full Name'), 'Ada Lovelace');
    await user.type(within(register).getByLabelText('Email Address'), 'ada@example.com');
    await user.type(within(register).getByLabelText('Password'), 'password-1');
    await user.type(within(register).getByLabelText('Confirm Password'), 'password-1');
    await user.click(within(register).getByRole('button', { name: 'Sign Up' }));
    const signIn = await screen.findByRole('dialog', { name: 'Sign in' });
    expect(within(signIn).getByText('Your account is ready. Sign in to place your first order.')).toBeTruthy();
    expect(within(signIn).queryByText(/Welcome back/)).toBeNull();
  });
});
