// Posting a signed event to a reseller's endpoint: the one outside call of the webhooks, behind one function.
// The signature recipe is the documented one (API page): HMAC-SHA256 with the endpoint's secret over
// "<t>.<raw body>", sent as `X-Webhook-Signature: t=<unix seconds>,v1=<hex>`; the timestamp lets receivers refuse replays.
import { hmacHex } from '../lib/crypto';
import { type FetchImpl, globalFetch } from './http';

export const WEBHOOK_TIMEOUT_MS = 10_000;

export async function webhookSignature(secret: string, body: string, unixSeconds: number): Promise<string> {
  return `t=${unixSeconds},v1=${await hmacHex(secret, `${unixSeconds}.${body}`)}`;
}

export interface WebhookPost {
  url: string;
  secret: string;
  body: string;
  event: string;
  deliveryId: number;
}

/** What the endpoint made of it: delivered on any 2xx; otherwise its status, or why it could not be reached. */
export type WebhookPostResult = { delivered: true; status: number } | { delivered: false; status: number | null; error: string };

export async function postWebhook(post: WebhookPost, fetchImpl: FetchImpl = globalFetch): Promise<WebhookPostResult> {
  const signature = await webhookSignature(post.secret, post.body, Math.floor(Date.now() / 1000));
  try {
    const response = await fetchImpl(post.url, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'user-agent': 'smm-panel-webhooks/1',
        'x-webhook-signature': signature,
        'x-webhook-event': post.event,
        // The same on every try of one delivery, so a receiver can drop a repeat it already handled.
        'x-webhook-delivery': String(post.deliveryId),
      },
      body: post.body,
      // A redirect could lead to an address the endpoint's own checks refused.
      redirect: 'manual',
      signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
    });
    // The receiver's answer is not ours to read; only the status counts. Drained so the connection is freed.
    await response.body?.cancel();
    if (response.status >= 200 && response.status < 300) return { delivered: true, status: response.status };
    return { delivered: false, status: response.status, error: `The endpoint answered HTTP ${response.status}` };
  } catch (error) {
    const timedOut = error instanceof Error && (error.name === 'TimeoutError' || error.name === 'AbortError');
    return { delivered: false, status: null, error: timedOut ? `No answer within ${WEBHOOK_TIMEOUT_MS / 1000} seconds` : 'The endpoint could not be reached' };
  }
}
