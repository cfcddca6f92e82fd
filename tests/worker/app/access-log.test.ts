// The access log: one structured JSON line per request, tied to the answer's x-request-id,
// carrying who and what but never a token, a password or the query string.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { app } from '../../../worker/app';
import type { AccessLogLine } from '../../../worker/middleware/access-log';
import { BASE, registerAndLogin } from '../../support/api';

async function send(path: string, init: RequestInit = {}) {
  const log = vi.spyOn(console, 'log');
  const ctx = createExecutionContext();
  const response = await app.fetch(new Request(`${BASE}/${path}`, init), env, ctx);
  const body = await response.text();
  await waitOnExecutionContext(ctx);
  const printed = log.mock.calls.map((args) => String(args[0]));
  const lines = printed.filter((text) => text.includes('"msg":"request"'));
  return { response, body, printed, lines: lines.map((text) => JSON.parse(text) as AccessLogLine) };
}

afterEach(() => {
  vi.restoreAllMocks();
});

describe('the access log', () => {
  it('writes one line per request with the request id, route, status, duration and the caller', async () => {
    const user = await registerAndLogin();
    const { response, lines } = await send('user/getWalletBalance?page=2', { headers: { authorization: `Bearer ${user.accessToken}` } });
    expect(response.status).toBe(200);
    expect(lines).toHaveLength(1);
    expect(lines[0]).toEqual({
      level: 'info',
      msg: 'request',
      requestId: response.headers.get('x-request-id'),
      method: 'GET',
      path: '/api/v1/user/getWalletBalance',
      status: 200,
      durationMs: expect.any(Number),
      userId: user.id,
    });
    expect(lines[0].durationMs).toBeGreaterThanOrEqual(0);
  });

  it('logs the final status of a failed request, without a caller for a visitor', async () => {
    const { response, lines } = await send('admin/users');
    expect(response.status).toBe(401);
    expect(lines).toEqual([expect.objectContaining({ method: 'GET', path: '/api/v1/admin/users', status: 401 })]);
    expect(lines[0]).not.toHaveProperty('userId');
  });

  it('never prints a password, a token or a query string', async () => {
    const user = await registerAndLogin();
    const secretQuery = 'token=query-secret-value';
    const signIn = await send(`auth/login?${secretQuery}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': '10.9.8.7' },
      body: JSON.stringify({ email: user.email, password: user.password }),
    });
    expect(signIn.response.status).toBe(200);
    const { accessToken, refreshToken } = JSON.parse(signIn.body) as { accessToken: string; refreshToken: string };
    const everything = signIn.printed.join('\n');
    for (const secret of [user.password, accessToken, refreshToken, 'query-secret-value']) expect(everything).not.toContain(secret);
    expect(signIn.lines).toEqual([expect.objectContaining({ path: '/api/v1/auth/login', status: 200 })]);
  });
});
