// Every administrators' call, found in the Worker's own route table (so a call added later is
// covered without touching this file), refuses visitors with 401 and users with 403.
import { beforeAll, describe, expect, it } from 'vitest';
import { app } from '../../../worker/app';
import { call, createAdmin, registerAndLogin, type TestAccount } from '../../support/api';

/** Admin calls outside admin/: the spec names the credit call under user/. */
const ADMIN_CALLS_ELSEWHERE = [{ method: 'POST', path: '/api/v1/user/admin-credit-user-wallet' }];

const adminCalls = [...app.routes.filter((route) => route.path.startsWith('/api/v1/admin/') && route.method !== 'ALL'), ...ADMIN_CALLS_ELSEWHERE].map(
  ({ method, path }) => ({ method, path: path.replace('/api/v1/', '').replace(/:\w+/g, '1') }),
);

describe('admin calls', () => {
  let user: TestAccount;
  beforeAll(async () => {
    user = await registerAndLogin();
  });

  it('include the dashboard, administrators and audit calls', () => {
    const names = adminCalls.map((route) => `${route.method} ${route.path}`);
    for (const expected of [
      'GET admin/dashboard',
      'GET admin/administrators',
      'POST admin/administrators/promote',
      'POST admin/administrators/invite',
      'DELETE admin/administrators/1',
      'GET admin/audit',
    ]) {
      expect(names).toContain(expected);
    }
  });

  it.each(adminCalls)('$method $path refuses visitors (401) and users (403)', async ({ method, path }) => {
    const visitor = await call(path, { method, body: method === 'GET' ? undefined : {} });
    expect(visitor.status).toBe(401);
    expect(visitor.body.message).toBe('Unauthorized. Please log in again.');
    const denied = await call(path, { method, token: user.accessToken, body: method === 'GET' ? undefined : {} });
    expect(denied.status).toBe(403);
    expect(denied.body).toMatchObject({ message: 'Forbidden. You do not have permission.', error: 'Forbidden' });
  });

  it('are open to administrators', async () => {
    const admin = await createAdmin();
    for (const path of ['admin/dashboard', 'admin/administrators', 'admin/audit']) {
      expect((await call(path, { token: admin.accessToken })).status, path).toBe(200);
    }
  });
});
