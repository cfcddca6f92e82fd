// Signed webhooks to resellers: what may receive them, the cap, deliveries that arrive signed as the docs say,
// events written by the statements that cause them, and an endpoint that keeps failing retried and then given up.
import { env } from 'cloudflare:test';
import { eq, sql } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { webhookDeliveries } from '../../../drizzle/schema';
import type { Env } from '../../../worker/env';
import { checkLowBalances } from '../../../worker/services/notifications/notification-emails';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { attemptDelivery, consumeWebhookDeliveries, dispatchWebhooks } from '../../../worker/services/reseller/webhook-deliveries';
import { sendTestWebhook, WEBHOOK_NOT_HTTPS, WEBHOOK_NOT_PUBLIC, webhookUrlProblem } from '../../../worker/services/reseller/webhooks';
import { call, registerAndLogin, type TestAccount, unique, withDb } from '../../support/api';
import { newLink, orderRow, placeSubmittedOrder } from '../fixtures/order-fixtures';
import { FAKE, shopSelling } from '../fixtures/shop-fixtures';
import { fundedUser } from '../fixtures/wallet-fixtures';

const RECEIVER = inject('webhookReceiverUrl');

interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}

async function receivedAt(path: string): Promise<Received[]> {
  const answer = await fetch(`${RECEIVER}/__deliveries?path=${encodeURIComponent(path)}`);
  return ((await answer.json()) as { deliveries: Received[] }).deliveries;
}

async function addWebhook(user: TestAccount, path: string, events = ['order.status', 'refill.status', 'balance.low']) {
  const created = await call('user/webhooks', { token: user.accessToken, body: { url: `${RECEIVER}${path}`, events } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return created.body.data as { id: number; secret: string };
}

/** The API page's recipe: HMAC-SHA256 with the secret over "<t>.<raw body>", hex, compared with v1. */
async function signatureHolds(secret: string, header: string, rawBody: string): Promise<boolean> {
  const fields = Object.fromEntries(header.split(',').map((part) => part.split('=') as [string, string]));
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${fields.t}.${rawBody}`));
  const hex = [...new Uint8Array(mac)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
  return hex === fields.v1 && Math.abs(Date.now() / 1000 - Number(fields.t)) < 300;
}

/** A queue that keeps what it is given, so a delivery is tried only when the test says (a real one would retry for a day). */
function recordingQueue() {
  const sent: unknown[] = [];
  const queue = { sendBatch: async (messages: Array<{ body: unknown }>) => void sent.push(...messages.map((m) => m.body)) } as unknown as Queue;
  return { sent, env: { ...env, WEBHOOK_DELIVERIES: queue } as Env };
}

describe('webhook addresses', () => {
  it('refuses plain http and every private, loopback and link-local address in production', () => {
    expect(webhookUrlProblem('http://example.com/hooks', false)).toBe(WEBHOOK_NOT_HTTPS);
    expect(webhookUrlProblem('http://localhost:8795/hooks', false)).toBe(WEBHOOK_NOT_HTTPS);
    for (const url of [
      'https://127.0.0.1/hooks',
      'https://localhost/hooks',
      'https://10.0.0.7/hooks',
      'https://172.20.1.1/hooks',
      'https://192.168.1.20/hooks',
      'https://169.254.169.254/latest/meta-data',
      'https://2130706433/hooks',
      'https://[::1]/hooks',
      'https://[fe80::1]/hooks',
      'https://[fd00::5]/hooks',
      'https://[::ffff:10.0.0.1]/hooks',
      'https://printer.local/hooks',
      'https://db.internal/hooks',
    ]) {
      expect(webhookUrlProblem(url, false), url).toBe(WEBHOOK_NOT_PUBLIC);
    }
    expect(webhookUrlProblem('https://hooks.example.com/smm', false)).toBeNull();
    expect(webhookUrlProblem('https://8.8.8.8/smm', false)).toBeNull();
    // The local stack: plain http to this machine, where the sandbox receiver listens; still nothing else private.
    expect(webhookUrlProblem('http://127.0.0.1:8795/x', true)).toBeNull();
    expect(webhookUrlProblem('http://localhost:8795/x', true)).toBeNull();
    expect(webhookUrlProblem('https://10.0.0.7/hooks', true)).toBe(WEBHOOK_NOT_PUBLIC);
  });

  it('answers a refused address with a 400 and a readable message, and keeps nothing', async () => {
    const user = await registerAndLogin();
    const refused = await call('user/webhooks', { token: user.accessToken, body: { url: 'https://192.168.0.10/hooks', events: ['order.status'] } });
    expect(refused).toMatchObject({ status: 400, body: { message: WEBHOOK_NOT_PUBLIC } });
    const noEvents = await call('user/webhooks', { token: user.accessToken, body: { url: 'https://hooks.example.com/', events: [] } });
    expect(noEvents).toMatchObject({ status: 400, body: { message: 'Choose at least one event' } });
    expect((await call('user/webhooks', { token: user.accessToken })).body.data).toEqual([]);
  });

  it('holds five endpoints per account, however many are added at once, and shows no secret in the list', async () => {
    const user = await registerAndLogin();
    const tries = await Promise.all(
      Array.from({ length: 7 }, (_, i) =>
        call('user/webhooks', { token: user.accessToken, body: { url: `https://hooks.example.com/${i}`, events: ['order.status'] } }),
      ),
    );
    expect(tries.filter((t) => t.status === 201)).toHaveLength(5);
    expect(tries.filter((t) => t.status === 409).map((t) => t.body.message)).toEqual([
      'You can have at most 5 webhooks. Delete one you no longer use first.',
      'You can have at most 5 webhooks. Delete one you no longer use first.',
    ]);
    const listed = (await call('user/webhooks', { token: user.accessToken })).body;
    expect(listed.data).toHaveLength(5);
    expect(JSON.stringify(listed)).not.toContain('whsec_');
  });

  it('lets only its owner delete an endpoint', async () => {
    const [owner, stranger] = await Promise.all([registerAndLogin(), registerAndLogin()]);
    const { id } = await addWebhook(owner, `/${unique('own')}`);
    expect((await call(`user/webhooks/${id}`, { method: 'DELETE', token: stranger.accessToken })).status).toBe(404);
    expect((await call(`user/webhooks/${id}/test`, { method: 'POST', token: stranger.accessToken })).status).toBe(404);
    expect((await call(`user/webhooks/${id}`, { method: 'DELETE', token: owner.accessToken })).status).toBe(200);
    expect((await call('user/webhooks', { token: owner.accessToken })).body.data).toEqual([]);
  });
});

describe('webhook deliveries', () => {
  it('sends a test at once, signed so the documented recipe verifies it, and logs it delivered', async () => {
    const user = await registerAndLogin();
    const path = `/${unique('test')}`;
    const { id, secret } = await addWebhook(user, path);
    expect((await call(`user/webhooks/${id}/test`, { method: 'POST', token: user.accessToken })).status).toBe(200);
    await expect.poll(() => receivedAt(path), { timeout: 20_000 }).toHaveLength(1);
    const [received] = await receivedAt(path);
    expect(await signatureHolds(secret, received.headers['x-webhook-signature'], received.body)).toBe(true);
    expect(await signatureHolds('whsec_someone-elses', received.headers['x-webhook-signature'], received.body)).toBe(false);
    expect(JSON.parse(received.body)).toMatchObject({ event: 'webhook.test', data: { message: expect.any(String) } });
    expect(received.headers).toMatchObject({ 'content-type': 'application/json', 'x-webhook-event': 'webhook.test' });
    await expect
      .poll(async () => (await call('user/webhooks', { token: user.accessToken })).body.deliveries[0], { timeout: 20_000 })
      .toMatchObject({ endpointId: id, event: 'webhook.test', state: 'delivered', attempts: 1, responseStatus: 200, error: null, body: received.body });
  });

  it('tells each change of an order’s protocol status, with its protocol fields, written with the change', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igFollowers);
    const path = `/${unique('orders')}`;
    await addWebhook(user, path, ['order.status']);
    const order = (await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity: 1000 })).body.data;
    const { providerOrderId } = await orderRow(order.id);
    // Pending Submission → Pending is no change in the protocol's words: nothing yet.
    expect(
      await withDb((db) =>
        db
          .select()
          .from(webhookDeliveries)
          .where(sql`${webhookDeliveries.subject}->>'order' = ${String(order.id)}`),
      ),
    ).toEqual([]);

    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'In progress', remains: 400, start_count: 120 });
    await withDb((db) => syncOrders(db, env));
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Completed', remains: 0, start_count: 120 });
    await withDb((db) => syncOrders(db, env));
    await withDb((db) => dispatchWebhooks(db, env));

    await expect.poll(() => receivedAt(path), { timeout: 20_000 }).toHaveLength(2);
    const bodies = (await receivedAt(path)).map((r) => JSON.parse(r.body));
    expect(bodies.map((b) => b.data.status).sort()).toEqual(['Completed', 'In progress']);
    const completed = bodies.find((b) => b.data.status === 'Completed');
    expect(completed).toMatchObject({
      event: 'order.status',
      createdAt: expect.any(String),
      data: { order: order.id, charge: order.charge, start_count: '120', remains: '0', currency: 'NGN' },
    });
  });

  it('tells a refill’s progress in the protocol’s words, from the provider taking it to its end', async () => {
    const { shop, serviceId, user } = await shopSelling(FAKE.igFollowers);
    const path = `/${unique('refills')}`;
    await addWebhook(user, path, ['refill.status']);
    const order = (await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity: 1000 })).body.data;
    const { providerOrderId } = await orderRow(order.id);
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Completed', remains: 0 });
    await withDb((db) => syncOrders(db, env));
    const refill = await call(`user/orders/${order.id}/refill`, { method: 'POST', token: user.accessToken });
    expect(refill.status, JSON.stringify(refill.body)).toBe(200);
    await shop.fake.post('/__control', { stepMs: 1 });
    await expect
      .poll(
        async () => {
          await withDb((db) => syncOrders(db, env));
          await withDb((db) => dispatchWebhooks(db, env));
          return (await receivedAt(path)).map((r) => JSON.parse(r.body).data.status);
        },
        { timeout: 20_000 },
      )
      .toContain('Completed');
    const last = JSON.parse((await receivedAt(path)).at(-1)!.body);
    expect(last).toMatchObject({ event: 'refill.status', data: { refill: refill.body.data.refillId, order: order.id, status: 'Completed' } });
  });

  it('tells a fall below the low-balance alert once, with the balance and the threshold', async () => {
    const user = await fundedUser(50_000n);
    const path = `/${unique('balance')}`;
    await addWebhook(user, path, ['balance.low']);
    expect((await call('user/notification-settings', { method: 'PUT', token: user.accessToken, body: { email: {}, lowBalance: '1000' } })).status).toBe(200);
    await withDb((db) => checkLowBalances(db));
    await withDb((db) => checkLowBalances(db));
    await withDb((db) => dispatchWebhooks(db, env));
    await expect.poll(() => receivedAt(path), { timeout: 20_000 }).toHaveLength(1);
    expect(JSON.parse((await receivedAt(path))[0].body)).toMatchObject({
      event: 'balance.low',
      data: { balance: '500.00', threshold: '1000.00', currency: 'NGN' },
    });
  });

  it('tries a failing endpoint again with growing delays, then gives up after a day and says so in the log', async () => {
    const user = await registerAndLogin();
    const path = `/fail-${unique('down')}`;
    const { id } = await addWebhook(user, path);
    const queue = recordingQueue();
    const { deliveryId } = await withDb((db) => sendTestWebhook(db, queue.env, user.id, id));
    expect(queue.sent).toEqual([{ deliveryId }]);

    expect(await withDb((db) => attemptDelivery(db, env, deliveryId))).toEqual({ retryInSeconds: 30 });
    // As the queue's consumer: the message goes back with the delay.
    const retried: unknown[] = [];
    const message = { body: { deliveryId }, attempts: 2, ack: () => retried.push('ack'), retry: (options: unknown) => retried.push(options) };
    await consumeWebhookDeliveries({ queue: 'webhook-deliveries', messages: [message] } as unknown as MessageBatch<unknown>, env);
    expect(retried).toEqual([{ delaySeconds: 60 }]);
    expect((await receivedAt(path)).length).toBe(2);
    let log = (await call('user/webhooks', { token: user.accessToken })).body.deliveries[0];
    expect(log).toMatchObject({ id: deliveryId, state: 'sending', attempts: 2, responseStatus: 500, error: 'The endpoint answered HTTP 500' });

    // Nearly a day later, the next delay would pass the day: this try is the last.
    await withDb((db) =>
      db.update(webhookDeliveries).set({ createdAt: sql`now() - interval '23 hours 59 minutes'` }).where(eq(webhookDeliveries.id, deliveryId)),
    );
    expect(await withDb((db) => attemptDelivery(db, env, deliveryId))).toEqual({ retryInSeconds: null });
    log = (await call('user/webhooks', { token: user.accessToken })).body.deliveries[0];
    expect(log).toMatchObject({ state: 'failed', attempts: 3, error: 'The endpoint answered HTTP 500; given up after 3 tries over a day' });
    // A late message for it changes nothing.
    expect(await withDb((db) => attemptDelivery(db, env, deliveryId))).toEqual({ retryInSeconds: null });
    expect((await receivedAt(path)).length).toBe(3);
  });

  it('queues again a delivery whose queue message was lost', async () => {
    const user = await registerAndLogin();
    const path = `/${unique('lost')}`;
    const { id } = await addWebhook(user, path);
    const { deliveryId } = await withDb((db) => sendTestWebhook(db, recordingQueue().env, user.id, id));
    await withDb((db) => db.update(webhookDeliveries).set({ queuedAt: sql`now() - interval '4 hours'` }).where(eq(webhookDeliveries.id, deliveryId)));
    await withDb((db) => dispatchWebhooks(db, env));
    await expect.poll(() => receivedAt(path), { timeout: 20_000 }).toHaveLength(1);
  });
});

describe('the delivery log', () => {
  it('forgets finished deliveries after a month and keeps newer ones and those still on their way', async () => {
    const user = await registerAndLogin();
    const { id } = await addWebhook(user, `/${unique('old')}`);
    const queue = recordingQueue();
    const made = await Promise.all([0, 1, 2].map(() => withDb((db) => sendTestWebhook(db, queue.env, user.id, id))));
    const [old, recent, pending] = made.map((m) => m.deliveryId);
    await withDb(async (db) => {
      await db.update(webhookDeliveries).set({ state: 'delivered', createdAt: sql`now() - interval '31 days'` }).where(eq(webhookDeliveries.id, old));
      await db.update(webhookDeliveries).set({ state: 'delivered' }).where(eq(webhookDeliveries.id, recent));
      // Still sending a month on would be given up first; only finished ones are forgotten.
      await db.update(webhookDeliveries).set({ createdAt: sql`now() - interval '31 days'`, queuedAt: sql`now()` }).where(eq(webhookDeliveries.id, pending));
    });
    await withDb((db) => dispatchWebhooks(db, env));
    const left = (await call('user/webhooks', { token: user.accessToken })).body.deliveries.map((d: { id: number }) => d.id);
    expect(left.sort()).toEqual([recent, pending].sort());
  });
});
