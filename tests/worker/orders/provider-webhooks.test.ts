// Webhooks from an upstream panel that is a shop like ours: signed as our own webhooks are (the API page's recipe, done
// here with WebCrypto), acted on as the sync acts on a polled answer, and never able to move money twice. The fake panel's
// copy of each order is pinned to an open state, so a sync run by another test file meanwhile reads nothing that closes it.
import { SELF } from 'cloudflare:test';
import { and, eq, isNull } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings, orderRefills, orders } from '../../../drizzle/schema';
import { BASE, call, type TestAccount, unique, uniqueIp, withDb } from '../../support/api';
import { newLink, orderRow, placeSubmittedOrder } from '../fixtures/order-fixtures';
import { FAKE, newShopWithOrder, type Shop, SMM_API_KEY } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const WALLET = 100_000_000n;
const koboOf = (naira: string) => BigInt(naira.replace('.', ''));
const nowSeconds = () => Math.floor(Date.now() / 1000);

async function signature(secret: string, rawBody: string, t = nowSeconds()): Promise<string> {
  const key = await crypto.subtle.importKey('raw', new TextEncoder().encode(secret), { name: 'HMAC', hash: 'SHA-256' }, false, ['sign']);
  const mac = new Uint8Array(await crypto.subtle.sign('HMAC', key, new TextEncoder().encode(`${t}.${rawBody}`)));
  return `t=${t},v1=${[...mac].map((byte) => byte.toString(16).padStart(2, '0')).join('')}`;
}

/** POSTs the exact bytes given, as the upstream panel would; `signed` null leaves the signature out. */
async function deliver(providerId: number, rawBody: string, signed: string | null) {
  const headers: Record<string, string> = { 'content-type': 'application/json', 'cf-connecting-ip': uniqueIp(), 'x-webhook-delivery': unique('d') };
  if (signed !== null) headers['x-webhook-signature'] = signed;
  const response = await SELF.fetch(`${BASE}/webhooks/providers/${providerId}`, { method: 'POST', headers, body: rawBody });
  return { status: response.status, body: await response.json<{ message: string }>() };
}

const bodyOf = (event: string, data: unknown) => JSON.stringify({ event, createdAt: new Date().toISOString(), data });

interface Setup {
  shop: Shop;
  user: TestAccount;
  orderId: number;
  providerOrderId: string;
  charge: bigint;
  secret: string;
  send: (event: string, data: unknown) => Promise<{ status: number; body: { message: string } }>;
  orderStatus: (data: Record<string, unknown>) => Promise<{ status: number; body: { message: string } }>;
}

/** An order at a provider that signs its webhooks with a secret set through the admin API; its fake copy pinned open. */
async function providerWithWebhooks(): Promise<Setup> {
  const { shop, user, order } = await newShopWithOrder(FAKE.igFollowers, { walletKobo: WALLET, quantity: 1000 });
  const { providerOrderId } = await orderRow(order.id);
  await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Pending', remains: 1000 });
  const secret = `whsec_${unique('s')}`;
  const updated = await call(`admin/providers/${shop.providerId}`, { method: 'PUT', token: shop.admin.accessToken, body: { webhookSecret: secret } });
  expect(updated.status, JSON.stringify(updated.body)).toBe(200);
  const send = async (event: string, data: unknown) => {
    const raw = bodyOf(event, data);
    return deliver(shop.providerId, raw, await signature(secret, raw));
  };
  const orderStatus = (data: Record<string, unknown>) =>
    send('order.status', { order: Number(providerOrderId), charge: order.charge, start_count: '0', currency: 'NGN', ...data });
  return { shop, user, orderId: order.id, providerOrderId: providerOrderId!, charge: koboOf(order.charge), secret, send, orderStatus };
}

const refundsOf = async (userId: number) => (await ledgerFor(userId)).filter((entry) => entry.sourceKind === 'order_refund');

describe('provider webhooks', () => {
  it('keeps the secret write-only: the view says only whether one is set, and it can be forgotten', async () => {
    const { shop, secret } = await providerWithWebhooks();
    const detail = await call(`admin/providers/${shop.providerId}`, { token: shop.admin.accessToken });
    expect(detail.body.data).toMatchObject({ webhookSecretSet: true });
    const list = await call('admin/providers', { token: shop.admin.accessToken });
    expect(JSON.stringify([detail.body, list.body])).not.toContain(secret);
    const cleared = await call(`admin/providers/${shop.providerId}`, { method: 'PUT', token: shop.admin.accessToken, body: { webhookSecret: null } });
    expect(cleared.body.data).toMatchObject({ webhookSecretSet: false });
    // Without a secret the provider takes no webhooks at all.
    const raw = bodyOf('webhook.test', { message: 'hi' });
    expect(await deliver(shop.providerId, raw, await signature(secret, raw))).toMatchObject({ status: 404 });
  });

  it('refuses a missing, wrong or stale signature with 401 and changes nothing', async () => {
    const { shop, user, orderId, providerOrderId, charge, secret } = await providerWithWebhooks();
    const before = await orderRow(orderId);
    const raw = bodyOf('order.status', {
      order: Number(providerOrderId),
      charge: '0.00',
      start_count: '0',
      status: 'Canceled',
      remains: '1000',
      currency: 'NGN',
    });
    const refusals = await Promise.all([
      deliver(shop.providerId, raw, null),
      deliver(shop.providerId, raw, await signature('whsec_not-the-secret', raw)),
      deliver(shop.providerId, raw, await signature(secret, raw, nowSeconds() - 301)),
      deliver(shop.providerId, raw, await signature(secret, raw, nowSeconds() + 301)),
      // Signed over other bytes: the same JSON with a space more is not what was signed.
      deliver(shop.providerId, raw, await signature(secret, `${raw} `)),
      deliver(shop.providerId, raw, 't=abc,v1=00'),
    ]);
    for (const refusal of refusals) expect(refusal).toMatchObject({ status: 401, body: { message: 'Invalid signature' } });
    expect(await orderRow(orderId)).toEqual(before);
    expect(await refundsOf(user.id)).toEqual([]);
    expect(await balanceKobo(user.id)).toBe(WALLET - charge);
  });

  it('answers webhook.test, and 404 for a provider without a secret or none at all', async () => {
    const { shop, send, secret } = await providerWithWebhooks();
    expect(await send('webhook.test', { message: 'A test from your SMM panel' })).toMatchObject({ status: 200 });
    const plain = await newShopWithOrder(FAKE.igFollowers, { walletKobo: WALLET });
    const raw = bodyOf('webhook.test', { message: 'hi' });
    expect(await deliver(plain.shop.providerId, raw, await signature(secret, raw))).toMatchObject({ status: 404 });
    expect(await deliver(2_147_483_000, raw, await signature(secret, raw))).toMatchObject({ status: 404 });
    expect(shop.providerId).not.toBe(plain.shop.providerId);
  });

  it('moves an order on In progress, as the sync would', async () => {
    const { shop, user, orderId, providerOrderId, charge, orderStatus } = await providerWithWebhooks();
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'In progress', remains: 600, start_count: 42 });
    expect(await orderStatus({ status: 'In progress', remains: '600', start_count: '42' })).toMatchObject({ status: 200 });
    expect(await orderRow(orderId)).toMatchObject({ status: 'In progress', remains: 600, startCount: 42, refundedKobo: 0n });
    expect(await balanceKobo(user.id)).toBe(WALLET - charge);
  });

  it('closes a Partial order with its refund once, however often it is posted, and a later Completed changes nothing', async () => {
    const { user, orderId, charge, orderStatus } = await providerWithWebhooks();
    const answers = await Promise.all([1, 2, 3].map(() => orderStatus({ status: 'Partial', remains: '377', start_count: '1200' })));
    for (const answer of answers) expect(answer.status).toBe(200);
    const refund = (charge * 377n) / 1000n;
    const closed = await orderRow(orderId);
    expect(closed).toMatchObject({ status: 'Partial', remains: 377, startCount: 1200, refundedKobo: refund });
    expect(await refundsOf(user.id)).toEqual([expect.objectContaining({ sourceRef: String(orderId), amountKobo: refund })]);
    expect(await balanceKobo(user.id)).toBe(WALLET - charge + refund);

    expect(await orderStatus({ status: 'Completed', remains: '0' })).toMatchObject({ status: 200 });
    expect(await orderRow(orderId)).toMatchObject({ status: 'Partial', remains: 377, refundedKobo: refund });
    expect(await refundsOf(user.id)).toHaveLength(1);
    expect(await balanceKobo(user.id)).toBe(WALLET - charge + refund);
  });

  it('refunds a Canceled order in full once, and leaves another provider’s order with the same id alone', async () => {
    const { shop, user, orderId, providerOrderId, charge, orderStatus } = await providerWithWebhooks();
    // A second provider on the same panel, whose order is made to carry the same provider order id.
    const created = await call('admin/providers', {
      token: shop.admin.accessToken,
      body: { name: unique('panel'), apiUrl: `${shop.fake.url}/api/v2`, apiKey: SMM_API_KEY, timeoutMs: 2000, webhookSecret: `whsec_${unique('o')}` },
    });
    expect(created.status, JSON.stringify(created.body)).toBe(201);
    const imported = await call(`admin/providers/${created.body.data.id}/import`, {
      token: shop.admin.accessToken,
      body: { serviceIds: [FAKE.igFollowers], markupPercent: '50' },
    });
    const otherUser = await fundedUser(WALLET);
    const other = (await placeSubmittedOrder(otherUser, { serviceId: imported.body.results[0].serviceId, link: newLink(), quantity: 1000 })).body.data;
    await withDb((db) => db.update(orders).set({ providerOrderId }).where(eq(orders.id, other.id)));
    const otherBefore = await orderRow(other.id);

    const answers = await Promise.all([1, 2, 3].map(() => orderStatus({ status: 'Canceled', remains: '1000', charge: '0.00' })));
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(await orderRow(orderId)).toMatchObject({ status: 'Canceled', refundedKobo: charge });
    expect(await refundsOf(user.id)).toHaveLength(1);
    expect(await balanceKobo(user.id)).toBe(WALLET);

    const otherAfter = await orderRow(other.id);
    expect(otherAfter).toMatchObject({ status: otherBefore.status, refundedKobo: 0n, remains: otherBefore.remains });
    expect(await refundsOf(otherUser.id)).toEqual([]);
    expect(await balanceKobo(otherUser.id)).toBe(WALLET - otherBefore.chargeKobo);
  });

  it('refuses unreadable data with 400, leaves the order alone and tells an administrator', async () => {
    const { shop, user, orderId, providerOrderId, charge, secret, send } = await providerWithWebhooks();
    const before = await orderRow(orderId);
    const garbled = await send('order.status', { order: Number(providerOrderId), status: ['Completed'], remains: '0' });
    expect(garbled).toMatchObject({ status: 400, body: { message: expect.stringContaining('Unreadable webhook') } });
    const noOrder = await send('order.status', { status: 'Canceled', remains: '1000' });
    expect(noOrder.status).toBe(400);
    const notJson = '{"event": "order.status", "data": ';
    expect(await deliver(shop.providerId, notJson, await signature(secret, notJson))).toMatchObject({ status: 400 });
    expect(await orderRow(orderId)).toEqual(before);
    expect(await balanceKobo(user.id)).toBe(WALLET - charge);
    const warnings = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(
          and(eq(catalogueWarnings.providerId, shop.providerId), eq(catalogueWarnings.kind, 'order_unclear_answer'), isNull(catalogueWarnings.acknowledgedAt)),
        ),
    );
    // Once until read, however many such deliveries came.
    expect(warnings).toEqual([expect.objectContaining({ orderId: null, message: expect.stringContaining('webhook') })]);
  });

  it('moves a refill on refill.status once, and a late report changes nothing', async () => {
    const { shop, user, orderId, providerOrderId, orderStatus, send } = await providerWithWebhooks();
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Completed', remains: 0 });
    expect(await orderStatus({ status: 'Completed', remains: '0' })).toMatchObject({ status: 200 });
    expect(await orderRow(orderId)).toMatchObject({ status: 'Completed', refundedKobo: 0n });
    const requested = await call(`user/orders/${orderId}/refill`, { method: 'POST', token: user.accessToken });
    expect(requested.status, JSON.stringify(requested.body)).toBe(200);
    const [refill] = await withDb((db) => db.select().from(orderRefills).where(eq(orderRefills.orderId, orderId)));
    const data = (status: string) => ({ refill: Number(refill.providerRefillId), order: Number(providerOrderId), status });
    const answers = await Promise.all([1, 2].map(() => send('refill.status', data('Completed'))));
    for (const answer of answers) expect(answer.status).toBe(200);
    expect(await send('refill.status', data('In progress'))).toMatchObject({ status: 200 });
    const [after] = await withDb((db) => db.select().from(orderRefills).where(eq(orderRefills.id, refill.id)));
    expect(after.status).toBe('Completed');
  });
});
