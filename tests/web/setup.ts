// Component-test setup (jsdom). jest-dom is not installed: tests use plain vitest assertions.
import { afterEach, vi } from 'vitest';
import { cleanup, configure } from '@testing-library/react';
import { toast } from 'react-toastify';

// findBy* waits up to a second by default: on a busy machine (the whole suite, npm start beside it) a
// screen's first render can take longer. The wait still ends as soon as the element is there.
configure({ asyncUtilTimeout: 15_000 });

// jsdom has no matchMedia or scrolling.
if (typeof window.matchMedia !== 'function') {
  Object.defineProperty(window, 'matchMedia', {
    configurable: true,
    value: (query: string) => ({
      matches: false,
      media: query,
      onchange: null,
      addEventListener: () => undefined,
      removeEventListener: () => undefined,
      addListener: () => undefined,
      removeListener: () => undefined,
      dispatchEvent: () => false,
    }),
  });
}
window.scrollTo = (() => undefined) as typeof window.scrollTo;

afterEach(() => {
  cleanup();
  toast.dismiss();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});
