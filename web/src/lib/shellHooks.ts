// The hooks and helpers the shells (layouts, banners, logo, spinner) use on every page: apart from
// the screens' (hooks.ts, which re-exports these), so a public page's first load carries only these.
import { type RefObject, useEffect, useRef } from 'react';

/** Calls `onOutside` for a pointer down outside every given element while `active`. */
export function useOutsideClick(refs: ReadonlyArray<RefObject<HTMLElement | null>>, onOutside: () => void, active = true): void {
  const cb = useRef(onOutside);
  cb.current = onOutside;
  useEffect(() => {
    if (!active) return undefined;
    const handler = (e: MouseEvent | TouchEvent) => {
      const target = e.target as Node | null;
      if (!target) return;
      if (refs.some((r) => r.current?.contains(target))) return;
      cb.current();
    };
    document.addEventListener('mousedown', handler);
    document.addEventListener('touchstart', handler);
    return () => {
      document.removeEventListener('mousedown', handler);
      document.removeEventListener('touchstart', handler);
    };
  }, [active, refs]);
}

/** Calls `onEscape` when Escape is pressed while `active`. */
export function useEscapeKey(onEscape: () => void, active = true): void {
  const cb = useRef(onEscape);
  cb.current = onEscape;
  useEffect(() => {
    if (!active) return undefined;
    const handler = (e: KeyboardEvent) => {
      if (e.key === 'Escape') cb.current();
    };
    document.addEventListener('keydown', handler);
    return () => document.removeEventListener('keydown', handler);
  }, [active]);
}

/** Joins class names, skipping falsy ones. */
export function cx(...parts: Array<string | false | null | undefined>): string {
  return parts.filter(Boolean).join(' ');
}
