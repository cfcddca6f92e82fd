// The error contract of /api/v1: every error answer keeps {message, error} and adds a stable
// machine-readable `code` and the `requestId` that the x-request-id header and the log lines carry.
import { createExecutionContext, env, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { app } from '../../../worker/app';
import { openDatabase } from '../../../worker/db';
import { call, registerAndLogin, unique } from '../../support/api';

const expectContract = (answer: { status: number; body: unknown; headers: Headers }, status: number, code: string) => {
  const requestId = answer.headers.get('x-request-id');
  expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
  expect(answer).toMatchObject({ status, body: { message: expect.any(String), error: expect.any(String), code, requestId } });
};

describe('error answers', () => {
  it('carry the code and request id of a 400, 401, 404 and 409', async () => {
    expectContract(await call('auth/login', { body: '{not json' }), 400, 'invalid');
    expectContract(await call('user/getCurrentProfile'), 401, 'unauthenticated');
    expectContract(await call(`no-such-route-${unique()}`), 404, 'not_found');
    const user = await registerAndLogin();
    const again = await call('auth/register', { body: { fullName: 'Again', email: user.email, password: user.password, userType: 2 } });
    expectContract(again, 409, 'conflict');
  });

  it('name the refused refresh token precisely, keeping the error text older clients match', async () => {
    const refused = await call('auth/refresh', { body: { refreshToken: 'not-a-token' } });
    expectContract(refused, 401, 'refresh_token_invalid');
    expect(refused.body.error).toBe('Invalid or expired refresh token.');
  });

  it('carry the retry message, code and request id of a 503, never a 500, when the database cannot be reached', async () => {
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const ctx = createExecutionContext();
      const response = await app.fetch(new Request('http://shop.test/api/v1/services'), { ...env, DB_HTTP_ENDPOINT: 'http://127.0.0.1:9/sql' }, ctx);
      const body = await response.json();
      await waitOnExecutionContext(ctx);
      expectContract({ status: response.status, body, headers: response.headers }, 503, 'database_unavailable');
      expect(body).toMatchObject({ message: 'The service is briefly unavailable. Please try again in a moment.', error: 'Service Unavailable' });
      // The warning is tied to the answer by the same id.
      const warning = logged.mock.calls.map((args) => JSON.parse(String(args[0]))).find((line) => line.msg === 'database unavailable');
      expect(warning).toMatchObject({ level: 'warn', requestId: response.headers.get('x-request-id') });
    } finally {
      logged.mockRestore();
      // The endpoint is the driver's setting for the whole isolate: the next test's database needs the real one back.
      openDatabase(env);
    }
  });
});
