// Whether React has taken over the page: false while it hydrates markup the build pre-rendered (and
// when that markup is rendered), true from the next render on, and at once in a page React renders itself.
import { useSyncExternalStore } from 'react';

const neverChanges = () => () => undefined;

export const useHydrated = (): boolean =>
  useSyncExternalStore(
    neverChanges,
    () => true,
    () => false,
  );
