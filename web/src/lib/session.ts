// Browser storage for the session (spec section 3) and the pending card payment.
//
//   localStorage  TOKEN          access token (sent as `Authorization: Bearer <TOKEN>`)
//   localStorage  REFRESH_TOKEN  refresh token (the server also keeps it in an httpOnly cookie)
//   localStorage  USER           the user record, encoded with a fixed-key cipher
//   sessionStorage payload       the payment to verify after the provider redirects back, encoded
//
// The encoding is obfuscation only (a fixed XOR key + base64): the server trusts none of it and
// re-checks everything with the token.
//
// Tabs share that storage, so each tab also keeps in memory the account it shows. When another tab
// signs in as someone else or signs out, the `storage` event tells this one at once; its private
// calls name the account it shows (api.ts), so a call from a tab that missed the change is refused.
import type { AppType } from '@worker/app';
import type { hc, InferResponseType } from 'hono/client';

export const TOKEN_KEY = 'TOKEN';
export const REFRESH_TOKEN_KEY = 'REFRESH_TOKEN';
export const USER_KEY = 'USER';
export const PAYLOAD_KEY = 'payload';

/** The signed-in person as the Worker answers a sign-in (and, with the wallet, the profile). */
export type SessionUser = InferResponseType<ReturnType<typeof hc<AppType>>['auth']['login']['$post'], 200>['user'] & { wallet?: { balance: string } };

export interface PaymentPayload {
  checkoutUrl: string;
  signature: string;
  amount: string | number;
  reference?: string;
}

// ---------------------------------------------------------------------------------------------
// Fixed-key symmetric cipher (XOR over UTF-8 bytes, then base64). decode(encode(x)) === x.

const CIPHER_KEY = 'smm-provider::2024::session-key';

function xorBytes(bytes: Uint8Array): Uint8Array {
  const key = new TextEncoder().encode(CIPHER_KEY);
  const out = new Uint8Array(bytes.length);
  for (let i = 0; i < bytes.length; i += 1) out[i] = bytes[i] ^ key[i % key.length];
  return out;
}

export function encode(value: unknown): string {
  const bytes = xorBytes(new TextEncoder().encode(JSON.stringify(value)));
  let binary = '';
  for (let i = 0; i < bytes.length; i += 1) binary += String.fromCharCode(bytes[i]);
  return btoa(binary);
}

/** Returns null for anything that is not a value written by `encode`. */
export function decode<T>(text: string | null | undefined): T | null {
  if (!text) return null;
  try {
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let i = 0; i < binary.length; i += 1) bytes[i] = binary.charCodeAt(i);
    return JSON.parse(new TextDecoder().decode(xorBytes(bytes))) as T;
  } catch {
    return null;
  }
}

// ---------------------------------------------------------------------------------------------
// Storage access that never throws (private mode, disabled storage, quota).

function read(store: 'local' | 'session', key: string): string | null {
  try {
    return (store === 'local' ? window.localStorage : window.sessionStorage).getItem(key);
  } catch {
    return null;
  }
}
function write(store: 'local' | 'session', key: string, value: string | null): void {
  try {
    const s = store === 'local' ? window.localStorage : window.sessionStorage;
    if (value === null) s.removeItem(key);
    else s.setItem(key, value);
  } catch {
    /* storage unavailable: the session lives in memory for this tab only */
  }
}

// ---------------------------------------------------------------------------------------------
// The account this tab shows, and notifications when it changes, so the AuthProvider hears when
// the API client or another tab clears, renews or replaces the session.

/**
 * Not this tab's own doing: another tab signed in or out, the server refused a suspended account, or
 * the refresh token is no longer good (the session expired or was revoked).
 */
export type SessionChangeCause = 'other-tab' | 'suspended' | 'expired';

export interface SessionChange {
  user: SessionUser | null;
  /** The account the tab showed until now. */
  previous: SessionUser | null;
  cause?: SessionChangeCause;
}

let tabUser: SessionUser | null = null;
let endedBy: SessionChangeCause | undefined;
/** Why the tab's last session ended when the tab did not end it itself, until the next sign-in. */
export const sessionEndedBy = () => endedBy;
/** The account this tab shows (memory, not storage: storage may already hold another tab's sign-in). */
export const getTabUser = () => tabUser;
export const sameAccount = (a: SessionUser | null, b: SessionUser | null) => String(a?.id ?? '') === String(b?.id ?? '');

type Listener = (change: SessionChange) => void;
const listeners = new Set<Listener>();
export function onSessionChange(listener: Listener): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

function show(user: SessionUser | null, cause?: SessionChangeCause, { silent = false } = {}) {
  const previous = tabUser;
  tabUser = user;
  if (!silent) for (const l of listeners) l({ user, previous, cause });
}

// ---------------------------------------------------------------------------------------------

export const getToken = () => read('local', TOKEN_KEY);
export const getRefreshToken = () => read('local', REFRESH_TOKEN_KEY);
export const getStoredUser = () => decode<SessionUser>(read('local', USER_KEY));

/** The tab starts by showing whoever storage holds. */
export function adoptStoredUser(): SessionUser | null {
  show(getStoredUser(), undefined, { silent: true });
  return tabUser;
}

/**
 * Shows whoever storage holds now: someone else when another tab signed in as them, nobody when it
 * signed out. Runs on the `storage` event and when the server says the tab's account and its token disagree.
 */
export function followStoredSession(): void {
  const stored = getStoredUser();
  if (!sameAccount(stored, tabUser)) show(stored, 'other-tab');
  // The same person, perhaps renamed in the other tab.
  else if (stored) show(stored);
}

/**
 * Keeps a fresh copy of the person this tab shows (a profile answer), unless another tab signed in as
 * someone else while the call was under way: then the tab follows that sign-in instead of overwriting it.
 */
export function rememberUser(user: SessionUser): void {
  const stored = getStoredUser();
  if (stored && !sameAccount(stored, user)) followStoredSession();
  else setStoredUser(user, { silent: true });
}

/** Listens for other tabs' sign-ins and sign-outs; returns the way to stop. */
export function watchOtherTabs(): () => void {
  const onStorage = (event: StorageEvent) => {
    // key null: the whole storage was cleared (the browser's tools, an older build of the SPA).
    if (event.storageArea === window.localStorage && (event.key === USER_KEY || event.key === null)) followStoredSession();
  };
  window.addEventListener('storage', onStorage);
  return () => window.removeEventListener('storage', onStorage);
}

export function setStoredUser(user: SessionUser | null, { silent = false } = {}): void {
  write('local', USER_KEY, user ? encode(user) : null);
  show(user, undefined, { silent });
}

/** Stores what auth/login and auth/refresh answer. */
export function saveSession(session: { accessToken?: string; refreshToken?: string; user?: SessionUser | null }): void {
  endedBy = undefined;
  if (session.accessToken) write('local', TOKEN_KEY, session.accessToken);
  if (session.refreshToken) write('local', REFRESH_TOKEN_KEY, session.refreshToken);
  if (session.user) setStoredUser(session.user);
}

/**
 * Removes the user, the token and the refresh token: the session the spec keeps in local storage
 * (sections 3 and 4). The rest stays (the display currency, a referral code to sign up with).
 */
export function clearSession(cause?: SessionChangeCause): void {
  if (cause) endedBy = cause;
  write('local', USER_KEY, null);
  write('local', TOKEN_KEY, null);
  write('local', REFRESH_TOKEN_KEY, null);
  show(null, cause);
}

export function savePaymentPayload(payload: PaymentPayload): void {
  write('session', PAYLOAD_KEY, encode(payload));
}
export function readPaymentPayload(): PaymentPayload | null {
  return decode<PaymentPayload>(read('session', PAYLOAD_KEY));
}
export function removePaymentPayload(): void {
  write('session', PAYLOAD_KEY, null);
}

/** Seconds since the epoch at which a JWT expires, or null when it cannot be read. */
export function tokenExpiry(token: string | null): number | null {
  if (!token) return null;
  const part = token.split('.')[1];
  if (!part) return null;
  try {
    const json = atob(
      part
        .replace(/-/g, '+')
        .replace(/_/g, '/')
        .padEnd(Math.ceil(part.length / 4) * 4, '='),
    );
    const exp = (JSON.parse(json) as { exp?: unknown }).exp;
    return typeof exp === 'number' ? exp : null;
  } catch {
    return null;
  }
}
