// Webhook delivery shared by the payment fakes. Every event is kept (GET /__webhooks shows the
// exact bytes, so tests can replay or tamper with them) and sent to the shop as a provider would:
// once, late, several times or not at all, as the scope's controls say.

import { isOneOf } from './http';

export type WebhookMode = 'normal' | 'delay' | 'duplicate' | 'drop';

export interface WebhookControls {
  /** Where events go (the provider dashboard's "Webhook URL"); null keeps them in /__webhooks only. */
  webhookUrl: string | null;
  webhookMode: WebhookMode;
  webhookDelayMs: number;
  /** How many identical copies 'duplicate' sends. */
  webhookTimes: number;
}

export interface WebhookRecord {
  id: number;
  event: string;
  reference: string;
  /** The exact bytes sent (UTF-8). */
  body: string;
  /** The authentication header's value (Paystack's HMAC, Flutterwave's secret hash). */
  signature: string;
  url: string | null;
  deliveries: Array<{ at: string; status: number | null; error: string | null }>;
}

const WEBHOOK_TIMEOUT_MS = 10_000;

export function defaultWebhookControls(webhookUrl: string | null): WebhookControls {
  return { webhookUrl, webhookMode: 'normal', webhookDelayMs: 3000, webhookTimes: 2 };
}

/** The webhook part of a POST /__control body. */
export function applyWebhookControls(controls: WebhookControls, fields: Record<string, unknown>): void {
  if (fields.webhookUrl !== undefined) controls.webhookUrl = typeof fields.webhookUrl === 'string' && fields.webhookUrl !== '' ? fields.webhookUrl : null;
  if (isOneOf(fields.webhookMode, ['normal', 'delay', 'duplicate', 'drop'])) controls.webhookMode = fields.webhookMode;
  if (typeof fields.webhookDelayMs === 'number') controls.webhookDelayMs = fields.webhookDelayMs;
  if (typeof fields.webhookTimes === 'number') controls.webhookTimes = fields.webhookTimes;
}

export interface WebhookSender {
  /** Records the event in `log` and delivers it as `controls` say; resolves, with the record, once immediate deliveries are done. */
  send(log: WebhookRecord[], controls: WebhookControls, event: Pick<WebhookRecord, 'event' | 'reference' | 'body' | 'signature'>): Promise<WebhookRecord>;
  /** Cancels delayed deliveries (the fake is closing). */
  close(): void;
}

export function webhookSender({ signatureHeader, userAgent }: { signatureHeader: string; userAgent: string }): WebhookSender {
  const timers = new Set<NodeJS.Timeout>();

  async function deliver(record: WebhookRecord): Promise<void> {
    if (record.url === null) return;
    const at = new Date().toISOString();
    try {
      const answer = await fetch(record.url, {
        method: 'POST',
        headers: { 'content-type': 'application/json', [signatureHeader]: record.signature, 'user-agent': userAgent },
        body: record.body,
        signal: AbortSignal.timeout(WEBHOOK_TIMEOUT_MS),
      });
      await answer.arrayBuffer();
      record.deliveries.push({ at, status: answer.status, error: null });
    } catch (error) {
      record.deliveries.push({ at, status: null, error: error instanceof Error ? error.message : String(error) });
    }
  }

  return {
    async send(log, controls, event) {
      const record: WebhookRecord = { id: log.length + 1, ...event, url: controls.webhookUrl, deliveries: [] };
      log.push(record);
      if (record.url === null || controls.webhookMode === 'drop') return record;
      if (controls.webhookMode === 'delay') {
        const timer = setTimeout(() => {
          timers.delete(timer);
          void deliver(record);
        }, controls.webhookDelayMs);
        timers.add(timer);
        return record;
      }
      const copies = controls.webhookMode === 'duplicate' ? Math.max(1, controls.webhookTimes) : 1;
      for (let copy = 0; copy < copies; copy++) await deliver(record);
      return record;
    },
    close() {
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}
