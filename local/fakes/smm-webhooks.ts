// The sandbox panel's webhooks, as a shop like ours sends them to its resellers (the API page's recipe): once switched on
// with POST /__control {"webhook": {"url", "secret"}} ({"webhook": null} switches them off), every change of an order's
// status word is POSTed as {event: "order.status", createdAt, data: {order, charge, start_count, status, remains, currency}}
// with `X-Webhook-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of the secret over "<t>.<body>">`. A delivery that
// fails is tried a few more times, then given up (the shop's polling is the fallback). Signed here with node:crypto,
// apart from the shop's own code, so a test against the shop checks the recipe, not the code against itself.
// GET /__webhooks lists what was sent, for a caller that replays, repeats or reorders deliveries.
import { createHmac } from 'node:crypto';

export interface WebhookTarget {
  url: string;
  secret: string;
}

export interface SentWebhook {
  id: number;
  event: string;
  /** The exact bytes sent, and the signature header of the first try. */
  body: string;
  signature: string;
  sentAt: string;
  /** The last try's answer: its status, or null when it got none. */
  status: number | null;
  tries: number;
}

const FINAL_WORDS = new Set(['Completed', 'Partial', 'Canceled']);
/** Tries of one delivery, and the wait before each retry. */
const RETRY_DELAYS_MS = [500, 1_000, 2_000, 4_000];
const LOG_LIMIT = 500;
const TIMEOUT_MS = 10_000;

export function webhookSignature(secret: string, body: string, unixSeconds = Math.floor(Date.now() / 1000)): string {
  return `t=${unixSeconds},v1=${createHmac('sha256', secret).update(`${unixSeconds}.${body}`).digest('hex')}`;
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms).unref());

/** One scope's webhooks: where to, what each order last reported, and the log. */
export class PanelWebhooks {
  target: WebhookTarget | null = null;
  readonly log: SentWebhook[] = [];
  private readonly lastWord = new Map<number, string>();
  private readonly finished = new Set<number>();
  private nextId = 1;

  /** Reads the control's `webhook` field; returns why it is refused, or null. */
  configure(value: unknown): string | null {
    if (value === undefined) return null;
    if (value === null) {
      this.target = null;
      this.log.length = 0;
      return null;
    }
    const { url, secret } = (typeof value === 'object' ? value : {}) as Record<string, unknown>;
    if (typeof url !== 'string' || !/^https?:\/\//.test(url) || typeof secret !== 'string' || secret === '') {
      return 'webhook must be null or {"url": "http(s)://...", "secret": "..."}';
    }
    this.target = { url, secret };
    // A new endpoint starts a new log: what was signed for the old one means nothing to whoever replays from it.
    this.log.length = 0;
    return null;
  }

  /** Sends order.status when the order's status word differs from the one last sent; quiet once it sent a final one. */
  notice(orderId: number, answer: Record<string, unknown>): void {
    if (this.target === null || this.finished.has(orderId)) return;
    const word = String(answer.status);
    if (this.lastWord.get(orderId) === word) return;
    this.lastWord.set(orderId, word);
    if (FINAL_WORDS.has(word)) this.finished.add(orderId);
    void this.deliver(this.target, 'order.status', { order: orderId, ...answer });
  }

  private async deliver(target: WebhookTarget, event: string, data: unknown): Promise<void> {
    const body = JSON.stringify({ event, createdAt: new Date().toISOString(), data });
    const sent: SentWebhook = {
      id: this.nextId++,
      event,
      body,
      signature: webhookSignature(target.secret, body),
      sentAt: new Date().toISOString(),
      status: null,
      tries: 0,
    };
    this.log.push(sent);
    if (this.log.length > LOG_LIMIT) this.log.shift();
    for (let attempt = 0; attempt <= RETRY_DELAYS_MS.length; attempt++) {
      if (attempt > 0) await sleep(RETRY_DELAYS_MS[attempt - 1]);
      sent.tries += 1;
      // Each try is signed afresh, as the shop signs its own retries.
      const signature = attempt === 0 ? sent.signature : webhookSignature(target.secret, body);
      sent.status = await post(target.url, body, event, sent.id, signature);
      // A refusal (4xx) will not change on a retry; no answer or a 5xx may.
      if (sent.status !== null && sent.status < 500) return;
    }
  }
}

async function post(url: string, body: string, event: string, deliveryId: number, signature: string): Promise<number | null> {
  try {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-webhook-signature': signature, 'x-webhook-event': event, 'x-webhook-delivery': String(deliveryId) },
      body,
      redirect: 'manual',
      signal: AbortSignal.timeout(TIMEOUT_MS),
    });
    await response.body?.cancel();
    return response.status;
  } catch {
    return null;
  }
}
