// The one user cell of the admin lists (orders, transactions, pending payments): name over email, whole in
// their titles when cut, opening the user's page with whom to show in router state.

import { render, screen } from '@testing-library/react';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { UserCell } from '@/features/admin/users/UserCell';

function renderCell(cell: React.ReactNode) {
  const router = createMemoryRouter(
    [
      { path: '/admin/orders', element: cell },
      { path: '/admin/manage-user', element: <p>Manage user</p> },
    ],
    { initialEntries: ['/admin/orders'] },
  );
  render(<RouterProvider router={router} />);
  return router;
}

describe('UserCell', () => {
  it("shows the name over the email and opens the user's page for that user", async () => {
    const router = renderCell(<UserCell userId={5} fullName="Ada Obi" email="ada@example.com" />);
    const link = screen.getByRole('link', { name: /Ada Obi\s*ada@example\.com/ });
    expect(screen.getByText('Ada Obi').getAttribute('title')).toBe('Ada Obi');
    expect(screen.getByText('ada@example.com').className).toContain('max-w-[11rem]');
    link.click();
    await screen.findByText('Manage user');
    expect(router.state.location.state).toEqual({ userId: 5 });
  });

  it('takes less width where the table is crowded', () => {
    renderCell(<UserCell userId={5} fullName="Ada Obi" email="ada@example.com" narrow />);
    expect(screen.getByText('Ada Obi').className).toContain('max-w-[9rem]');
    expect(screen.getByText('ada@example.com').className).toContain('max-w-[9rem]');
  });
});
