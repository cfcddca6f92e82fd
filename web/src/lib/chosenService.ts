// The service a visitor picked on the public Services page before having an account. Router state
// alone is lost on the way (Register, the confirmation link opened in another tab, the header's
// Sign in): kept in localStorage for a day, it makes the first sign-in open the order form on it.
import type { From } from './authContext';

const KEY = 'chosenService';
const KEPT_FOR_MS = 24 * 60 * 60 * 1000;

export function rememberChosenService(serviceId: number | string, now = Date.now()): void {
  try {
    window.localStorage.setItem(KEY, JSON.stringify({ serviceId: String(serviceId), at: now }));
  } catch {
    // Storage blocked (private mode): the router state still carries the choice through a direct sign-in.
  }
}

/** The order form on the remembered service, or null when none was chosen within the day. */
export function chosenServiceOrderForm(now = Date.now()): From | null {
  try {
    const saved = JSON.parse(window.localStorage.getItem(KEY) ?? 'null') as { serviceId?: unknown; at?: unknown } | null;
    if (!saved || typeof saved.serviceId !== 'string' || !/^\d+$/.test(saved.serviceId) || typeof saved.at !== 'number') return null;
    if (now - saved.at > KEPT_FOR_MS) return null;
    return { pathname: '/user/create-order', search: `?service=${saved.serviceId}`, hash: '' };
  } catch {
    return null;
  }
}

export function forgetChosenService(): void {
  try {
    window.localStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
