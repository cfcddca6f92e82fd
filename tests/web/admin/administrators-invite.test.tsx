// Making administrators when addresses must be proven: inviting an address that already has an account
// emails its mailbox a link, and the dialog keeps the server's word on it until read; promoting an account
// whose address is unconfirmed is refused with the server's advice in the dialog, and the way to invite instead.

import { render, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { MemoryRouter } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import AdminAdministratorsPage from '@/features/admin/users/AdminAdministratorsPage';
import { AuthContext } from '@/lib/authContext';
import { TOKEN_KEY } from '@/lib/session';
import { authStub, jsonResponse, mockFetch, sessionUser, WithQuery } from '../helpers';

const ME = sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', userType: 1 });
const ADA = sessionUser({ id: 5, fullName: 'Ada Obi', email: 'ada@example.com', userType: 2, emailVerified: false });
const LINK_SENT = 'We emailed ada@example.com a link: the account becomes an administrator when they use it.';
const UNVERIFIED = 'This user has not confirmed their email address. Invite them by email instead: they become an administrator when they use the link.';
const list = <T,>(data: T[]) => ({ data, page: 1, limit: 20, total: data.length });

function openPage() {
  const fetch = mockFetch((url) => {
    if (url.includes('administrators/invite')) return jsonResponse(202, { message: LINK_SENT });
    if (url.includes('administrators/promote')) return jsonResponse(409, { message: UNVERIFIED, error: 'Conflict' });
    if (url.includes('admin/administrators')) return jsonResponse(200, list([ME]));
    if (url.includes('admin/users')) return jsonResponse(200, list([ADA]));
    return jsonResponse(200, {});
  });
  window.localStorage.setItem(TOKEN_KEY, 'admin-token');
  render(
    <WithQuery>
      <AuthContext.Provider value={authStub({ user: ME, userType: 1 })}>
        <MemoryRouter initialEntries={['/admin/administrators']}>
          <AdminAdministratorsPage />
        </MemoryRouter>
      </AuthContext.Provider>
    </WithQuery>,
  );
  return { fetch, user: userEvent.setup() };
}

const bodiesTo = (fetch: ReturnType<typeof mockFetch>, part: string) =>
  fetch.mock.calls.filter(([url]) => String(url).includes(part)).map(([, init]) => JSON.parse(String(init?.body)));

describe('Administrators, with addresses that must be proven', () => {
  it("keeps the server's word on a link emailed to an existing account until it is read", async () => {
    const { fetch, user } = openPage();
    await screen.findByRole('table', { name: 'Administrators' });
    await user.click(screen.getByRole('button', { name: /Invite/ }));
    const dialog = await screen.findByRole('dialog', { name: 'Invite an administrator' });
    await user.type(within(dialog).getByLabelText('Full Name'), 'Ada Obi');
    await user.type(within(dialog).getByLabelText('Email Address'), 'ada@example.com');
    await user.click(within(dialog).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(within(dialog).getByRole('status').textContent).toBe(LINK_SENT));
    expect(bodiesTo(fetch, 'administrators/invite')).toEqual([{ fullName: 'Ada Obi', email: 'ada@example.com' }]);
    await user.click(within(dialog).getByRole('button', { name: 'Done' }));
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull());
  });

  it('says why an unconfirmed account cannot be promoted, and invites it instead', async () => {
    const { fetch, user } = openPage();
    await screen.findByRole('table', { name: 'Administrators' });
    await user.click(screen.getByRole('button', { name: 'Promote a user' }));
    const promote = await screen.findByRole('dialog', { name: 'Promote a user' });
    await user.type(within(promote).getByLabelText('Search users'), 'ada');
    expect(await within(promote).findByText(/email not confirmed/)).toBeTruthy();
    await user.click(within(promote).getByRole('button', { name: 'Promote Ada Obi' }));
    await user.click(await screen.findByRole('button', { name: 'Yes, promote' }));
    const notice = await within(promote).findByRole('alert', { name: 'Ada Obi cannot be promoted' });
    expect(notice.textContent).toContain(UNVERIFIED);
    expect(bodiesTo(fetch, 'administrators/promote')).toEqual([{ userId: 5 }]);

    await user.click(within(notice).getByRole('button', { name: 'Invite Ada Obi by email' }));
    const invite = await screen.findByRole('dialog', { name: 'Invite an administrator' });
    expect((within(invite).getByLabelText('Full Name') as HTMLInputElement).value).toBe('Ada Obi');
    expect((within(invite).getByLabelText('Email Address') as HTMLInputElement).value).toBe('ada@example.com');
    await user.click(within(invite).getByRole('button', { name: 'Send invitation' }));
    await waitFor(() => expect(within(invite).getByRole('status').textContent).toBe(LINK_SENT));
  });
});
