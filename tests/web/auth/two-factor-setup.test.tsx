// An administrator's two-factor sign-in: set up from a QR code drawn from the otpauth link (the key and
// the link stay as a fallback), confirmed with a first code; the ten recovery codes are shown once, to copy
// or download, until "I have saved them"; new ones for a current code; turning it off only when the site
// does not require it. A site that requires it holds the administrator at the setup screen until it is on.

import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { encode } from 'uqr';
import { describe, expect, it, vi } from 'vitest';
import type { SessionUser } from '@/lib/session';
import { renderApp } from '../app';
import { describedText, jsonResponse, mockFetch, sessionUser } from '../helpers';

const ROOT = sessionUser({ id: 9, fullName: 'Root Admin', email: 'root@example.com', userType: 1 });
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const OTPAUTH = `otpauth://totp/Boost%20Hub:root%40example.com?secret=${SECRET}&issuer=Boost%20Hub`;
const codes = (prefix: string) => Array.from({ length: 10 }, (_, i) => `${prefix}${i}aa-bbbb${i}`);
const FIRST_CODES = codes('f');
const NEW_CODES = codes('n');
const SAVE = 'Keep these recovery codes somewhere safe: each signs you in once without your phone, and they are shown only now.';
const QR_LABEL = 'QR code for your authenticator app';

interface Account {
  enabled: boolean;
  required: boolean;
  left: number;
  setupRequired: boolean;
}

/** The shop's API for an administrator whose two-factor state is `account`; returns the fetch mock. */
function server(account: Account, adminAnswer: (url: string) => Response | undefined = () => undefined) {
  return mockFetch((url, init) => {
    const body = init.body ? (JSON.parse(String(init.body)) as { code?: string }) : {};
    if (url.endsWith('/auth/2fa/setup')) return jsonResponse(200, { message: 'Scan the code', data: { secret: SECRET, otpauthUrl: OTPAUTH } });
    if (url.endsWith('/auth/2fa/enable')) {
      if (body.code !== '123456') return jsonResponse(400, { message: 'That code is not valid. Check your authenticator app and try again.' });
      Object.assign(account, { enabled: true, left: 10, setupRequired: false });
      return jsonResponse(200, { message: `Two-factor sign-in is on. ${SAVE}`, data: { recoveryCodes: FIRST_CODES } });
    }
    if (url.endsWith('/auth/2fa/recovery-codes')) {
      account.left = 10;
      return jsonResponse(200, { message: `New recovery codes made; the old ones no longer work. ${SAVE}`, data: { recoveryCodes: NEW_CODES } });
    }
    if (url.endsWith('/auth/2fa'))
      return jsonResponse(200, {
        data: {
          enabled: account.enabled,
          enabledAt: account.enabled ? '2026-03-05T10:00:00Z' : null,
          recoveryCodesLeft: account.left,
          required: account.required,
        },
      });
    if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { data: { ...ROOT, twoFactorSetupRequired: account.setupRequired } });
    if (url.includes('settings/public')) return jsonResponse(200, { siteName: 'Boost Hub' });
    return adminAnswer(url) ?? jsonResponse(200, { data: [], page: 1, limit: 20, total: 0 });
  });
}

/** The dark modules an SVG path of unit squares draws, as "x,y". */
const drawnModules = (svg: Element) =>
  [...(svg.querySelector('path')?.getAttribute('d') ?? '').matchAll(/M(\d+) (\d+)h1v1h-1z/g)].map(([, x, y]) => `${x},${y}`);
/** The dark modules of `text`'s QR code, as a QR library lays them out. */
const expectedModules = (text: string) => encode(text, { ecc: 'M', border: 2 }).data.flatMap((row, y) => row.flatMap((dark, x) => (dark ? [`${x},${y}`] : [])));

/** jsdom's Blob has no text(): read the old way. */
const readBlob = (blob: Blob) =>
  new Promise<string>((resolve) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.readAsText(blob);
  });

const sent = (fetch: ReturnType<typeof mockFetch>, path: string) =>
  fetch.mock.calls.filter(([url]) => String(url).endsWith(path)).map(([, init]) => JSON.parse(String(init?.body)));

describe("an administrator's two-factor sign-in", () => {
  it('is set up from a QR code of the otpauth link, and shows the recovery codes once', async () => {
    const account: Account = { enabled: false, required: false, left: 0, setupRequired: false };
    const fetch = server(account);
    const createObjectURL = vi.fn((_blob: Blob) => 'blob:codes');
    vi.stubGlobal('URL', Object.assign(URL, { createObjectURL, revokeObjectURL: vi.fn() }));
    // jsdom cannot follow a download link: the file is read from the Blob handed to it.
    vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(() => undefined);
    renderApp('/admin/account-settings', ROOT);
    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));

    const qr = await screen.findByRole('img', { name: QR_LABEL });
    expect(drawnModules(qr)).toEqual(expectedModules(OTPAUTH));
    expect(screen.getByText('JBSW Y3DP EHPK 3PXP JBSW Y3DP EHPK 3PXP')).toBeTruthy();
    expect(screen.getByRole('link', { name: 'Open in authenticator app' }).getAttribute('href')).toBe(OTPAUTH);

    await user.type(screen.getByLabelText('Code from the app'), '12');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    expect(describedText(screen.getByLabelText('Code from the app'))).toBe('Enter the 6-digit code');
    await user.type(screen.getByLabelText('Code from the app'), '3456');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));

    const panel = await screen.findByRole('region', { name: 'Save your recovery codes' });
    expect(sent(fetch, '/auth/2fa/enable')).toEqual([{ code: '123456' }]);
    expect(panel.textContent).toContain(SAVE);
    const shown = within(within(panel).getByRole('list', { name: 'Recovery codes' })).getAllByRole('listitem');
    expect(shown.map((item) => item.textContent)).toEqual(FIRST_CODES);
    await user.click(within(panel).getByRole('button', { name: 'Copy recovery codes' }));
    expect(await navigator.clipboard.readText()).toBe(FIRST_CODES.join('\n'));
    await user.click(within(panel).getByRole('button', { name: 'Download' }));
    const file = await readBlob(createObjectURL.mock.calls[0][0]);
    expect(file).toContain('Recovery codes for root@example.com');
    expect(file).toContain(FIRST_CODES.join('\n'));

    await user.click(within(panel).getByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Save your recovery codes' })).toBeNull());
    expect(document.body.textContent).not.toContain(FIRST_CODES[0]);
    await waitFor(() => expect(screen.getByText('Recovery codes left').nextElementSibling?.textContent).toBe('10 of 10'));
    expect(screen.getByRole('button', { name: 'Turn off' })).toBeTruthy();
  });

  it('makes new recovery codes for a current code, and says when few are left', async () => {
    const fetch = server({ enabled: true, required: false, left: 2, setupRequired: false });
    renderApp('/admin/account-settings', ROOT);
    const user = userEvent.setup();
    await waitFor(() => expect(screen.getByText('Recovery codes left').nextElementSibling?.textContent).toBe('2 of 10: make new ones before they run out'));

    await user.click(screen.getByRole('button', { name: 'Generate new recovery codes' }));
    await user.type(screen.getByLabelText('Code from the app'), '654321');
    await user.click(screen.getByRole('button', { name: 'Generate new codes' }));
    const panel = await screen.findByRole('region', { name: 'Save your recovery codes' });
    expect(sent(fetch, '/auth/2fa/recovery-codes')).toEqual([{ code: '654321' }]);
    expect(
      within(panel)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(NEW_CODES);
    expect(panel.textContent).toContain('the old ones no longer work');
  });

  it('cannot be turned off while the site requires it', async () => {
    server({ enabled: true, required: true, left: 9, setupRequired: false });
    renderApp('/admin/account-settings', ROOT);
    expect(await screen.findByText('This shop requires two-factor sign-in for administrators, so it stays on.')).toBeTruthy();
    expect(screen.queryByRole('button', { name: 'Turn off' })).toBeNull();
    expect(screen.getByRole('button', { name: 'Generate new recovery codes' })).toBeTruthy();
  });
});

describe('a site that requires two-factor for administrators', () => {
  const required = (): SessionUser => ({ ...ROOT, twoFactorSetupRequired: true });

  it('holds an administrator without it at the setup screen, then lets them in', async () => {
    server({ enabled: false, required: true, left: 0, setupRequired: true });
    const router = renderApp('/admin/users', required());
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/two-factor'));
    expect(await screen.findByRole('note', { name: 'Two-factor sign-in is required' })).toBeTruthy();
    expect(screen.queryByRole('complementary', { name: 'Admin navigation' })).toBeNull();
    await router.navigate('/admin/orders');
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/two-factor'));

    const user = userEvent.setup();
    await user.click(await screen.findByRole('button', { name: 'Set up two-factor sign-in' }));
    await user.type(await screen.findByLabelText('Code from the app'), '123456');
    await user.click(screen.getByRole('button', { name: 'Confirm and turn on' }));
    await user.click(await screen.findByRole('button', { name: 'I have saved them' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin'));
    expect(await screen.findByRole('complementary', { name: 'Admin navigation' })).toBeTruthy();
  });

  it('sends an administrator there when an admin call is refused for it', async () => {
    let setupRequired = false;
    const account: Account = { enabled: false, required: true, left: 0, setupRequired: false };
    server(account, (url) => {
      if (!url.includes('/admin/users')) return undefined;
      // The setting was switched on while this administrator was signed in.
      setupRequired = true;
      account.setupRequired = true;
      return jsonResponse(403, { message: 'Set up two-factor sign-in first.', error: 'Forbidden', code: 'two_factor_setup_required' });
    });
    const router = renderApp('/admin/users', ROOT);
    await waitFor(() => expect(router.state.location.pathname).toBe('/admin/two-factor'));
    expect(setupRequired).toBe(true);
    expect(await screen.findByRole('note', { name: 'Two-factor sign-in is required' })).toBeTruthy();
  });

  it('is switched on in Site Settings after a confirmation', async () => {
    let saved: unknown = null;
    mockFetch((url, init) => {
      if (url.includes('admin/settings/security')) {
        if (init.method === 'PUT') {
          saved = JSON.parse(String(init.body));
          return jsonResponse(200, { message: 'Security settings saved', data: saved });
        }
        return jsonResponse(200, { data: { adminTwoFactorRequired: false } });
      }
      if (url.includes('user/getCurrentProfile')) return jsonResponse(200, { data: ROOT });
      if (url.includes('admin/settings/site')) return jsonResponse(200, { data: { siteName: 'Boost Hub', defaultCurrency: 'NGN' } });
      return jsonResponse(200, { data: [] });
    });
    renderApp('/admin/site-settings', ROOT);
    const user = userEvent.setup();
    const toggle = await screen.findByRole('switch', { name: 'Administrators must use two-factor' });
    expect(toggle.getAttribute('aria-checked')).toBe('false');
    await user.click(toggle);
    await user.click(await screen.findByRole('button', { name: 'Yes, require it' }));
    await waitFor(() => expect(saved).toEqual({ adminTwoFactorRequired: true }));
    await waitFor(() => expect(screen.getByRole('switch', { name: 'Administrators must use two-factor' }).getAttribute('aria-checked')).toBe('true'));
  });
});
