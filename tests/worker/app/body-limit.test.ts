// Request bodies over the limit are refused as they arrive: a declared length before anything is
// read, a streamed body as soon as it passes the limit (an endless one included).
import { createExecutionContext, env, SELF, waitOnExecutionContext } from 'cloudflare:test';
import { describe, expect, it } from 'vitest';
import { app } from '../../../worker/app';
import { BASE, uniqueIp } from '../../support/api';

const TOO_LARGE = { message: 'Request body is too large.', error: 'Payload Too Large', code: 'too_large' };
const CHUNK = new TextEncoder().encode(`"${'x'.repeat(16 * 1024 - 2)}"`);

/** A body that never ends on its own; `pulled` counts the chunks the server asked for. */
function endlessBody() {
  const state = { pulled: 0, cancelled: false };
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      state.pulled += 1;
      controller.enqueue(CHUNK);
    },
    cancel() {
      state.cancelled = true;
    },
  });
  return { stream, state };
}

describe('request body limit', () => {
  it('refuses a declared oversize body with 413 and the JSON error contract', async () => {
    const body = JSON.stringify({ email: 'ada@example.com', password: 'p'.repeat(70 * 1024) });
    const response = await SELF.fetch(`${BASE}/auth/login`, {
      method: 'POST',
      body,
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueIp() },
    });
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject(TOO_LARGE);
  });

  it('refuses a streamed body once it passes the limit, without waiting for its end', async () => {
    const { stream, state } = endlessBody();
    // Straight into the app: through SELF the refused sender's pipe is torn down, which workerd reports as noise.
    const ctx = createExecutionContext();
    const response = await app.fetch(
      new Request(`${BASE}/webhooks/paystack`, { method: 'POST', body: stream, headers: { 'content-type': 'application/json' } }),
      env,
      ctx,
    );
    await waitOnExecutionContext(ctx);
    expect(response.status).toBe(413);
    expect(await response.json()).toMatchObject(TOO_LARGE);
    // 64 KiB is five 16 KiB chunks: the server stopped reading a few chunks past the limit.
    expect(state.pulled).toBeLessThan(20);
  });

  it('lets bodies within the limit through to validation', async () => {
    const response = await SELF.fetch(`${BASE}/auth/login`, {
      method: 'POST',
      body: JSON.stringify({ email: 'not-an-email', password: 'x' }),
      headers: { 'content-type': 'application/json', 'cf-connecting-ip': uniqueIp() },
    });
    expect(response.status).toBe(400);
    expect(((await response.json()) as { message: string }).message).toBe('Invalid email address');
  });
});
