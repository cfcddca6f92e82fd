// How the services lists' virtualisers learn a row's height and the window's size: from what reports
// after the browser has laid the page out (the ResizeObserver they keep on each row, a frame, a resize),
// never by reading them while React mounts the rows (the library's default), which would make the
// browser lay out the whole page there and then, in the middle of the task that renders it.
import { elementScroll, type Virtualizer, windowScroll } from '@tanstack/react-virtual';

export function rowSizeAfterLayout<TScroll extends Element | Window>(
  element: Element,
  entry: ResizeObserverEntry | undefined,
  instance: Virtualizer<TScroll, Element>,
): number {
  const box = entry?.borderBoxSize?.[0];
  if (box) return Math.round(box.blockSize);
  const index = instance.indexFromElement(element);
  return instance.itemSizeCache.get(instance.options.getItemKey(index)) ?? instance.options.estimateSize(index);
}

/** The window's size as the first render can read it, before React has changed the page (nothing to lay out yet); none in the build's pre-rendering. */
export const viewportNow = () => (typeof window === 'undefined' ? { width: 0, height: 0 } : { width: window.innerWidth, height: window.innerHeight });

/** useWindowVirtualizer's observeElementRect: the window's size in the next frame and on every resize, not at once. */
export function viewportAfterLayout(_instance: unknown, report: (rect: { width: number; height: number }) => void): () => void {
  const read = () => report(viewportNow());
  const frame = requestAnimationFrame(read);
  window.addEventListener('resize', read, { passive: true });
  return () => {
    cancelAnimationFrame(frame);
    window.removeEventListener('resize', read);
  };
}

/** useVirtualizer's observeElementRect: the scrolling box's inner size from a ResizeObserver, which reports once laid out, not at once. */
export function elementSizeAfterLayout(
  instance: { scrollElement: Element | null },
  report: (rect: { width: number; height: number }) => void,
): (() => void) | undefined {
  const element = instance.scrollElement;
  if (!element) return undefined;
  if (typeof ResizeObserver === 'undefined') {
    report({ width: element.clientWidth, height: element.clientHeight });
    return undefined;
  }
  const observer = new ResizeObserver(([entry]) => {
    if (entry) report({ width: Math.round(entry.contentRect.width), height: Math.round(entry.contentRect.height) });
  });
  observer.observe(element);
  return () => observer.disconnect();
}

type ScrollOptions = { adjustments?: number; behavior?: ScrollBehavior };
const mounted = new WeakSet<object>();

/**
 * Whether this is the library's first write, as the list mounts, and to the offset the list already has (the top of a
 * box just made, or the window's scrollY it has just read): a write that moves nothing, but makes the browser lay the
 * whole page out in the middle of the task that renders it.
 */
function movesNothingOnMount(offset: number, options: ScrollOptions, instance: { scrollOffset: number | null }): boolean {
  if (mounted.has(instance)) return false;
  mounted.add(instance);
  return offset + (options.adjustments ?? 0) === instance.scrollOffset;
}

/** useVirtualizer's scrollToFn: the library's, less the write that moves nothing as the list mounts. */
export function elementScrollAfterLayout<T extends Element>(offset: number, options: ScrollOptions, instance: Virtualizer<T, Element>) {
  if (!movesNothingOnMount(offset, options, instance)) elementScroll(offset, options, instance);
}

/** useWindowVirtualizer's scrollToFn: the library's, less the write that moves nothing as the list mounts. */
export function windowScrollAfterLayout<T extends Window>(offset: number, options: ScrollOptions, instance: Virtualizer<T, Element>) {
  if (!movesNothingOnMount(offset, options, instance)) windowScroll(offset, options, instance);
}
