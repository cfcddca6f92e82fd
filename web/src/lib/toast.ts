// Toasts without react-toastify in the first load (about 10 KiB gzipped that no page needs to paint):
// every screen toasts through here, and the library loads once the page is idle after its first render
// (App.tsx mounts its container then) or with the first toast, whichever comes first; react-toastify
// shows a toast asked for before its container is mounted once it is.
import type { ToastContent, ToastOptions } from 'react-toastify';

let toastify: Promise<typeof import('react-toastify')> | null = null;
const waiting = new Set<() => void>();
export function loadToastify() {
  if (!toastify) {
    toastify = import('react-toastify');
    for (const listener of waiting) listener();
    waiting.clear();
  }
  return toastify;
}

/**
 * Loads the library when the page is next idle (its evaluation and stylesheet then cost the phone
 * nothing while it renders the page), or at once when a toast asks first; `then` gets it either way.
 * Returns a way to stop waiting.
 */
export function loadToastifyWhenIdle(then: (library: typeof import('react-toastify')) => void): () => void {
  let waitingFor = true;
  const load = () => {
    if (waitingFor) void loadToastify().then(then);
    waitingFor = false;
  };
  if (toastify) load();
  else waiting.add(load);
  const idle = typeof requestIdleCallback === 'function' ? requestIdleCallback(load, { timeout: 4000 }) : undefined;
  const timer = idle === undefined ? setTimeout(load, 1000) : undefined;
  return () => {
    waitingFor = false;
    waiting.delete(load);
    if (idle !== undefined) cancelIdleCallback(idle);
    if (timer !== undefined) clearTimeout(timer);
  };
}

type Kind = 'success' | 'error' | 'info' | 'warning';
const show =
  (kind: Kind) =>
  (...args: [content: ToastContent, options?: ToastOptions]) => {
    void loadToastify().then(({ toast }) => toast[kind](...args));
  };

export const toast = { success: show('success'), error: show('error'), info: show('info'), warning: show('warning') };
