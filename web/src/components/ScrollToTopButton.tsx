// The scroll-to-top button ScrollToTop shows past 300 px, and its eased scroll. It stands on top of the root layout's
// bottom dock (sticky, with the test-payments banner in it when shown), so it never covers the banner.
import { Icon } from './Icon';

export const SCROLL_DURATION_MS = 1000;

/** Scrolls the window to the top over `duration` ms (ease-in-out), or at once with reduced motion. */
export function smoothScrollToTop(duration = SCROLL_DURATION_MS): void {
  const start = window.scrollY;
  const reduce = typeof window.matchMedia === 'function' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;
  if (start <= 0 || reduce || typeof window.requestAnimationFrame !== 'function') {
    window.scrollTo(0, 0);
    return;
  }
  const t0 = performance.now();
  const ease = (t: number) => (t < 0.5 ? 2 * t * t : 1 - (-2 * t + 2) ** 2 / 2);
  const step = (now: number) => {
    const p = Math.min(1, (now - t0) / duration);
    window.scrollTo(0, Math.round(start * (1 - ease(p))));
    if (p < 1) window.requestAnimationFrame(step);
  };
  window.requestAnimationFrame(step);
}

export default function ScrollToTopButton() {
  return (
    <button
      type="button"
      onClick={() => smoothScrollToTop()}
      aria-label="Scroll to top"
      title="Scroll to top"
      className="pointer-events-auto absolute right-4 bottom-full mb-[max(1rem,env(safe-area-inset-bottom))] flex h-11 w-11 animate-fade-in items-center justify-center rounded-full bg-brand-600 text-white shadow-lg transition hover:bg-brand-700 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brand-600"
    >
      <Icon name="arrowUp" />
    </button>
  );
}
