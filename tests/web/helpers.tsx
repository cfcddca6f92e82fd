// Shared test helpers: fetch answers and providers.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render, within } from '@testing-library/react';
import type { UserEvent } from '@testing-library/user-event';
import type { ReactNode } from 'react';
import { type InitialEntry, MemoryRouter } from 'react-router-dom';
import { vi } from 'vitest';
import type { AuthContextValue } from '@/lib/authContext';
import { type SessionUser, TOKEN_KEY } from '@/lib/session';

/** A minimal fetch Response (no stream machinery, so fake timers cannot stall it). */
export function jsonResponse(status: number, body: unknown): Response {
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return { ok: status >= 200 && status < 300, status, text: () => Promise.resolve(text) } as unknown as Response;
}

/** Stubs global fetch with a handler per call; returns the mock to inspect calls. */
export function mockFetch(handler: (url: string, init: RequestInit) => Response | Promise<Response>) {
  const fn = vi.fn((input: RequestInfo | URL, init?: RequestInit) => Promise.resolve(handler(String(input), init ?? {})));
  vi.stubGlobal('fetch', fn);
  return fn;
}

/** A signed-in person as the Worker answers a sign-in; a test names only what it is about. */
export const sessionUser = (user: Pick<SessionUser, 'id' | 'fullName' | 'email' | 'userType'> & Partial<SessionUser>): SessionUser => ({
  username: user.email.split('@')[0],
  status: 'active',
  emailVerified: true,
  created_at: '2026-01-01T00:00:00.000Z',
  last_login: null,
  ...user,
});

/** The customer the administrator's user-detail tests open (their wallet is each test's own). */
export const CHIDI = sessionUser({ id: 5, fullName: 'Chidi Okeke', email: 'chidi@example.com', userType: 2, created_at: '2024-03-05T10:00:00Z' });

/** The session a screen reads when rendered without the real AuthProvider: nobody signed in unless given, every action a spy. */
export function authStub(auth: Partial<AuthContextValue> = {}): AuthContextValue {
  return {
    user: null,
    userType: null,
    loading: false,
    login: vi.fn(),
    logout: vi.fn(),
    clearLocalSession: vi.fn(),
    setUser: vi.fn(),
    reloadProfile: vi.fn(),
    ...auth,
  };
}

export function newQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function WithQuery({ children, client = newQueryClient() }: { children: ReactNode; client?: QueryClient }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** A screen on its own at `path` (with its own Routes when it leaves), signed in with `token` when given. */
export function renderScreen(screen: ReactNode, path: InitialEntry, token?: string) {
  if (token) window.localStorage.setItem(TOKEN_KEY, token);
  render(
    <WithQuery>
      <MemoryRouter initialEntries={[path]}>{screen}</MemoryRouter>
    </WithQuery>,
  );
}

/** A table's column headings, in order. */
export const columnHeaders = (table: HTMLElement) =>
  within(table)
    .getAllByRole('columnheader')
    .map((header) => header.textContent);

/** Types `text` over what a field holds, as a person who selects it all first. */
export async function retype(user: UserEvent, field: HTMLElement, text: string) {
  await user.clear(field);
  await user.type(field, text);
}

/** Text of the message tied to an input through aria-describedby. */
export function describedText(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}
