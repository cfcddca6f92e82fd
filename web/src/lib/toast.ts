// Toasts without react-toastify in the first load (about 10 KiB gzipped that no page needs to paint):
// every screen toasts through here, and the library loads once the app has rendered (App.tsx mounts
// its container then) or with the first toast, whichever comes first; react-toastify shows a toast
// asked for before its container is mounted once it is.
import type { ToastContent, ToastOptions } from 'react-toastify';

let toastify: Promise<typeof import('react-toastify')> | null = null;
export const loadToastify = () => (toastify ??= import('react-toastify'));

type Kind = 'success' | 'error' | 'info' | 'warning';
const show =
  (kind: Kind) =>
  (...args: [content: ToastContent, options?: ToastOptions]) => {
    void loadToastify().then(({ toast }) => toast[kind](...args));
  };

export const toast = { success: show('success'), error: show('error'), info: show('info'), warning: show('warning') };
