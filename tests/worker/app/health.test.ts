import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it, vi } from 'vitest';
import { app } from '../../../worker/app';

describe('health', () => {
  it('answers ok with the database reachable', async () => {
    const response = await SELF.fetch('http://shop.test/api/v1/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', db: 'ok' });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('tells the public only that the database is unreachable, and the log why', async () => {
    const database = new URL(env.DATABASE_URL);
    database.username = 'health_probe_nobody';
    database.password = 'not-the-password';
    const logged = vi.spyOn(console, 'error').mockImplementation(() => {});
    try {
      const ctx = createExecutionContext();
      const response = await app.fetch(new Request('http://shop.test/api/v1/health'), { ...env, DATABASE_URL: database.toString() }, ctx);
      const text = await response.text();
      await waitOnExecutionContext(ctx);
      expect(response.status).toBe(503);
      expect(JSON.parse(text)).toEqual({ status: 'error', db: 'unreachable' });
      const line = logged.mock.calls.map((args) => String(args[0])).find((entry) => entry.includes('health check: database unreachable'));
      expect(line).toContain('health_probe_nobody');
    } finally {
      logged.mockRestore();
    }
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await SELF.fetch('http://shop.test/api/v1/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toMatchObject({ message: 'Not Found. The requested resource was not found.', error: 'Not Found' });
  });
});
