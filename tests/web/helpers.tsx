// Shared test helpers: fetch answers and providers.

import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { vi } from 'vitest';
import type { SessionUser } from '@/lib/session';

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
  created_at: '2026-01-01T00:00:00.000Z',
  last_login: null,
  ...user,
});

export function newQueryClient() {
  return new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
}

export function WithQuery({ children, client = newQueryClient() }: { children: ReactNode; client?: QueryClient }) {
  return <QueryClientProvider client={client}>{children}</QueryClientProvider>;
}

/** Text of the message tied to an input through aria-describedby. */
export function describedText(input: HTMLElement): string | null {
  const id = input.getAttribute('aria-describedby');
  return id ? (document.getElementById(id)?.textContent ?? null) : null;
}
