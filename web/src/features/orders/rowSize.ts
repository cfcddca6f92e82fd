// How the services lists' virtualisers learn a row's height: from the ResizeObserver they keep on each
// row, which reports after the browser has laid the page out, and never by reading the height while
// React mounts the rows (the library's default), which would make the browser lay out the whole page
// there and then, in the middle of the task that renders it.
import type { Virtualizer } from '@tanstack/react-virtual';

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
