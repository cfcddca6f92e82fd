// A tap on a header control before it can take it (issue 28, part 4): the pre-rendered page's script
// keeps it, and the control acts on it once, when it is live. A visitor's button tapped before React
// took the pre-rendered page is tapped again as React takes it.

import { act, render, screen } from '@testing-library/react';
import { startTransition } from 'react';
import { hydrateRoot } from 'react-dom/client';
import { renderToString } from 'react-dom/server';
import { afterEach, describe, expect, it } from 'vitest';
import { DropdownMenu } from '@/components/DropdownMenu';
import {
  KEPT_TAP_ATTRIBUTE,
  PENDING_TAP_ATTRIBUTE,
  PENDING_TAP_MAX_AGE_MS,
  recordFirstTapScript,
  takePendingLink,
  takePendingTap,
  takeRootWithKeptTap,
} from '@/lib/firstTap';

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

describe('a link of the inert page tapped before the page could take it', () => {
  it('is kept by its path when visible under the tap, and taken once', () => {
    new Function(recordFirstTapScript())();
    render(
      <div id="root">
        <div inert>
          <a href="/user/add-fund">Add fund</a>
          <a href="/user/orders" style={{ visibility: 'hidden' }}>
            Orders
          </a>
        </div>
      </div>,
    );
    screen.getByText('Add fund').getBoundingClientRect = () => ({ left: 200, right: 244, top: 10, bottom: 54 }) as DOMRect;
    // A closed drawer's link: hidden, even where its box would be under the tap.
    screen.getByText('Orders').getBoundingClientRect = () => ({ left: 0, right: 288, top: 0, bottom: 800 }) as DOMRect;
    document.body.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 20, clientY: 100 }));
    expect(html.getAttribute(PENDING_TAP_ATTRIBUTE)).toBeNull();
    document.body.dispatchEvent(new MouseEvent('click', { bubbles: true, clientX: 220, clientY: 30 }));
    expect(html.getAttribute(PENDING_TAP_ATTRIBUTE)).toMatch(/^link:\/user\/add-fund \d+$/);
    // A control's own note is not a link's, and a link's is taken once.
    expect(takePendingTap('account-menu')).toBe(false);
    expect(takePendingLink()).toBe('/user/add-fund');
    expect(takePendingLink()).toBeNull();
  });

  it('is not followed when the tap is too old', () => {
    html.setAttribute(PENDING_TAP_ATTRIBUTE, `link:/user/add-fund ${Date.now() - PENDING_TAP_MAX_AGE_MS - 1}`);
    expect(takePendingLink()).toBeNull();
    expect(html.getAttribute(PENDING_TAP_ATTRIBUTE)).toBeNull();
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

/** A visitor's pre-rendered page: the build's markup of a counter button in #root, not yet React's. */
function Counter({ onTap }: { onTap: () => void }) {
  return (
    <button type="button" onClick={onTap}>
      Open menu
    </button>
  );
}

function prerenderedRoot(): HTMLElement {
  const root = document.createElement('div');
  root.id = 'root';
  root.innerHTML = renderToString(<Counter onTap={() => undefined} />);
  document.body.appendChild(root);
  return root;
}

describe("a visitor's button tapped before React took the page", () => {
  afterEach(() => document.getElementById('root')?.remove());

  it('is tapped again, once, as React hydrates the page', async () => {
    new Function(recordFirstTapScript())();
    const root = prerenderedRoot();
    const button = root.querySelector('button')!;
    button.click();
    expect(button.hasAttribute(KEPT_TAP_ATTRIBUTE)).toBe(true);

    let taps = 0;
    await act(async () => takeRootWithKeptTap(root, () => startTransition(() => void hydrateRoot(root, <Counter onTap={() => (taps += 1)} />))));
    expect(taps).toBe(1);
    // React hydrated the markup the build wrote, mark and all gone, and answers the next tap itself.
    expect(root.querySelector('button')).toBe(button);
    expect(button.hasAttribute(KEPT_TAP_ATTRIBUTE)).toBe(false);
    await act(async () => button.click());
    expect(taps).toBe(2);
    expect(button.hasAttribute(KEPT_TAP_ATTRIBUTE)).toBe(false);
  });

  it('is not tapped again when the tap is too old', async () => {
    const root = prerenderedRoot();
    const button = root.querySelector('button')!;
    button.setAttribute(KEPT_TAP_ATTRIBUTE, String(Date.now() - PENDING_TAP_MAX_AGE_MS - 1));
    let taps = 0;
    await act(async () => takeRootWithKeptTap(root, () => startTransition(() => void hydrateRoot(root, <Counter onTap={() => (taps += 1)} />))));
    expect(taps).toBe(0);
    expect(button.hasAttribute(KEPT_TAP_ATTRIBUTE)).toBe(false);
  });
});
