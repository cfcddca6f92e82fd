// The audit log's page (/admin/audit-log) against a stubbed API: it is in the admin navigation, its
// filters live in the URL and name administrators (never a numeric id), and an entry opens at its own
// address with who, when, what, the target's link, the note and every before → after, money as "NGN 1,500.00".

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { describeAuditEntry } from '@/features/admin/audit/auditText';
import { renderApp, userAreaAnswer } from '../app';
import { jsonResponse, mockFetch, sessionUser } from '../helpers';

const ROOT = sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', userType: 1 });
const ACTORS = [
  { id: 9, fullName: 'Root Admin', email: 'root@example.com', administrator: true },
  { id: 12, fullName: 'Bola Price', email: 'bola@example.com', administrator: true },
  { id: 4, fullName: 'Old Hand', email: 'old@example.com', administrator: false },
];

const PRICE_EDIT = {
  id: 501,
  action: 'service.update',
  targetType: 'service',
  targetId: '77',
  targetUser: null,
  details: {
    rate: '2000',
    price: { before: { rate: '1500.00', cost: '1000.00' }, after: { rate: '2000.00', cost: '1000.00' } },
    changes: { rate: { from: '1500.00', to: '2000.00' }, enabled: { from: false, to: true } },
  },
  actor: { id: 12, fullName: 'Bola Price', email: 'bola@example.com' },
  created_at: '2026-03-05T10:00:00.000Z',
};
const SUSPENSION = {
  id: 502,
  action: 'user.suspend',
  targetType: 'user',
  targetId: '5',
  targetUser: { fullName: 'Chidi Okeke', email: 'chidi@example.com' },
  details: {},
  actor: { id: 9, fullName: 'Root Admin', email: 'root@example.com' },
  created_at: '2026-03-05T09:00:00.000Z',
};

const auditCalls = (fetch: ReturnType<typeof mockFetch>) =>
  fetch.mock.calls.map(([url]) => new URL(String(url), 'http://localhost')).filter((url) => url.pathname.endsWith('/admin/audit'));

function stubApi() {
  return mockFetch((url) => {
    const { pathname, searchParams } = new URL(url, 'http://localhost');
    if (pathname.endsWith('/admin/audit/actors')) return jsonResponse(200, { message: 'ok', data: ACTORS });
    if (pathname.endsWith('/admin/audit/501')) return jsonResponse(200, { message: 'Audit entry', data: PRICE_EDIT });
    if (pathname.endsWith('/admin/audit')) {
      const rows = [PRICE_EDIT, SUSPENSION].filter((row) => !searchParams.get('actorId') || String(row.actor.id) === searchParams.get('actorId'));
      return jsonResponse(200, { message: 'ok', data: rows, page: 1, limit: 20, total: rows.length });
    }
    if (url.includes('admin/tickets/unread')) return jsonResponse(200, { data: { unread: 0 } });
    return userAreaAnswer(url, ROOT) ?? jsonResponse(200, { data: [] });
  });
}

describe('the audit log page', () => {
  it('is in the admin navigation, filters by an administrator chosen by name into the URL, and opens an entry with its before and after', async () => {
    const user = userEvent.setup();
    const fetch = stubApi();
    const router = renderApp('/admin/audit-log', ROOT);

    const nav = await screen.findByRole('complementary', { name: 'Admin navigation' });
    expect(within(nav).getByRole('link', { name: 'Audit Log' }).getAttribute('aria-current')).toBe('page');
    expect(await screen.findByRole('link', { name: /Suspended Chidi Okeke \(chidi@example\.com\)/ })).toBeTruthy();
    // The actor and the time in full: neither is cut off (the time never splits).
    const meta = screen.getByText(/Root Admin \(root@example\.com\)/, { selector: 'p' });
    expect(meta.className).not.toContain('truncate');
    expect(meta.querySelector('time')?.className).toContain('whitespace-nowrap');

    // The administrator is chosen by name; a former one is said to be one.
    const administrator = screen.getByRole('combobox', { name: 'Administrator' });
    await waitFor(() => expect(within(administrator).getByRole('option', { name: 'Bola Price (bola@example.com)' })).toBeTruthy());
    expect(within(administrator).getByRole('option', { name: 'Old Hand (old@example.com), no longer an administrator' })).toBeTruthy();
    expect(screen.queryByRole('textbox', { name: /Administrator ID/ })).toBeNull();
    await user.selectOptions(administrator, 'Bola Price (bola@example.com)');
    await waitFor(() => expect(router.state.location.search).toBe('?actorId=12'));
    await waitFor(() => expect(auditCalls(fetch).at(-1)?.searchParams.get('actorId')).toBe('12'));
    await waitFor(() => expect(screen.queryByRole('link', { name: /Suspended Chidi/ })).toBeNull());

    // Dates and the target go to the URL too.
    await user.selectOptions(screen.getByRole('combobox', { name: 'Target' }), 'Service');
    await user.type(screen.getByRole('textbox', { name: 'Target ID' }), '77');
    await waitFor(() => expect(new URLSearchParams(router.state.location.search).get('targetId')).toBe('77'));
    expect(new URLSearchParams(router.state.location.search).get('targetType')).toBe('service');
    await waitFor(() => expect(auditCalls(fetch).at(-1)?.searchParams.get('targetId')).toBe('77'));

    // The entry opens at its own address.
    await user.click(screen.getByRole('link', { name: 'Edited service #77: price NGN\u00a01,500.00 → NGN\u00a02,000.00' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/audit-log/501'));
    expect(await screen.findByRole('heading', { name: 'Audit entry #501' })).toBeTruthy();
    const entry = await screen.findByRole('region', { name: 'Entry' });
    expect(within(entry).getByRole('link', { name: 'Bola Price (bola@example.com)' })).toBeTruthy();
    expect(within(entry).getByRole('link', { name: 'service #77' }).getAttribute('href')).toBe('/admin/services?search=77');
    expect(entry.textContent).toMatch(/2026/);

    const beforeAfter = screen.getByRole('region', { name: 'Before and after' });
    const rows = within(beforeAfter)
      .getAllByRole('row')
      .slice(1)
      .map((row) => row.textContent?.replaceAll('\u00a0', ' '));
    expect(rows).toEqual(['Price per 1000NGN 1,500.00NGN 2,000.00', 'Cost per 1000NGN 1,000.00NGN 1,000.00', 'On saleNoYes']);
    expect(document.body.textContent).not.toContain('₦');

    // Back to the list as it was filtered.
    await user.click(screen.getByRole('link', { name: 'Audit log' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/audit-log'));
    expect(new URLSearchParams(router.state.location.search).get('actorId')).toBe('12');
  });

  it('keeps filters from the address it is opened at', async () => {
    const fetch = stubApi();
    renderApp('/admin/audit-log?actorId=9&from=2026-03-01&to=2026-03-31&action=user', ROOT);
    await screen.findByRole('link', { name: /Suspended Chidi Okeke/ });
    const sent = auditCalls(fetch).at(-1)!.searchParams;
    expect(Object.fromEntries(sent)).toMatchObject({ actorId: '9', from: '2026-03-01', to: '2026-03-31', action: 'user', page: '1', limit: '20' });
    expect(screen.getByRole('combobox', { name: 'Area' })).toHaveProperty('value', 'user');
    const administrator = screen.getByRole('combobox', { name: 'Administrator' });
    await waitFor(() => expect(within(administrator).getByRole('option', { name: 'Root Admin (root@example.com)' })).toHaveProperty('selected', true));
  });

  it('writes money as NGN 1,500.00 and names people', () => {
    const credit = { ...SUSPENSION, action: 'wallet.credit', details: { amount: '1500', reference: 'Bank transfer' } };
    expect(describeAuditEntry(credit as never).replaceAll('\u00a0', ' ')).toBe('Credited NGN 1,500.00 to Chidi Okeke (chidi@example.com) (ref Bank transfer)');
    expect(describeAuditEntry({ ...credit, targetUser: null } as never).replaceAll('\u00a0', ' ')).toBe('Credited NGN 1,500.00 to user #5 (ref Bank transfer)');
  });

  it('names a provider the log joined, or the one a deletion kept, and falls back to its number', () => {
    const imported = { ...SUSPENSION, action: 'service.import', targetType: 'provider', targetId: '1', targetUser: null, details: {} };
    expect(describeAuditEntry({ ...imported, targetProvider: { name: 'Sandbox SMM Panel' } } as never)).toBe(
      'Imported services from provider Sandbox SMM Panel',
    );
    expect(describeAuditEntry({ ...imported, action: 'provider.delete', targetProvider: null, details: { name: 'Old Panel' } } as never)).toBe(
      'Deleted provider Old Panel',
    );
    expect(describeAuditEntry({ ...imported, action: 'provider.update', targetProvider: null } as never)).toBe('Edited provider #1');
  });
});
