import { SELF } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';

describe('health', () => {
  it('answers ok with the database reachable', async () => {
    const response = await SELF.fetch('http://shop.test/api/v1/health');
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'ok', db: 'ok' });
    expect(response.headers.get('x-request-id')).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const response = await SELF.fetch('http://shop.test/api/v1/nope');
    expect(response.status).toBe(404);
    expect(await response.json()).toEqual({ message: 'Not Found. The requested resource was not found.', error: 'Not Found' });
  });
});
