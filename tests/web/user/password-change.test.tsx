// The profile's password tab says why the server refused a change, under the field it is about; it
// revokes the API keys unless unticked, and names the keys it revoked before signing out.

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import ProfilePage from '@/features/user/ProfilePage';
import { AuthContext } from '@/lib/authContext';
import { authStub, describedText, jsonResponse, mockFetch, sessionUser, WithQuery } from '../helpers';

const ADA = sessionUser({ id: 1, fullName: 'Ada Lovelace', email: 'ada@example.com', username: 'ada', userType: 2 });
const TOO_GUESSABLE = 'This password is too common or easy to guess. Try a longer phrase or add unusual words.';

function renderProfile(changeAnswer: () => Response, me = ADA) {
  const fetch = mockFetch((url) => (url.includes('user/changePassword') ? changeAnswer() : jsonResponse(200, { data: me })));
  const auth = authStub({ user: me, userType: me.userType });
  render(
    <AuthContext.Provider value={auth}>
      <WithQuery>
        <MemoryRouter>
          <ProfilePage />
        </MemoryRouter>
      </WithQuery>
    </AuthContext.Provider>,
  );
  return Object.assign(auth, { fetch });
}

const sentBody = (fetch: ReturnType<typeof mockFetch>) =>
  JSON.parse(String(fetch.mock.calls.find(([url]) => String(url).includes('changePassword'))?.[1]?.body));
const changed = (revokedKeys: Array<{ name: string; prefix: string }>) => () => jsonResponse(200, { message: 'Password updated successfully', revokedKeys });

async function changePassword(current: string, next: string) {
  const user = userEvent.setup();
  await user.click(screen.getByRole('tab', { name: 'Password' }));
  await user.type(screen.getByLabelText('Current password'), current);
  await user.type(screen.getByLabelText('New password'), next);
  await user.type(screen.getByLabelText('Confirm password'), next);
  await user.click(screen.getByRole('button', { name: 'Save password' }));
}

describe('changing the password', () => {
  it('says a wrong current password under Current password, and stays signed in', async () => {
    const error = vi.spyOn(toast, 'error');
    const auth = renderProfile(() => jsonResponse(400, { message: 'Current password is incorrect', error: 'Bad Request' }));
    await changePassword('not-my-password', 'velvet-okra-lantern');
    await waitFor(() => expect(describedText(screen.getByLabelText('Current password'))).toBe('Current password is incorrect'));
    expect(error).toHaveBeenCalledWith('Failed to update password. Current password is incorrect');
    expect(auth.logout).not.toHaveBeenCalled();
  });

  it('says a guessable new password under New password', async () => {
    renderProfile(() => jsonResponse(400, { message: TOO_GUESSABLE, error: 'Bad Request' }));
    await changePassword('my-old-password-1', 'qwerty123');
    await waitFor(() => expect(describedText(screen.getByLabelText('New password'))).toBe(TOO_GUESSABLE));
  });

  it('toasts other failures with the reason and marks no field', async () => {
    const error = vi.spyOn(toast, 'error');
    renderProfile(() => jsonResponse(503, { message: 'The service is briefly unavailable. Please try again in a moment.', error: 'Service Unavailable' }));
    await changePassword('my-old-password-1', 'velvet-okra-lantern');
    await waitFor(() => expect(error).toHaveBeenCalledWith('Failed to update password. The service is briefly unavailable. Please try again in a moment.'));
    expect(describedText(screen.getByLabelText('New password'))).toBeNull();
  });

  it('revokes the API keys by default and names them before signing out', async () => {
    const success = vi.spyOn(toast, 'success');
    const auth = renderProfile(
      changed([
        { name: 'Telegram bot', prefix: '3f9a1c2b' },
        { name: 'Child panel', prefix: 'aa00bb11' },
      ]),
    );
    await changePassword('my-old-password-1', 'velvet-okra-lantern');
    const dialog = await screen.findByRole('dialog', { name: 'API keys revoked' });
    expect(sentBody(auth.fetch)).toEqual({ oldPassword: 'my-old-password-1', password: 'velvet-okra-lantern', revokeApiKeys: true });
    expect(success).toHaveBeenCalledWith('Password updated successfully');
    expect(
      within(within(dialog).getByRole('list', { name: 'Revoked API keys' }))
        .getAllByRole('listitem')
        .map((row) => row.textContent),
    ).toEqual(['Telegram bot3f9a1c2b…', 'Child panelaa00bb11…']);
    // Read first: the logout would take the page, and the list, away.
    expect(auth.logout).not.toHaveBeenCalled();
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Sign in again' }));
    expect(auth.logout).toHaveBeenCalledTimes(1);
  });

  it('keeps the API keys when unticked, and signs out at once', async () => {
    const auth = renderProfile(changed([]));
    const user = userEvent.setup();
    await user.click(screen.getByRole('tab', { name: 'Password' }));
    const revokeKeys = screen.getByRole('checkbox', { name: /Also revoke my API keys/ }) as HTMLInputElement;
    expect(revokeKeys.checked).toBe(true);
    await user.click(revokeKeys);
    await changePassword('my-old-password-1', 'velvet-okra-lantern');
    await waitFor(() => expect(auth.logout).toHaveBeenCalledTimes(1));
    expect(sentBody(auth.fetch).revokeApiKeys).toBe(false);
    expect(screen.queryByRole('dialog')).toBeNull();
  });

  it('offers no API-key choice to an administrator, who has no keys', async () => {
    renderProfile(changed([]), sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', userType: 1 }));
    await userEvent.setup().click(screen.getByRole('tab', { name: 'Password' }));
    expect(screen.queryByRole('checkbox', { name: /Also revoke my API keys/ })).toBeNull();
  });
});
