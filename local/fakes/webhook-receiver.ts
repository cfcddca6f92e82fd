// A local webhook receiver: the HTTP endpoint a reseller runs to receive the shop's signed webhooks.
// Every POST to any path (except the /__ controls) is kept exactly as it arrived — the raw body text,
// which signatures are computed over, and the headers — for GET /__deliveries?path=<path>, and shown
// to people at GET / (newest first, with the X-Webhook-Signature header and the body pretty-printed).
// It answers 200 {ok:true}; a path starting /fail answers 500 and one starting /slow answers after
// 15 s (both still kept); POST /__control {failPaths} makes more paths answer 503; POST /__reset
// forgets everything. `npm start` prints each delivery.

import type http from 'node:http';
import { escapeHtml, type FakeRequest, type RunningFake, Scopes, sendHtml, sendJson, startFakeServer } from './http';

export interface FakeWebhookReceiverOptions {
  port?: number;
  /** Print each delivery to the terminal (npm start). */
  echo?: boolean;
}

export interface WebhookDelivery {
  id: number;
  /** The path it was posted to, e.g. "/hooks/shop" (no query string). */
  path: string;
  receivedAt: string;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** The body as sent (UTF-8 text), byte for byte. */
  body: string;
}

interface ReceiverState {
  deliveries: WebhookDelivery[];
  /** Exact paths that answer 503 (POST /__control). */
  failPaths: Set<string>;
}

/** How long a /slow… path keeps the sender waiting: longer than a sender's usual timeout. */
export const SLOW_ANSWER_MS = 15_000;

export async function startFakeWebhookReceiver(options: FakeWebhookReceiverOptions = {}): Promise<RunningFake> {
  const scopes = new Scopes<ReceiverState>(() => ({ deliveries: [], failPaths: new Set() }));
  // Ids never repeat, not even after /__reset, so a test holding an old one cannot mistake a new delivery for it.
  let lastId = 0;
  const slowAnswers = new Set<NodeJS.Timeout>();

  return startFakeServer(
    options.port ?? 0,
    (request, response, scope) => {
      const state = scopes.get(scope);
      const { method, path } = request;
      if (method === 'GET' && path === '/') return sendHtml(response, 200, receiverPage(request, state.deliveries));
      if (!path.startsWith('/__')) {
        if (method !== 'POST') return sendJson(response, 405, { error: 'webhooks are POSTed' });
        const delivery: WebhookDelivery = {
          id: ++lastId,
          path,
          receivedAt: new Date().toISOString(),
          headers: flatHeaders(request.headers),
          body: request.rawBody.toString('utf8'),
        };
        state.deliveries.push(delivery);
        if (options.echo) {
          const event = eventOf(delivery.body);
          console.log(`[sandbox webhook] POST ${path}${event === null ? '' : ` ${event}`}`);
        }
        if (state.failPaths.has(path)) return sendJson(response, 503, { error: 'failing on request' });
        if (path.startsWith('/fail')) return sendJson(response, 500, { error: 'failing on purpose' });
        if (path.startsWith('/slow')) return answerLate(response);
        return sendJson(response, 200, { ok: true });
      }
      if (method === 'GET' && path === '/__deliveries') {
        const only = request.query.get('path');
        return sendJson(response, 200, { deliveries: only ? state.deliveries.filter((delivery) => delivery.path === only) : state.deliveries });
      }
      if (method === 'POST' && path === '/__control') {
        const fields = jsonObject(request);
        if (!fields) return sendJson(response, 400, { error: 'send a JSON object, e.g. {"failPaths":["/down"]}' });
        if (fields.failPaths !== undefined) {
          if (!Array.isArray(fields.failPaths) || !fields.failPaths.every((item) => typeof item === 'string' && item.startsWith('/')))
            return sendJson(response, 400, { error: 'failPaths must be a list of paths, each starting with /' });
          state.failPaths = new Set(fields.failPaths as string[]);
        }
        return sendJson(response, 200, { failPaths: [...state.failPaths] });
      }
      if (method === 'POST' && path === '/__reset') {
        scopes.reset(scope);
        return sendJson(response, 200, { ok: true });
      }
      sendJson(response, 404, { error: 'unknown control; webhooks go to any path not starting with /__' });
    },
    () => {
      for (const timer of slowAnswers) clearTimeout(timer);
      slowAnswers.clear();
    },
  );

  function answerLate(response: http.ServerResponse): void {
    const timer = setTimeout(() => {
      slowAnswers.delete(timer);
      if (!response.destroyed) sendJson(response, 200, { ok: true });
    }, SLOW_ANSWER_MS);
    slowAnswers.add(timer);
  }
}

/** Newest first, filtered with ?path=: where someone trying the local shop sees what a reseller's endpoint received. */
function receiverPage(request: FakeRequest, deliveries: WebhookDelivery[]): string {
  const only = request.query.get('path');
  const shown = (only ? deliveries.filter((delivery) => delivery.path === only) : deliveries).toReversed();
  const base = request.scopeUrl.replace('//127.0.0.1:', '//localhost:');
  const items = shown
    .map((delivery) => {
      const signature = delivery.headers['x-webhook-signature'];
      return `<article><h2>POST ${escapeHtml(delivery.path)}</h2><p class="meta">#${delivery.id} · ${delivery.receivedAt} · X-Webhook-Signature: ${
        signature === undefined ? '<em>none</em>' : `<code>${escapeHtml(signature)}</code>`
      }</p><pre>${escapeHtml(pretty(delivery.body))}</pre></article>`;
    })
    .join('');
  return `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><title>Sandbox webhook receiver</title>
<style>body{font:15px system-ui,sans-serif;margin:0 auto;max-width:48rem;padding:1rem;color:#0f172a;overflow-wrap:anywhere}article{border:1px solid #cbd5e1;border-radius:.5rem;padding:0 1rem;margin:1rem 0}h2{font-size:16px}pre{white-space:pre-wrap;font:13px ui-monospace,monospace}.meta{color:#475569;font-size:13px}</style></head>
<body><h1>Sandbox webhook receiver${only ? ` for ${escapeHtml(only)}` : ''}</h1><p class="meta">Point a webhook at <code>${escapeHtml(base)}/anything</code> (<code>…/fail…</code> answers 500, <code>…/slow…</code> answers after ${SLOW_ANSWER_MS / 1000} s). Newest first. <a href="${escapeHtml(base)}/">All</a> · filter with <code>?path=/anything</code>.</p>${items || '<p>No webhooks yet.</p>'}</body></html>`;
}

function flatHeaders(headers: http.IncomingHttpHeaders): Record<string, string> {
  const flat: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers)) if (value !== undefined) flat[name.toLowerCase()] = Array.isArray(value) ? value.join(', ') : value;
  return flat;
}

function jsonObject(request: FakeRequest): Record<string, unknown> | null {
  const text = request.rawBody.toString('utf8');
  if (text.trim() === '') return {};
  try {
    const parsed: unknown = JSON.parse(text);
    return typeof parsed === 'object' && parsed !== null && !Array.isArray(parsed) ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

function eventOf(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    const event = typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>).event : undefined;
    return typeof event === 'string' ? event : null;
  } catch {
    return null;
  }
}

function pretty(body: string): string {
  try {
    return JSON.stringify(JSON.parse(body), null, 2);
  } catch {
    return body;
  }
}
