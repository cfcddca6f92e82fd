// A tap on a header control before it can take it (issue 28, part 4): the pre-rendered page's script
// keeps it, and the control acts on it once, when it is live.

import { act, render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { DropdownMenu } from '@/components/DropdownMenu';
import { PENDING_TAP_ATTRIBUTE, PENDING_TAP_MAX_AGE_MS, recordFirstTapScript } from '@/lib/firstTap';

const html = document.documentElement;
afterEach(() => html.removeAttribute(PENDING_TAP_ATTRIBUTE));

function Menu() {
  return <DropdownMenu label="Account menu" firstTap="account-menu" trigger="Me" entries={[{ kind: 'item', label: 'Logout', onSelect: () => undefined }]} />;
}

describe('the pre-rendered page script', () => {
  it('keeps a click that falls on an inert marked control, and nothing else', () => {
    new Function(recordFirstTapScript())();
    render(
      <div inert>
        <button type="button" data-first-tap="account-menu">
          Me
        </button>
      </div>,
    );
    const button = screen.getByText('Me');
    button.getBoundingClientRect = () => ({ left: 300, right: 350, top: 10, bottom: 54 }) as DOMRect;
    // Inert markup lets the tap through to the page below: the click is the body's.
    document.body.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 20, clientY: 20 }));
    expect(html.getAttribute(PENDING_TAP_ATTRIBUTE)).toBeNull();
    document.body.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 320, clientY: 30 }));
    expect(html.getAttribute(PENDING_TAP_ATTRIBUTE)).toMatch(/^account-menu \d+$/);
  });
});

describe('a menu tapped before it could take the tap', () => {
  it('opens once the page around it stops being inert, and only once', async () => {
    const { container } = render(
      <div data-testid="page" inert>
        <Menu />
      </div>,
    );
    await act(async () => html.setAttribute(PENDING_TAP_ATTRIBUTE, `account-menu ${Date.now()}`));
    expect(screen.queryByRole('menu')).toBeNull();
    await act(async () => container.querySelector('[inert]')!.removeAttribute('inert'));
    expect(await screen.findByRole('menu', { name: 'Account menu' })).toBeTruthy();
    expect(html.getAttribute(PENDING_TAP_ATTRIBUTE)).toBeNull();
  });

  it('opens at once when it mounts live with a tap kept', async () => {
    html.setAttribute(PENDING_TAP_ATTRIBUTE, `account-menu ${Date.now()}`);
    render(<Menu />);
    expect(await screen.findByRole('menu', { name: 'Account menu' })).toBeTruthy();
  });

  it('ignores a tap kept too long ago, or kept for another control', async () => {
    html.setAttribute(PENDING_TAP_ATTRIBUTE, `account-menu ${Date.now() - PENDING_TAP_MAX_AGE_MS - 1}`);
    const { unmount } = render(<Menu />);
    await act(async () => undefined);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(html.getAttribute(PENDING_TAP_ATTRIBUTE)).toBeNull();
    unmount();

    html.setAttribute(PENDING_TAP_ATTRIBUTE, `notifications ${Date.now()}`);
    render(<Menu />);
    await act(async () => undefined);
    expect(screen.queryByRole('menu')).toBeNull();
    expect(html.getAttribute(PENDING_TAP_ATTRIBUTE)).toMatch(/^notifications /);
  });
});
