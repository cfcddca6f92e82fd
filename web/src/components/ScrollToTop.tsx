import { lazy, Suspense, useEffect, useState } from 'react';

export const SCROLL_THRESHOLD_PX = 300;

// The button's own chunk loads the first time it is to be shown: no page shows it at first.
const ScrollToTopButton = lazy(() => import('./ScrollToTopButton'));

/** Floating button that appears after scrolling past 300 px. */
export function ScrollToTop() {
  const [visible, setVisible] = useState(false);
  useEffect(() => {
    const onScroll = () => setVisible(window.scrollY > SCROLL_THRESHOLD_PX);
    // A page opened scrolled (a reload) is read in the next frame, when the browser lays it out anyway.
    const frame = requestAnimationFrame(onScroll);
    window.addEventListener('scroll', onScroll, { passive: true });
    return () => {
      cancelAnimationFrame(frame);
      window.removeEventListener('scroll', onScroll);
    };
  }, []);
  if (!visible) return null;
  return (
    <Suspense fallback={null}>
      <ScrollToTopButton />
    </Suspense>
  );
}
