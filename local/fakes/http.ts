// Plumbing shared by the local fakes of outside services: a node:http server on
// 127.0.0.1, body reading, and "scopes" — every fake serves its normal API at
// the root and an independent copy under /__scope/<name>/..., so concurrent
// test files can flip failure modes without disturbing each other.

import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RunningFake {
  /** Base URL, e.g. http://127.0.0.1:41234 (no trailing slash). */
  url: string;
  close(): Promise<void>;
}

export interface FakeRequest {
  method: string;
  /** Path inside the scope, e.g. "/api/v2" for "/__scope/t1/api/v2". */
  path: string;
  query: URLSearchParams;
  headers: http.IncomingHttpHeaders;
  rawBody: Buffer;
  /** Base URL of this scope, for links the fake hands out. */
  scopeUrl: string;
}

export type FakeHandler = (request: FakeRequest, response: http.ServerResponse, scope: string) => Promise<void> | void;

const SCOPE_PATTERN = /^\/__scope\/([A-Za-z0-9_-]{1,64})(\/.*)?$/;

/** Starts a fake on 127.0.0.1; requests that never get an answer (timeout modes) are cut when it closes. */
export async function startFakeServer(port: number, handle: FakeHandler, onClose: () => void = () => {}): Promise<RunningFake> {
  let baseUrl = '';
  const server = http.createServer((incoming, response) => {
    const chunks: Buffer[] = [];
    incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
    incoming.on('end', () => {
      const url = new URL(incoming.url ?? '/', baseUrl);
      const scoped = SCOPE_PATTERN.exec(url.pathname);
      const scope = scoped ? scoped[1] : '';
      const request: FakeRequest = {
        method: incoming.method ?? 'GET',
        path: scoped ? (scoped[2] ?? '/') : url.pathname,
        query: url.searchParams,
        headers: incoming.headers,
        rawBody: Buffer.concat(chunks),
        scopeUrl: scoped ? `${baseUrl}/__scope/${scope}` : baseUrl,
      };
      Promise.resolve(handle(request, response, scope)).catch((error: unknown) => {
        console.error('[fake] handler failed', error);
        if (!response.headersSent) sendJson(response, 500, { error: 'fake server error' });
      });
    });
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => resolve());
  });
  baseUrl = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: baseUrl,
    close: () =>
      new Promise<void>((resolve, reject) => {
        onClose();
        server.close((error) => (error ? reject(error) : resolve()));
        server.closeAllConnections();
      }),
  };
}

/** Per-scope state, created on first use. */
export class Scopes<State> {
  private readonly states = new Map<string, State>();
  constructor(private readonly create: (scope: string) => State) {}

  get(scope: string): State {
    let state = this.states.get(scope);
    if (!state) {
      state = this.create(scope);
      this.states.set(scope, state);
    }
    return state;
  }

  reset(scope: string): State {
    this.states.delete(scope);
    return this.get(scope);
  }
}

export function sendJson(response: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  response.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
  response.end(text);
}

export function sendHtml(response: http.ServerResponse, status: number, html: string): void {
  response.writeHead(status, { 'content-type': 'text/html; charset=utf-8', 'content-length': Buffer.byteLength(html) });
  response.end(html);
}

export function redirect(response: http.ServerResponse, location: string): void {
  response.writeHead(302, { location, 'content-length': 0 });
  response.end();
}

/** The upstream-proxy error page a broken service shows instead of JSON. */
export function sendGarbage(response: http.ServerResponse, status: number): void {
  const title = `${status} ${http.STATUS_CODES[status] ?? 'Error'}`;
  sendHtml(response, status, `<html><head><title>${title}</title></head><body><center><h1>${title}</h1></center><hr><center>nginx</center></body></html>`);
}

/** Reads a JSON or form-encoded body into a plain object; anything else is an empty object. */
export function readFields(request: FakeRequest): Record<string, unknown> {
  const type = String(request.headers['content-type'] ?? '');
  const text = request.rawBody.toString('utf8');
  if (text.trim() === '') return {};
  if (type.includes('application/json')) {
    try {
      const parsed: unknown = JSON.parse(text);
      return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : {};
    } catch {
      return {};
    }
  }
  if (type.includes('application/x-www-form-urlencoded')) return Object.fromEntries(new URLSearchParams(text));
  return {};
}

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

/** Narrows a control field to one of the allowed words. */
export function isOneOf<T extends string>(value: unknown, allowed: readonly T[]): value is T {
  return typeof value === 'string' && (allowed as readonly string[]).includes(value);
}
