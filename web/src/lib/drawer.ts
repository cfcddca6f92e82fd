// The side drawers on phones (public menu, admin sidebar). Closed, a drawer is out of reach of the
// keyboard and of screen readers, not only slid off-screen: inert, and invisible once the slide away has
// finished. Opened, focus moves into it; closed while focus was in it, focus returns to its menu button.
import { type RefObject, useEffect, useRef } from 'react';

/**
 * The slide and visibility classes. Visibility is transitioned only on the way out, so the drawer is
 * visible (and focusable) the moment it opens and stays visible until it has slid away.
 */
export const drawerSlide = (open: boolean) =>
  open ? 'visible translate-x-0 transition-transform' : 'invisible -translate-x-full transition-[transform,visibility]';

export function useDrawerFocus(open: boolean, drawer: RefObject<HTMLElement | null>, toggle: RefObject<HTMLElement | null>): void {
  const wasOpen = useRef(open);
  useEffect(() => {
    if (open === wasOpen.current) return;
    wasOpen.current = open;
    if (open) {
      drawer.current?.querySelector<HTMLElement>('a[href], button:not([disabled])')?.focus();
      return;
    }
    // Inert drops the focus of anything inside, leaving it on the body; a click outside keeps its own.
    const focused = document.activeElement;
    if (!focused || focused === document.body || drawer.current?.contains(focused)) toggle.current?.focus();
  }, [open, drawer, toggle]);
}
