// What the data router's ScrollRestoration did, for the declarative router (routes.tsx explains why that
// one): a page opened by a link starts at the top (or at its #anchor, which the browser finds), Back and
// Forward return to where that page was left. The first page is left to the browser, which restores a
// reload's position itself.
import { useLayoutEffect, useRef } from 'react';
import { useLocation, useNavigationType } from 'react-router-dom';

/** Where each history entry was left, by its location key: this tab's history only, as the browser's is. */
const leftAt = new Map<string, number>();

export function RestoreScroll() {
  const { key, hash } = useLocation();
  const navigationType = useNavigationType();
  const firstPage = useRef(true);
  useLayoutEffect(() => {
    if (firstPage.current) firstPage.current = false;
    else if (navigationType === 'POP') window.scrollTo(0, leftAt.get(key) ?? 0);
    else if (!hash) window.scrollTo(0, 0);
    return () => void leftAt.set(key, window.scrollY);
  }, [key, hash, navigationType]);
  return null;
}
