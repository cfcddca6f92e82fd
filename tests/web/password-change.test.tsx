// The profile's password tab says why the server refused a change, under the field it is about.

import { render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { toast } from 'react-toastify';
import { describe, expect, it, vi } from 'vitest';
import ProfilePage from '@/features/user/ProfilePage';
import { AuthContext } from '@/lib/authContext';
import { authStub, describedText, jsonResponse, mockFetch, sessionUser, WithQuery } from './helpers';

const ADA = sessionUser({ id: 1, fullName: 'Ada Lovelace', email: 'ada@example.com', username: 'ada', userType: 2 });
const TOO_GUESSABLE = 'This password is too common or easy to guess. Try a longer phrase or add unusual words.';

function renderProfile(changeAnswer: () => Response) {
  mockFetch((url) => (url.includes('user/changePassword') ? changeAnswer() : jsonResponse(200, { data: ADA })));
  const auth = authStub({ user: ADA, userType: 2 });
  render(
    <AuthContext.Provider value={auth}>
      <WithQuery>
        <MemoryRouter>
          <ProfilePage />
        </MemoryRouter>
      </WithQuery>
    </AuthContext.Provider>,
  );
  return auth;
}

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
});
