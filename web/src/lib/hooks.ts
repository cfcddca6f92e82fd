// App-wide hooks and helpers. The few every page's shell uses are in shellHooks.ts (a public page's
// first load carries those without the rest) and re-exported here, where screens take them from.
import { useEffect, useRef, useState } from 'react';
import { useSearchParams } from 'react-router-dom';

export { cx, useEscapeKey, useOutsideClick } from './shellHooks';

/** `value`, updated only after it has been stable for `delay` ms (search as you type). */
export function useDebouncedValue<T>(value: T, delay = 250): T {
  const [debounced, setDebounced] = useState(value);
  useEffect(() => {
    const t = window.setTimeout(() => setDebounced(value), delay);
    return () => window.clearTimeout(t);
  }, [value, delay]);
  return debounced;
}

/** Whether a CSS media query matches (false where matchMedia is missing, e.g. tests). */
export function useMediaQuery(query: string): boolean {
  const get = () => (typeof window !== 'undefined' && typeof window.matchMedia === 'function' ? window.matchMedia(query).matches : false);
  const [matches, setMatches] = useState(get);
  useEffect(() => {
    if (typeof window.matchMedia !== 'function') return undefined;
    const mql = window.matchMedia(query);
    const onChange = () => setMatches(mql.matches);
    onChange();
    mql.addEventListener('change', onChange);
    return () => mql.removeEventListener('change', onChange);
  }, [query]);
  return matches;
}

/** A fresh random key (Idempotency-Key per order submission). */
export function newIdempotencyKey(): string {
  if (typeof crypto !== 'undefined' && typeof crypto.randomUUID === 'function') return crypto.randomUUID();
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2)}-${Math.random().toString(36).slice(2)}`;
}

export interface UrlFilters {
  /** A filter's value, '' when unset. */
  get: (name: string) => string;
  page: number;
  setPage: (page: number) => void;
  /** Sets filters ('' or null removes one); changing a filter goes back to page 1. */
  update: (patch: Record<string, string | null>) => void;
  clear: () => void;
  active: boolean;
}

/**
 * List filters kept in the URL, so a reload, the back button or a shared link keeps them.
 * `fixed` names parameters that are not filters (e.g. the open tab): clearing keeps them.
 */
export function useUrlFilters(fixed: ReadonlyArray<string> = []): UrlFilters {
  const [params, setParams] = useSearchParams();
  const isFilter = (name: string) => name !== 'page' && !fixed.includes(name);
  const update = (patch: Record<string, string | null>) => {
    const next = new URLSearchParams(params);
    for (const [name, value] of Object.entries(patch)) {
      if (value === null || value === '') next.delete(name);
      else next.set(name, value);
    }
    if (Object.keys(patch).some(isFilter)) next.delete('page');
    setParams(next, { replace: true });
  };
  const clear = () => {
    const next = new URLSearchParams();
    for (const name of fixed) if (params.has(name)) next.set(name, params.get(name)!);
    setParams(next, { replace: true });
  };
  return {
    get: (name) => params.get(name) ?? '',
    page: Math.max(1, Number(params.get('page')) || 1),
    setPage: (page) => update({ page: String(page) }),
    update,
    clear,
    active: [...params.keys()].some(isFilter),
  };
}

/** A search box bound to a URL filter: the box follows every key, the URL (and so the query) settles after a pause. */
export function useUrlSearch(filters: UrlFilters, name = 'search'): [string, (value: string) => void] {
  const stored = filters.get(name);
  const [text, setText] = useState(stored);
  const settled = useDebouncedValue(text.trim(), 350);
  const latest = useRef(filters);
  latest.current = filters;
  useEffect(() => {
    if (settled !== latest.current.get(name)) latest.current.update({ [name]: settled });
  }, [settled, name]);
  // "Clear filters" (or the back button) changes the URL under the box.
  useEffect(() => {
    setText((current) => (current.trim() === stored ? current : stored));
  }, [stored]);
  return [text, setText];
}
