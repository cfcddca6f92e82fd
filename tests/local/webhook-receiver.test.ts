// The sandbox webhook receiver keeps each webhook exactly as it arrived (signatures are computed over
// the raw bytes), answers as the path asks, and forgets everything on /__reset.
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningFake } from '../../local/fakes';
import { startFakeWebhookReceiver, type WebhookDelivery } from '../../local/fakes';

let receiver: RunningFake;

beforeAll(async () => {
  receiver = await startFakeWebhookReceiver({ port: 0 });
});

afterAll(async () => {
  await receiver?.close();
});

async function deliveries(path?: string): Promise<WebhookDelivery[]> {
  const response = await fetch(`${receiver.url}/__deliveries${path ? `?path=${encodeURIComponent(path)}` : ''}`);
  expect(response.status).toBe(200);
  return ((await response.json()) as { deliveries: WebhookDelivery[] }).deliveries;
}

it('keeps the raw body byte for byte and the headers', async () => {
  // Spacing, key order and non-ASCII a JSON round trip would change.
  const body = '{ "event":"order.completed",\n  "data": {"amount": 1.50, "note": "naïve — ✓"}, "a":1 }';
  const response = await fetch(`${receiver.url}/hooks/shop`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', 'X-Webhook-Signature': 't=1700000000,v1=abc123' },
    body,
  });
  expect(response.status).toBe(200);
  expect(await response.json()).toEqual({ ok: true });

  const [delivery] = await deliveries('/hooks/shop');
  expect(delivery.path).toBe('/hooks/shop');
  expect(Buffer.from(delivery.body, 'utf8').equals(Buffer.from(body, 'utf8'))).toBe(true);
  expect(delivery.headers['x-webhook-signature']).toBe('t=1700000000,v1=abc123');
  expect(delivery.headers['content-type']).toBe('application/json');
  expect(new Date(delivery.receivedAt).toISOString()).toBe(delivery.receivedAt);

  const page = await fetch(`${receiver.url}/`);
  expect(await page.text()).toContain('t=1700000000,v1=abc123');
});

it('answers 500 on a /fail path and still records it; control paths answer 503', async () => {
  const failed = await fetch(`${receiver.url}/fail/hook`, { method: 'POST', body: '{"event":"x"}' });
  expect(failed.status).toBe(500);
  expect(await failed.json()).toEqual({ error: 'failing on purpose' });
  expect((await deliveries('/fail/hook')).map((delivery) => delivery.body)).toEqual(['{"event":"x"}']);

  const control = await fetch(`${receiver.url}/__control`, { method: 'POST', body: JSON.stringify({ failPaths: ['/down'] }) });
  expect(control.status).toBe(200);
  expect((await fetch(`${receiver.url}/down`, { method: 'POST', body: '{}' })).status).toBe(503);
  expect((await fetch(`${receiver.url}/up`, { method: 'POST', body: '{}' })).status).toBe(200);
  expect(await deliveries('/down')).toHaveLength(1);
});

it('forgets deliveries and controls on /__reset', async () => {
  expect((await deliveries()).length).toBeGreaterThan(0);
  const ids = (await deliveries()).map((delivery) => delivery.id);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));

  expect((await fetch(`${receiver.url}/__reset`, { method: 'POST' })).status).toBe(200);
  expect(await deliveries()).toEqual([]);
  expect((await fetch(`${receiver.url}/down`, { method: 'POST', body: '{}' })).status).toBe(200);
});
