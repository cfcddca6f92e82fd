// Signing in with two-factor on, through the real route map and AuthProvider: the server asks for
// the code, the form shows the field and sends the code with the password, and a wrong code is
// named under the field; a recovery code goes in the same field once switched to.

import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { getToken } from '@/lib/session';
import { renderRoutes } from '../app';
import { describedText, jsonResponse, mockFetch, retype, sessionUser } from '../helpers';

const ROOT = sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', username: 'root', userType: 1 });
const PROMPT = 'Enter the 6-digit code from your authenticator app.';
const WRONG = 'That code is not valid. Check your authenticator app and try again.';

const RECOVERY_CODE = 'k3x9q-7mzt2';

/** The server of an administrator with two-factor sign-in on, whose current code is 246810 (or the recovery code). */
function server() {
  const logins: Array<Record<string, unknown>> = [];
  mockFetch((url, init) => {
    if (url.includes('auth/login')) {
      const body = JSON.parse(String(init.body)) as Record<string, unknown>;
      logins.push(body);
      if (body.code === undefined) return jsonResponse(401, { message: PROMPT, error: 'Two-factor code required' });
      if (body.code !== '246810' && body.code !== RECOVERY_CODE) return jsonResponse(401, { message: WRONG, error: 'Two-factor code required' });
      return jsonResponse(200, { accessToken: 'access', refreshToken: 'refresh', user: ROOT, message: 'Login successful' });
    }
    if (url.includes('user/getCurrentProfile')) return getToken() ? jsonResponse(200, { data: ROOT }) : jsonResponse(401, { message: 'Unauthorized' });
    if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'SMM Provider', paymentMode: 'live' });
    return jsonResponse(404, {});
  });
  return logins;
}

/** The password step of a sign-in, which the server answers by asking for the code. */
async function signInUntilCodeAsked() {
  const logins = server();
  const router = renderRoutes('/auth/login');
  const user = userEvent.setup();
  await user.type(await screen.findByLabelText('Email'), 'root@example.com');
  await user.type(screen.getByLabelText('Password'), 'admin-password-1');
  await user.click(screen.getByRole('button', { name: 'Sign In' }));
  return { logins, router, user };
}

describe('two-factor sign-in', () => {
  it('asks for the code, says a wrong one under the field, and signs in with the right one', async () => {
    const { logins, router, user } = await signInUntilCodeAsked();

    const code = await screen.findByLabelText('Authentication code');
    expect(logins).toEqual([{ email: 'root@example.com', password: 'admin-password-1' }]);
    await user.type(code, '111111');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(describedText(screen.getByLabelText('Authentication code'))).toBe(WRONG));
    expect(logins[1]).toEqual({ email: 'root@example.com', password: 'admin-password-1', code: '111111' });
    expect(router.state.location.pathname).toBe('/auth/login');

    await retype(user, screen.getByLabelText('Authentication code'), '246810');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(logins[2]).toEqual({ email: 'root@example.com', password: 'admin-password-1', code: '246810' });
    expect(getToken()).toBe('access');
  });

  it('takes a recovery code instead, once switched to, in its own format', async () => {
    const { logins, router, user } = await signInUntilCodeAsked();
    await user.type(await screen.findByLabelText('Authentication code'), '12');

    await user.click(screen.getByRole('button', { name: 'Use a recovery code' }));
    const field = screen.getByLabelText('Recovery code') as HTMLInputElement;
    expect(field.value).toBe('');
    expect(field.placeholder).toBe('abcde-fghij');
    expect(screen.queryByLabelText('Authentication code')).toBeNull();
    await user.type(field, 'not-a-code');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(describedText(screen.getByLabelText('Recovery code'))).toBe('Enter the 6-digit code or a recovery code'));
    expect(logins).toHaveLength(1);

    await retype(user, screen.getByLabelText('Recovery code'), RECOVERY_CODE);
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(logins[1]).toEqual({ email: 'root@example.com', password: 'admin-password-1', code: RECOVERY_CODE });
  });

  it('switches back to the code from the app', async () => {
    server();
    renderRoutes('/auth/login');
    const user = userEvent.setup();
    await user.type(await screen.findByLabelText('Email'), 'root@example.com');
    await user.type(screen.getByLabelText('Password'), 'admin-password-1');
    await user.click(screen.getByRole('button', { name: 'Sign In' }));
    await user.click(await screen.findByRole('button', { name: 'Use a recovery code' }));
    await user.click(screen.getByRole('button', { name: 'Use a code from the app' }));
    expect((screen.getByLabelText('Authentication code') as HTMLInputElement).maxLength).toBe(6);
  });
});
