// A tab left open follows the site settings: the name (in the page and the browser's title) and the maintenance notice
// are read again on a timer while the tab is visible and when it regains focus.

import { focusManager } from '@tanstack/react-query';
import { act, cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { NOTICE_DISMISSED_KEY } from '@/app/layouts/MaintenanceBanner';
import { renderApp, renderRoutes, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch } from '../helpers';

const PRE_RENDERED_TITLE = 'SMM Provider – Social media marketing services';

/** A server whose site settings can change between calls; counts the reads of them. */
function server() {
  const site = { siteName: 'Boost Hub', maintenanceNotice: '' };
  const fetch = mockFetch((url) => {
    if (url.includes('settings/public')) return jsonResponse(200, { ...site, paymentMode: 'live' });
    const userArea = userAreaAnswer(url);
    if (userArea) return userArea;
    if (url.includes('tickets/unread')) return jsonResponse(200, { data: { unread: 0 } });
    return jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
  });
  const settingsReads = () => fetch.mock.calls.filter(([url]) => String(url).includes('settings/public')).length;
  return { site, settingsReads };
}

afterEach(() => {
  focusManager.setFocused(undefined);
  vi.useRealTimers();
  document.title = PRE_RENDERED_TITLE;
});

describe('the site settings in an open tab', () => {
  it("set the browser's title from the site name, in the user area too", async () => {
    document.title = PRE_RENDERED_TITLE;
    server();
    renderApp('/user/transactions');
    await waitFor(() => expect(document.title).toBe('Boost Hub – Social media marketing services'));
  });

  it('are read again every 5 minutes while the tab is visible: a new name and maintenance notice show without a reload', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    document.title = PRE_RENDERED_TITLE;
    const { site, settingsReads } = server();
    renderRoutes('/');
    await waitFor(() => expect(document.title).toBe('Boost Hub – Social media marketing services'));
    // The home page (loaded apart) is on screen: a reader mounting later would read stale settings again by itself.
    await screen.findByText(/delivered fast by Boost Hub/);
    expect(settingsReads()).toBe(1);

    await act(() => vi.advanceTimersByTimeAsync(4 * 60_000));
    expect(settingsReads()).toBe(1);
    await act(() => vi.advanceTimersByTimeAsync(61_000));
    await waitFor(() => expect(settingsReads()).toBe(2));

    // An administrator renames the shop and announces maintenance while the page stays open.
    site.siteName = 'Grow Fast';
    site.maintenanceNotice = 'Orders pause at 22:00 for maintenance.';
    await act(() => vi.advanceTimersByTimeAsync(5 * 60_000));
    await waitFor(() => expect(document.title).toBe('Grow Fast – Social media marketing services'));
    expect(screen.getAllByText('Grow Fast').length).toBeGreaterThan(0);
    expect((await screen.findByRole('status', { name: 'Maintenance notice' })).textContent).toContain('Orders pause at 22:00 for maintenance.');
    expect(settingsReads()).toBe(3);
  });

  it('are not read while the tab is hidden, and are read again as soon as it regains focus', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const { site, settingsReads } = server();
    renderRoutes('/');
    await waitFor(() => expect(document.title).toBe('Boost Hub – Social media marketing services'));
    // The home page (loaded apart) is on screen: a reader mounting later would read stale settings again by itself.
    await screen.findByText(/delivered fast by Boost Hub/);

    // The customer was in another tab for six minutes while an administrator renamed the shop: nothing is asked meanwhile.
    act(() => focusManager.setFocused(false));
    site.siteName = 'Grow Fast';
    await act(() => vi.advanceTimersByTimeAsync(6 * 60_000));
    expect(settingsReads()).toBe(1);
    act(() => focusManager.setFocused(true));
    await waitFor(() => expect(document.title).toBe('Grow Fast – Social media marketing services'));
    expect(settingsReads()).toBe(2);
  });

  it('show the maintenance notice until dismissed, for the rest of the session; a new notice shows again', async () => {
    const { site } = server();
    const read = vi.spyOn(Storage.prototype, 'getItem');
    renderRoutes('/');
    await screen.findByText(/delivered fast by Boost Hub/);
    // No notice: the session storage is never read for one (its first read costs a phone a long moment).
    expect(read.mock.calls.filter(([key]) => key === NOTICE_DISMISSED_KEY)).toEqual([]);
    read.mockRestore();
    cleanup();

    site.maintenanceNotice = 'Orders pause at 22:00 for maintenance.';
    renderRoutes('/');
    fireEvent.click(await screen.findByRole('button', { name: 'Dismiss notice' }));
    expect(screen.queryByRole('status', { name: 'Maintenance notice' })).toBeNull();
    cleanup();

    // Another page of the same session: still dismissed.
    renderRoutes('/');
    await screen.findByText(/delivered fast by Boost Hub/);
    expect(screen.queryByRole('status', { name: 'Maintenance notice' })).toBeNull();
    cleanup();

    site.maintenanceNotice = 'Payments pause at 23:00.';
    renderRoutes('/');
    expect((await screen.findByRole('status', { name: 'Maintenance notice' })).textContent).toContain('Payments pause at 23:00.');
  });
});
