// Component-test setup (jsdom). jest-dom is not installed: tests use plain vitest assertions.

import { cleanup, configure } from '@testing-library/react';
import { toast } from 'react-toastify';
import { afterAll, afterEach, vi } from 'vitest';

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
// jsdom has no innerText, which sweetalert2 writes `titleText` with; without layout it is textContent.
if (!('innerText' in HTMLElement.prototype)) {
  Object.defineProperty(HTMLElement.prototype, 'innerText', {
    configurable: true,
    get(this: HTMLElement) {
      return this.textContent ?? '';
    },
    set(this: HTMLElement, value: string) {
      this.textContent = value;
    },
  });
}

afterEach(() => {
  cleanup();
  toast.dismiss();
  window.localStorage.clear();
  window.sessionStorage.clear();
  vi.useRealTimers();
  vi.restoreAllMocks();
  vi.unstubAllGlobals();
});

// sweetalert2 gives focus back on a 100 ms timer after a dialog closes; a file ending sooner would tear jsdom
// down under it. A timer due later always fires after it.
const SWEETALERT_RESTORE_FOCUS_MS = 100;
afterAll(() => new Promise((resolve) => setTimeout(resolve, SWEETALERT_RESTORE_FOCUS_MS + 20)));
