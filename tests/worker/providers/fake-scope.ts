// Each provider test file drives its own copy of a fake (the fakes serve an
// independent state under /__scope/<name>), so failure modes flipped here never
// leak into other test files running at the same time. Also what those files ask
// of a failed call: the provider error it rejects with.
import { expect } from 'vitest';

/** A fake's JSON answer. */
// biome-ignore lint/suspicious/noExplicitAny: each fake (SMM panel, Paystack, rates) answers its controls in a shape of its own, which the tests read field by field; a field they misread fails their expect()
type FakeAnswer = any;

export interface FakeScope {
  /** Base URL of this file's copy of the fake. */
  url: string;
  /** POSTs JSON to one of the fake's test endpoints (/__control, /__reset, ...) and returns its JSON answer. */
  post(path: string, body?: unknown): Promise<FakeAnswer>;
  get(path: string): Promise<FakeAnswer>;
}

export function fakeScope(fakeUrl: string): FakeScope {
  const url = `${fakeUrl}/__scope/t${crypto.randomUUID().replaceAll('-', '').slice(0, 12)}`;
  async function expectOk(response: Response): Promise<FakeAnswer> {
    if (!response.ok) throw new Error(`fake answered ${response.status}: ${await response.text()}`);
    return response.json();
  }
  return {
    url,
    post: async (path, body = {}) =>
      expectOk(await fetch(url + path, { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) })),
    get: async (path) => expectOk(await fetch(url + path)),
  };
}

/** A fetch that answers every request with the given body, for answers no fake produces. */
export function answering(status: number, body: string, contentType = 'application/json'): typeof fetch {
  return async () => new Response(body, { status, headers: { 'content-type': contentType } });
}

/** The error a call rejects with, once checked to be the provider's own kind of error. */
export async function rejection<E>(promise: Promise<unknown>, errorClass: new (...args: never[]) => E): Promise<E> {
  const error = await promise.then(
    () => null,
    (reason: unknown) => reason,
  );
  expect(error).toBeInstanceOf(errorClass);
  return error as E;
}
