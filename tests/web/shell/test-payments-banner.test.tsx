// In test mode every page says so: the "Test payments" banner sits above every shell.

import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderRoutes } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

function renderWithMode(paymentMode: 'test' | 'live', path: string) {
  mockFetch((url) => {
    if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'Banner Check Shop', paymentMode });
    if (url.includes('user/getCurrentProfile')) return jsonResponse(401, { message: 'Unauthorized' });
    return jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
  });
  renderRoutes(path);
}

describe('the test payments banner', () => {
  it.each(['/', '/auth/login'])('shows on %s while the shop takes test payments', async (path) => {
    renderWithMode('test', path);
    const banner = await screen.findByRole('status', { name: 'Test payments' });
    expect(banner.textContent).toBe('Test payments: cards are not charged and deposits are not real money.');
  });

  it('is absent in live mode', async () => {
    renderWithMode('live', '/');
    // The site name comes from the same answer as the mode: once it shows, the banner has had its chance.
    await waitFor(() => expect(screen.getAllByText('Banner Check Shop').length).toBeGreaterThan(0));
    expect(screen.queryByRole('status', { name: 'Test payments' })).toBeNull();
  });
});
