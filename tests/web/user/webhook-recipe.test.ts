// The API page's Node.js receiver, taken from the page's own text, accepts what the Worker sends and nothing else:
// a reseller who copies it verifies our deliveries.
import { createHmac, timingSafeEqual } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { webhookNodeExample } from '@/features/user/apiDocs';
import { webhookSignature } from '../../../worker/providers/webhook-post';

type Verify = (rawBody: Buffer, signatureHeader: string | undefined, secret: string) => boolean;

/** The example's verifyWebhook, run as written. */
function documentedVerify(): Verify {
  const source = /function verifyWebhook[\s\S]*?\n}\n/.exec(webhookNodeExample)?.[0];
  if (!source) throw new Error('the docs no longer show verifyWebhook');
  return new Function('createHmac', 'timingSafeEqual', 'Buffer', `${source}; return verifyWebhook;`)(createHmac, timingSafeEqual, Buffer);
}

describe('the documented webhook recipe', () => {
  const secret = 'whsec_test-secret';
  const body = JSON.stringify({ event: 'order.status', createdAt: '2026-11-27T10:00:00.000Z', data: { order: 7, status: 'Completed', charge: '12.50' } });
  const now = () => Math.floor(Date.now() / 1000);

  it('accepts a delivery signed by the Worker', async () => {
    expect(documentedVerify()(Buffer.from(body), await webhookSignature(secret, body, now()), secret)).toBe(true);
  });

  it('refuses another secret, a changed body, an old timestamp and a missing header', async () => {
    const verify = documentedVerify();
    const header = await webhookSignature(secret, body, now());
    expect(verify(Buffer.from(body), header, 'whsec_other')).toBe(false);
    expect(verify(Buffer.from(body.replace('12.50', '1250.00')), header, secret)).toBe(false);
    expect(verify(Buffer.from(body), await webhookSignature(secret, body, now() - 600), secret)).toBe(false);
    expect(verify(Buffer.from(body), undefined, secret)).toBe(false);
  });
});
