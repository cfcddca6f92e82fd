// The reseller API (/api/v2, SMM panel "API v2") and the user calls that manage its keys: every
// action with good and bad input in all three encodings, keys that must stop (revoked, rotated,
// suspended owner), the per-key rate limit, another user's ids, concurrent `add` against one
// balance, and our own upstream client using this shop as its provider.
import { env, SELF } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { apiKeys, orderRefills, orders, rateLimits, services } from '../../../drizzle/schema';
import { sha256Hex } from '../../../worker/lib/crypto';
import { ceilDiv, koboToNaira } from '../../../worker/lib/decimal';
import { createSmmClient } from '../../../worker/providers/smm/client';
import { SmmProviderError } from '../../../worker/providers/smm/types';
import { MAX_API_KEYS_PER_USER } from '../../../worker/services/accounts/api-keys';
import { syncOrders } from '../../../worker/services/orders/order-sync';
import { meterKey, RATE_LIMITED } from '../../../worker/services/reseller/reseller-api';
import { DEFAULT_RESELLER_API_SETTINGS } from '../../../worker/services/settings';
import { call, createAdmin, registerAndLogin, type TestAccount, withDb } from '../../support/api';
import { fakeOrders, newLink, orderRow, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, newShop, rateKoboOf, type Shop } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const V2 = 'http://shop.test/api/v2';

type Encoding = 'form' | 'multipart' | 'json' | 'query';
type Fields = Record<string, string | number | string[]>;

/** One call to /api/v2 with the fields encoded as a client would; the answer must always be JSON. */
async function v2(fields: Fields, options: { encoding?: Encoding; headers?: Record<string, string>; url?: string } = {}) {
  const encoding = options.encoding ?? 'form';
  const flat = Object.entries(fields).map(([name, value]) => [name, Array.isArray(value) ? value.join('\n') : String(value)]);
  const headers: Record<string, string> = { ...options.headers };
  let url = options.url ?? V2;
  let body: BodyInit | undefined;
  if (encoding === 'query') url += `?${new URLSearchParams(flat)}`;
  else if (encoding === 'json') {
    body = JSON.stringify(fields);
    headers['content-type'] = 'application/json';
  } else if (encoding === 'multipart') {
    const form = new FormData();
    for (const [name, value] of flat) form.append(name, value);
    body = form;
  } else {
    body = new URLSearchParams(flat);
  }
  const response = await SELF.fetch(url, { method: encoding === 'query' ? 'GET' : 'POST', headers, body });
  expect(response.headers.get('content-type')).toMatch(/^application\/json/);
  const text = await response.text();
  return { status: response.status, body: JSON.parse(text), text, headers: response.headers };
}

async function newApiKey(user: TestAccount, name = 'Reseller tool'): Promise<{ id: number; key: string }> {
  const created = await call('user/api-keys', { token: user.accessToken, body: { name } });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  return { id: created.body.data.id, key: created.body.data.key };
}

/** A funded user with a key: what a reseller tool works with. */
async function reseller(kobo = 100_000_000n) {
  const user = await fundedUser(kobo);
  return { user, ...(await newApiKey(user)) };
}

const chargeOf = (rateKobo: bigint, units: number) => ceilDiv(rateKobo * BigInt(units), 1000n);

let shared: Shop | undefined;
/** One provider with every fake service, for the tests that do not change its behaviour. */
async function sharedShop(): Promise<Shop> {
  shared ??= await newShop();
  return shared;
}

/** Lets the fake panel finish an order and the shop see it (refills need a finished order). */
async function completeAtProvider(shop: Shop, orderId: number): Promise<void> {
  const { providerOrderId } = await untilSubmitted(orderId);
  await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Completed', remains: 0 });
  await withDb((db) => syncOrders(db, env));
}

describe('API keys (user/api-keys)', () => {
  it('creates a key shown once and stored only as its SHA-256, lists, rotates and revokes it', async () => {
    const user = await registerAndLogin();
    const created = await call('user/api-keys', { token: user.accessToken, body: { name: '  Child panel  ' } });
    expect(created.status).toBe(201);
    const { key, ...view } = created.body.data;
    expect(key).toMatch(/^[0-9a-f]{64}$/);
    expect(view).toEqual({
      id: expect.any(Number),
      name: 'Child panel',
      prefix: key.slice(0, 8),
      created_at: expect.any(String),
      last_used_at: null,
      last_get_write_at: null,
    });
    const [row] = await withDb((db) => db.select().from(apiKeys).where(eq(apiKeys.id, view.id)));
    expect(row.keyHash).toBe(await sha256Hex(key));
    expect(JSON.stringify(row)).not.toContain(key);

    const listed = await call('user/api-keys', { token: user.accessToken });
    expect(listed.body.data).toEqual([view]);
    expect(JSON.stringify(listed.body)).not.toContain(key);

    // Using the key notes when it was last used.
    expect((await v2({ key, action: 'balance' })).body).toEqual({ balance: '0.00', currency: 'NGN' });
    expect((await call('user/api-keys', { token: user.accessToken })).body.data[0].last_used_at).not.toBeNull();

    const rotated = await call(`user/api-keys/${view.id}/rotate`, { method: 'POST', token: user.accessToken });
    expect(rotated.status).toBe(200);
    expect(rotated.body.data).toMatchObject({ id: view.id, name: 'Child panel', last_used_at: null });
    expect(rotated.body.data.key).not.toBe(key);
    expect((await v2({ key, action: 'balance' })).body).toEqual({ error: 'Invalid API key' });
    expect((await v2({ key: rotated.body.data.key, action: 'balance' })).body).toEqual({ balance: '0.00', currency: 'NGN' });

    expect(await call(`user/api-keys/${view.id}`, { method: 'DELETE', token: user.accessToken })).toMatchObject({
      status: 200,
      body: { message: 'API key revoked' },
    });
    expect((await v2({ key: rotated.body.data.key, action: 'balance' })).body).toEqual({ error: 'Invalid API key' });
    expect((await call('user/api-keys', { token: user.accessToken })).body.data).toEqual([]);
    expect((await call(`user/api-keys/${view.id}`, { method: 'DELETE', token: user.accessToken })).status).toBe(404);
    expect((await call(`user/api-keys/${view.id}/rotate`, { method: 'POST', token: user.accessToken })).status).toBe(404);
  });

  it('validates, keeps keys to their owner, caps their number and is for users only', async () => {
    const user = await registerAndLogin();
    expect(await call('user/api-keys', { token: user.accessToken, body: {} })).toMatchObject({ status: 400, body: { message: 'Name is required' } });
    expect(await call('user/api-keys', { token: user.accessToken, body: { name: '   ' } })).toMatchObject({
      status: 400,
      body: { message: 'Name is required' },
    });
    expect(await call('user/api-keys', { token: user.accessToken, body: { name: 'x'.repeat(61) } })).toMatchObject({
      status: 400,
      body: { message: 'Name must be at most 60 characters' },
    });
    expect((await call('user/api-keys/abc/rotate', { method: 'POST', token: user.accessToken })).status).toBe(400);

    const { id } = await newApiKey(user);
    const stranger = await registerAndLogin();
    expect((await call(`user/api-keys/${id}/rotate`, { method: 'POST', token: stranger.accessToken })).status).toBe(404);
    expect((await call(`user/api-keys/${id}`, { method: 'DELETE', token: stranger.accessToken })).status).toBe(404);
    expect((await call('user/api-keys', { token: stranger.accessToken })).body.data).toEqual([]);

    // The cap holds even for creations at the same instant.
    const burst = await Promise.all(
      Array.from({ length: MAX_API_KEYS_PER_USER + 2 }, (_, i) => call('user/api-keys', { token: user.accessToken, body: { name: `Key ${i}` } })),
    );
    expect(burst.filter((answer) => answer.status === 201)).toHaveLength(MAX_API_KEYS_PER_USER - 1);
    for (const refused of burst.filter((answer) => answer.status !== 201)) {
      expect(refused).toMatchObject({
        status: 409,
        body: { message: `You can have at most ${MAX_API_KEYS_PER_USER} API keys. Revoke one you no longer use first.` },
      });
    }
    expect((await call('user/api-keys', { token: user.accessToken })).body.data).toHaveLength(MAX_API_KEYS_PER_USER);

    expect((await call('user/api-keys')).status).toBe(401);
    expect((await call('user/api-keys', { token: (await createAdmin()).accessToken })).status).toBe(403);
  });
});

describe('calling /api/v2', () => {
  it.each(['form', 'multipart', 'json', 'query'] as const)('reads key and action from a %s request', async (encoding) => {
    const { key } = await reseller(123_450n);
    expect(await v2({ key, action: 'balance' }, { encoding })).toMatchObject({ status: 200, body: { balance: '1234.50', currency: 'NGN' } });
    expect((await v2({ key: 'not-a-key', action: 'balance' }, { encoding })).body).toEqual({ error: 'Invalid API key' });
    expect((await v2({ key, action: 'dance' }, { encoding })).body).toEqual({ error: 'Incorrect request' });
  });

  it('mixes query and body, takes a trailing slash and a body without a type, and refuses what it cannot read', async () => {
    const { key } = await reseller(5_000n);
    expect((await v2({ action: 'balance' }, { url: `${V2}/?key=${key}` })).body).toEqual({ balance: '50.00', currency: 'NGN' });
    const untyped = await SELF.fetch(V2, { method: 'POST', body: `key=${key}&action=balance`, headers: { 'content-type': '' } });
    expect(await untyped.json()).toEqual({ balance: '50.00', currency: 'NGN' });

    const malformed = await SELF.fetch(V2, { method: 'POST', body: '{"key":', headers: { 'content-type': 'application/json' } });
    expect({ status: malformed.status, body: await malformed.json() }).toEqual({ status: 200, body: { error: 'Incorrect request' } });
    const list = await SELF.fetch(V2, { method: 'POST', body: '[1,2]', headers: { 'content-type': 'application/json' } });
    expect(await list.json()).toEqual({ error: 'Incorrect request' });
    expect((await v2({})).body).toEqual({ error: 'Invalid API key' });
    expect((await v2({ key })).body).toEqual({ error: 'Incorrect request' });
    expect((await v2({ key: '', action: 'balance' })).body).toEqual({ error: 'Invalid API key' });
    expect((await v2({ key: 'k'.repeat(5000), action: 'balance' })).body).toEqual({ error: 'Invalid API key' });
    const huge = await SELF.fetch(V2, { method: 'POST', body: new URLSearchParams({ key, action: 'add', comments: 'x'.repeat(300_000) }) });
    expect(await huge.json()).toEqual({ error: 'Request body is too large' });
    expect((await SELF.fetch(V2, { method: 'PUT', body: 'key=1' })).status).toBe(404);
  });

  it('answers browsers from any origin (CORS)', async () => {
    const preflight = await SELF.fetch(V2, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://reseller.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type,idempotency-key',
      },
    });
    expect(preflight.status).toBe(204);
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    expect(preflight.headers.get('access-control-allow-methods')).toBe('GET,POST');
    expect(preflight.headers.get('access-control-allow-headers')).toBe('content-type,idempotency-key');
    const answer = await SELF.fetch(V2, {
      method: 'POST',
      headers: { origin: 'https://reseller.example' },
      body: new URLSearchParams({ key: 'x', action: 'balance' }),
    });
    expect(answer.headers.get('access-control-allow-origin')).toBe('*');
    // The shop's own API stays same-origin.
    const v1 = await SELF.fetch('http://shop.test/api/v1/health', { headers: { origin: 'https://reseller.example' } });
    expect(v1.headers.get('access-control-allow-origin')).toBeNull();
  });

  it("stops a suspended user's keys at once and lets them work again on reactivation", async () => {
    const shop = await sharedShop();
    const { user, key } = await reseller(50_000n);
    expect((await v2({ key, action: 'balance' })).body.balance).toBe('500.00');
    expect((await call(`admin/users/${user.id}/suspend`, { method: 'POST', token: shop.admin.accessToken })).status).toBe(200);
    expect((await v2({ key, action: 'balance' })).body).toEqual({ error: 'Invalid API key' });
    expect((await v2({ key, action: 'add', service: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 100 })).body).toEqual({
      error: 'Invalid API key',
    });
    expect(await balanceKobo(user.id)).toBe(50_000n);
    expect((await call(`admin/users/${user.id}/reactivate`, { method: 'POST', token: shop.admin.accessToken })).status).toBe(200);
    expect((await v2({ key, action: 'balance' })).body.balance).toBe('500.00');
  });

  it('meters each key and kind of call, tells the tool where it stands, and refuses past the limit in words and headers tools understand', async () => {
    const { user, id, key } = await reseller(10_000n);
    const other = await newApiKey(user, 'Second tool');
    const limits = DEFAULT_RESELLER_API_SETTINGS.perMinute;
    const first = await v2({ key, action: 'balance' });
    expect(first.headers.get('x-ratelimit-limit')).toBe(String(limits.balance));
    expect(first.headers.get('x-ratelimit-remaining')).toBe(String(limits.balance - 1));
    const reset = Number(first.headers.get('x-ratelimit-reset'));
    expect(reset).toBeGreaterThanOrEqual(1);
    expect(reset).toBeLessThanOrEqual(60);
    expect((await v2({ key, action: 'balance' })).headers.get('x-ratelimit-remaining')).toBe(String(limits.balance - 2));
    // Each kind of call has its own meter: refill_status counts with status, refill and cancel with add.
    const read = await v2({ key, action: 'refill_status', refill: '1' });
    expect([read.headers.get('x-ratelimit-limit'), read.headers.get('x-ratelimit-remaining')]).toEqual([String(limits.status), String(limits.status - 1)]);
    const [counter] = await withDb((db) =>
      db
        .select()
        .from(rateLimits)
        .where(eq(rateLimits.key, meterKey(id, 'balance'))),
    );
    expect(counter.hits).toBe(2);

    // The rest of this minute's allowance, used up at once rather than by hundreds of calls.
    const spendAllowance = (metered: 'balance' | 'add') =>
      withDb((db) =>
        db
          .update(rateLimits)
          .set({ hits: limits[metered] })
          .where(eq(rateLimits.key, meterKey(id, metered))),
      );
    await spendAllowance('balance');
    // The words reseller tools retry on, as JSON, with the status and headers HTTP clients retry on.
    const limited = await v2({ key, action: 'balance' });
    expect(limited).toMatchObject({ status: 429, body: { error: 'Too many requests, please try again later' } });
    expect(RATE_LIMITED).toBe('Too many requests, please try again later');
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThanOrEqual(1);
    expect(limited.headers.get('retry-after')).toBe(limited.headers.get('x-ratelimit-reset'));
    expect((await v2({ key, action: 'status', order: '1' })).body).toEqual({ error: 'Incorrect order ID' });

    await v2({ key, action: 'cancel', orders: '1' });
    await spendAllowance('add');
    const limitedAdd = await v2(
      { key, action: 'add', service: (await sharedShop()).serviceIds[FAKE.igLikes], link: newLink(), quantity: 100 },
      { encoding: 'json' },
    );
    expect(limitedAdd).toMatchObject({ status: 429, body: { error: 'Too many requests, please try again later' } });
    expect(await balanceKobo(user.id)).toBe(10_000n);
    const otherKey = await v2({ key: other.key, action: 'balance' });
    expect(otherKey.body).toEqual({ balance: '100.00', currency: 'NGN' });
    expect(otherKey.headers.get('x-ratelimit-remaining')).toBe(String(limits.balance - 1));
    // A wrong key is refused before the meter, so it never fills the table.
    const wrong = await v2({ key: 'f'.repeat(64), action: 'balance' });
    expect(wrong.body).toEqual({ error: 'Invalid API key' });
    expect(wrong.headers.get('x-ratelimit-limit')).toBeNull();
  });
});

describe('writes over GET', () => {
  const apiKeysOf = async (user: TestAccount) => ({ live: (await call('user/api-keys', { token: user.accessToken })).body.data });

  it('places, cancels and refills over GET as many bots send them, and notes it on the key for its owner', async () => {
    const shop = await sharedShop();
    const funded = 10_000_000n;
    const { user, id, key } = await reseller(funded);
    const service = shop.serviceIds[FAKE.igFollowers];
    const other = await newApiKey(user, 'Posting tool');
    await v2({ key: other.key, action: 'add', service, link: newLink(), quantity: 1000 });
    expect((await apiKeysOf(user)).live.every((view: { last_get_write_at: string | null }) => view.last_get_write_at === null)).toBe(true);

    const placed = (await v2({ key, action: 'add', service, link: newLink(), quantity: 1000 }, { encoding: 'query' })).body.order as number;
    expect(placed).toEqual(expect.any(Number));
    const views = await apiKeysOf(user);
    expect(views.live.find((view: { id: number }) => view.id === id).last_get_write_at).toEqual(expect.any(String));
    expect(views.live.find((view: { id: number }) => view.id === other.id).last_get_write_at).toBeNull();
    await untilSubmitted(placed);
    await completeAtProvider(shop, placed);
    expect((await v2({ key, action: 'refill', order: placed }, { encoding: 'query' })).body).toEqual({ refill: expect.stringMatching(/^\d+$/) });
    const open = (await v2({ key, action: 'add', service, link: newLink(), quantity: 1000 }, { encoding: 'query' })).body.order as number;
    await untilSubmitted(open);
    expect((await v2({ key, action: 'cancel', orders: String(open) }, { encoding: 'query' })).body).toEqual([{ order: open, cancel: 1 }]);
    expect(await balanceKobo(user.id)).toBeLessThan(funded);
  });

  it('refuses writes over GET where the operator says so, noting the try, placing or asking for nothing', async () => {
    const shop = await sharedShop();
    const funded = 10_000_000n;
    const { user, id, key } = await reseller(funded);
    const service = shop.serviceIds[FAKE.igFollowers];
    const link = newLink();
    const saved = await call('admin/settings/reseller-api', {
      method: 'PUT',
      token: shop.admin.accessToken,
      body: { ...DEFAULT_RESELLER_API_SETTINGS, refuseWritesOverGet: true },
    });
    expect(saved).toMatchObject({ status: 200, body: { data: { refuseWritesOverGet: true } } });
    try {
      const refused = { status: 405, body: { error: 'This shop takes add, refill and cancel only with POST, with the key in the body' } };
      const add = await v2({ key, action: 'add', service, link, quantity: 1000 }, { encoding: 'query' });
      expect(add).toMatchObject(refused);
      expect(add.headers.get('allow')).toBe('POST');
      expect(await v2({ key, action: ' add ', service, link, quantity: 1000 }, { encoding: 'query' })).toMatchObject(refused);
      expect((await v2({ key: 'not-a-key', action: 'add', service, link, quantity: 1000 }, { encoding: 'query' })).body).toEqual({ error: 'Invalid API key' });
      expect(await withDb((db) => db.select().from(orders).where(eq(orders.userId, user.id)))).toEqual([]);
      expect(await balanceKobo(user.id)).toBe(funded);
      expect((await fakeOrders(shop.fake)).addCallsByLink[link]).toBeUndefined();
      expect((await apiKeysOf(user)).live.find((view: { id: number }) => view.id === id).last_get_write_at).toEqual(expect.any(String));

      const placed = (await v2({ key, action: 'add', service, link, quantity: 1000 })).body.order as number;
      await untilSubmitted(placed);
      expect(await v2({ key, action: 'cancel', orders: String(placed) }, { encoding: 'query' })).toMatchObject(refused);
      expect((await orderRow(placed)).cancelRequestedAt).toBeNull();
      // Reading still answers GET.
      expect((await v2({ key, action: 'status', order: placed }, { encoding: 'query' })).body).toMatchObject({ status: 'Pending' });
      await completeAtProvider(shop, placed);
      expect(await v2({ key, action: 'refill', order: placed }, { encoding: 'query' })).toMatchObject(refused);
      expect(await withDb((db) => db.select().from(orderRefills).where(eq(orderRefills.orderId, placed)))).toEqual([]);
      // The same refill posted is taken: only the method was refused.
      expect((await v2({ key, action: 'refill', order: placed })).body).toEqual({ refill: expect.stringMatching(/^\d+$/) });
    } finally {
      await call('admin/settings/reseller-api', { method: 'PUT', token: shop.admin.accessToken, body: DEFAULT_RESELLER_API_SETTINGS });
    }
  });

  it('lets only administrators set the limits and the GET rule, checking each figure', async () => {
    const shop = await sharedShop();
    const { user } = await reseller();
    expect((await call('admin/settings/reseller-api', { token: user.accessToken })).status).toBe(403);
    expect((await call('admin/settings/reseller-api', { token: shop.admin.accessToken })).body.data).toEqual(DEFAULT_RESELLER_API_SETTINGS);
    const bad = await call('admin/settings/reseller-api', {
      method: 'PUT',
      token: shop.admin.accessToken,
      body: { ...DEFAULT_RESELLER_API_SETTINGS, perMinute: { ...DEFAULT_RESELLER_API_SETTINGS.perMinute, add: 0 } },
    });
    expect(bad).toMatchObject({ status: 400, body: { message: 'add: at least 1 call per minute' } });
  });
});

describe('services and balance', () => {
  it('lists every service on sale with the rate per 1000 in naira text', async () => {
    const shop = await sharedShop();
    const { key } = await reseller();
    const answer = await v2({ key, action: 'services' });
    expect(Array.isArray(answer.body)).toBe(true);
    const followers = answer.body.find((entry: { service: number }) => entry.service === shop.serviceIds[FAKE.igFollowers]);
    expect(followers).toEqual({
      service: shop.serviceIds[FAKE.igFollowers],
      name: expect.stringContaining('Instagram Followers'),
      type: 'Default',
      category: 'Instagram Followers',
      rate: koboToNaira(await rateKoboOf(shop.serviceIds[FAKE.igFollowers])),
      min: '100',
      max: '100000',
      refill: true,
      cancel: true,
      dripfeed: false,
    });
    const types = new Set(
      answer.body.filter((entry: { service: number }) => Object.values(shop.serviceIds).includes(entry.service)).map((entry: { type: string }) => entry.type),
    );
    expect([...types].sort()).toEqual(['Custom Comments', 'Default', 'Mentions User Followers', 'Package', 'Poll', 'Subscriptions']);
    // A switched-off service is not offered.
    const disabled = shop.serviceIds[FAKE.tiktokViews];
    await withDb((db) => db.update(services).set({ enabled: false, disabledReason: 'admin' }).where(eq(services.id, disabled)));
    try {
      expect((await v2({ key, action: 'services' })).body.some((entry: { service: number }) => entry.service === disabled)).toBe(false);
    } finally {
      await withDb((db) => db.update(services).set({ enabled: true, disabledReason: null }).where(eq(services.id, disabled)));
    }
  });

  it('answers the balance exactly from kobo', async () => {
    expect((await v2({ key: (await reseller(1n)).key, action: 'balance' }, { encoding: 'query' })).body).toEqual({ balance: '0.01', currency: 'NGN' });
    expect((await v2({ key: (await reseller(123_456_789_01n)).key, action: 'balance' }, { encoding: 'json' })).body).toEqual({
      balance: '123456789.01',
      currency: 'NGN',
    });
  });
});

describe('add', () => {
  it.each(['form', 'multipart', 'json'] as const)('places a Default order from a %s request, charged like the SPA', async (encoding) => {
    const shop = await sharedShop();
    const { user, key } = await reseller(10_000_000n);
    const serviceId = shop.serviceIds[FAKE.igFollowers];
    const link = newLink();
    const answer = await v2({ key, action: 'add', service: serviceId, link, quantity: 1234 }, { encoding });
    expect(answer.body).toEqual({ order: expect.any(Number) });
    const charge = chargeOf(await rateKoboOf(serviceId), 1234);
    expect(await untilSubmitted(answer.body.order)).toMatchObject({
      userId: user.id,
      serviceId,
      link,
      quantity: 1234,
      chargeKobo: charge,
      submission: 'accepted',
      status: 'Pending',
    });
    expect(await balanceKobo(user.id)).toBe(10_000_000n - charge);
    expect((await fakeOrders(shop.fake)).addCallsByLink[link]).toBe(1);
  });

  it("takes every service type's fields under the protocol's names", async () => {
    const shop = await sharedShop();
    const { user, key } = await reseller();
    const add = async (fake: string, fields: Fields, encoding: Encoding = 'form') => {
      const answer = await v2({ key, action: 'add', service: shop.serviceIds[fake], ...fields }, { encoding });
      expect(answer.body, JSON.stringify(answer.body)).toEqual({ order: expect.any(Number) });
      return orderRow(answer.body.order);
    };
    // Drip-feed: runs × quantity, every `interval` minutes.
    expect(await add(FAKE.igLikes, { link: newLink(), quantity: 100, runs: 3, interval: 30 })).toMatchObject({
      quantity: 100,
      deliverable: 300,
      extras: { runs: 3, interval: 30 },
    });
    // Package: no quantity needed.
    expect(await add(FAKE.ytWatchTime, { link: newLink('youtube.com') })).toMatchObject({ quantity: 1, deliverable: 1 });
    // Custom Comments: one per line (a JSON list is taken too).
    expect(await add(FAKE.igComments, { link: newLink(), comments: 'Great!\nLove it\n\nWow\nNice\nCool' })).toMatchObject({ quantity: 5 });
    expect(await add(FAKE.igComments, { link: newLink(), comments: ['a', 'b', 'c', 'd', 'e', 'f'] }, 'json')).toMatchObject({
      quantity: 6,
      extras: { comments: 'a\nb\nc\nd\ne\nf' },
    });
    // Mentions (user followers): a username.
    expect(await add(FAKE.igMentionsFollowers, { link: newLink(), quantity: 1000, username: 'brand' })).toMatchObject({
      extras: { username: 'brand', quantity: 1000 },
    });
    // Poll: answer_number.
    expect(await add(FAKE.xPoll, { link: newLink('x.com'), quantity: 100, answer_number: 2 })).toMatchObject({ extras: { answerNumber: 2 } });
    // Subscriptions: username, min, max, posts, old_posts, delay, expiry; paid for max × (posts + old_posts).
    const subscription = await add(FAKE.igAutoLikes, { username: 'brand', min: 100, max: 200, posts: 5, old_posts: 2, delay: 30, expiry: '31/12/2030' });
    expect(subscription).toMatchObject({
      link: '@brand',
      quantity: 200,
      deliverable: 1400,
      extras: { username: 'brand', min: 100, max: 200, posts: 5, oldPosts: 2, delay: 30, expiry: '31/12/2030' },
    });
    expect(subscription.chargeKobo).toBe(chargeOf(await rateKoboOf(shop.serviceIds[FAKE.igAutoLikes]), 1400));
    // Blank fields, as PHP clients send them, count as absent.
    expect(await add(FAKE.igLikes, { link: newLink(), quantity: 100, runs: '', interval: '', comments: '', username: '' })).toMatchObject({
      extras: { quantity: 100 },
    });
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order')).toHaveLength(8);
  });

  it("passes the Mentions fields (usernames, hashtags, hashtag, media) and Comment Likes' username through", async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes, '1052', '1061', '1063', '1064'] });
    const { key } = await reseller();
    const add = async (service: string, fields: Fields) => {
      const answer = await v2({ key, action: 'add', service: shop.serviceIds[service], link: newLink(), ...fields });
      expect(answer.body, JSON.stringify(answer.body)).toEqual({ order: expect.any(Number) });
      return (await orderRow(answer.body.order)).extras;
    };
    expect(await add('1052', { quantity: 20, username: 'commenter' })).toMatchObject({ username: 'commenter' }); // Comment Likes
    expect(await add('1061', { usernames: 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj' })).toMatchObject({ usernames: 'a\nb\nc\nd\ne\nf\ng\nh\ni\nj' }); // Mentions Custom List
    expect(await add('1063', { quantity: 1000, media: 'https://instagram.com/p/media' })).toMatchObject({ media: 'https://instagram.com/p/media' }); // Mentions Media Likers
    expect(await add('1064', { quantity: 100, usernames: 'a\nb', hashtags: '#one\n#two' })).toMatchObject({ usernames: 'a\nb', hashtags: '#one\n#two' }); // Mentions with Hashtags
    // The fake panel has no Mentions Hashtag service; the shop's own copy of one is enough to see `hashtag` arrive.
    await withDb((db) => db.update(services).set({ type: 'Mentions Hashtag' }).where(eq(services.id, shop.serviceIds[FAKE.igLikes])));
    expect((await v2({ key, action: 'add', service: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 100 })).body).toEqual({
      error: 'Hashtag is required',
    });
    expect(await add(FAKE.igLikes, { quantity: 100, hashtag: '#summer' })).toMatchObject({ hashtag: '#summer' });
  });

  it("refuses bad orders in the protocol's words and charges nothing", async () => {
    const shop = await sharedShop();
    const { user, key } = await reseller(1_000n);
    const followers = shop.serviceIds[FAKE.igFollowers];
    const refused = async (fields: Fields, error: string, encoding: Encoding = 'form') =>
      expect((await v2({ key, action: 'add', ...fields }, { encoding })).body).toEqual({ error });
    await refused({ link: newLink(), quantity: 100 }, 'Incorrect service ID');
    await refused({ service: 99_999_999, link: newLink(), quantity: 100 }, 'Incorrect service ID');
    await refused({ service: 'abc', link: newLink(), quantity: 100 }, 'Incorrect service ID');
    await refused({ service: followers, link: newLink(), quantity: 99 }, 'Quantity less than minimal 100');
    await refused({ service: followers, link: newLink(), quantity: 100_001 }, 'Quantity more than maximal 100000', 'json');
    await refused({ service: followers, link: newLink() }, 'Incorrect quantity');
    await refused({ service: followers, link: newLink(), quantity: '1e3' }, 'Incorrect quantity', 'multipart');
    await refused({ service: followers, link: newLink(), quantity: 0 }, 'Incorrect quantity');
    await refused({ service: followers, quantity: 100 }, 'Incorrect link');
    await refused({ service: followers, link: 'not a link', quantity: 100 }, 'Incorrect link');
    await refused({ service: followers, link: 'https://tiktok.com/@someone', quantity: 100 }, 'This service needs an Instagram username or profile link');
    await refused({ service: followers, link: newLink(), quantity: 100, runs: 3, interval: 10 }, 'Drip-feed is not available for this service');
    await refused({ service: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 100, runs: 'x', interval: 10 }, 'Incorrect runs');
    await refused({ service: shop.serviceIds[FAKE.igComments], link: newLink() }, 'Comments is required');
    await refused({ service: shop.serviceIds[FAKE.igComments], link: newLink(), comments: 'one\ntwo' }, 'Quantity less than minimal 5');
    await refused({ service: shop.serviceIds[FAKE.xPoll], link: newLink('x.com'), quantity: 100, answer_number: 'two' }, 'Incorrect answer number');
    await refused(
      { service: shop.serviceIds[FAKE.igAutoLikes], username: 'brand', min: 100, max: 200, posts: 5, delay: 7 },
      'delay must be one of 0, 5, 10, 15, 30, 60, 90, 120, 150, 180, 210, 240, 270, 300, 360, 420, 480, 540, 600 minutes',
    );
    await refused({ service: followers, link: `https://instagram.com/p/${'x'.repeat(2100)}`, quantity: 100 }, 'Link must be at most 2048 characters');
    await refused({ service: followers, link: 'https://instagram.com/p/a\u0000b', quantity: 100 }, 'link: Text must not contain NUL characters.', 'json');
    await refused({ service: followers, link: newLink(), quantity: 1000 }, 'Not enough funds on balance');
    const longKey = await v2({ key, action: 'add', service: followers, link: newLink(), quantity: 100 }, { headers: { 'idempotency-key': 'k'.repeat(201) } });
    expect(longKey.body).toEqual({ error: 'Idempotency-Key must be at most 200 characters' });
    expect(await withDb((db) => db.select().from(orders).where(eq(orders.userId, user.id)))).toEqual([]);
    expect(await balanceKobo(user.id)).toBe(1_000n);
  });

  it('places one order for one Idempotency-Key, however often a timed-out tool retries', async () => {
    const shop = await sharedShop();
    const { user, key } = await reseller(10_000_000n);
    const fields = { key, action: 'add', service: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 500 };
    const retries = await Promise.all(Array.from({ length: 5 }, () => v2(fields, { headers: { 'idempotency-key': 'retry-1' } })));
    const ids = new Set(retries.map((answer) => answer.body.order));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(Number));
    expect((await v2({ ...fields, link: newLink() }, { headers: { 'idempotency-key': 'retry-1' } })).body).toEqual({
      error: 'This Idempotency-Key was already used for an order with different details. Use a new key for a new order.',
    });
    // Without a key, the same order twice is two orders: nothing is derived from the fields.
    const first = await v2(fields);
    const second = await v2(fields);
    expect(first.body.order).not.toBe(second.body.order);
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order')).toHaveLength(3);
  });

  it('places one order for one request_id, sent again in parallel in any encoding, and charges it once', async () => {
    const shop = await sharedShop();
    const { user, key } = await reseller(10_000_000n);
    const fields = { key, action: 'add', service: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 500, request_id: `req-${newLink().slice(-8)}` };
    const retries = await Promise.all((['form', 'json', 'multipart', 'query', 'form', 'json'] as const).map((encoding) => v2(fields, { encoding })));
    const ids = new Set(retries.map((answer) => answer.body.order));
    expect(ids.size).toBe(1);
    expect([...ids][0]).toEqual(expect.any(Number));
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order')).toHaveLength(1);
    expect((await v2({ ...fields, quantity: 600 })).body).toEqual({
      error: 'This request_id was already used for an order with different details. Use a new request_id for a new order.',
    });
    // The header wins over the field when a tool sends both.
    const withHeader = await v2({ ...fields, quantity: 600 }, { headers: { 'idempotency-key': `${fields.request_id}-header` } });
    expect(withHeader.body.order).toEqual(expect.any(Number));
    expect(withHeader.body.order).not.toBe([...ids][0]);
    expect((await v2({ ...fields, request_id: 'r'.repeat(201) })).body).toEqual({ error: 'request_id must be at most 200 characters' });
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order')).toHaveLength(2);
  });

  it('places exactly as many of 30 concurrent orders as the balance covers, never going below zero', async () => {
    const shop = await sharedShop();
    const serviceId = shop.serviceIds[FAKE.igLikes];
    const charge = chargeOf(await rateKoboOf(serviceId), 1000);
    const { user, key } = await reseller(charge * 7n + charge / 2n);
    const answers = await Promise.all(
      Array.from({ length: 30 }, (_, i) =>
        v2({ key, action: 'add', service: serviceId, link: newLink(), quantity: 1000 }, { encoding: (['form', 'json', 'multipart'] as const)[i % 3] }),
      ),
    );
    const placed = answers.filter((answer) => 'order' in answer.body);
    expect(placed).toHaveLength(7);
    for (const answer of answers.filter((a) => !('order' in a.body))) expect(answer.body).toEqual({ error: 'Not enough funds on balance' });
    expect(await balanceKobo(user.id)).toBe(charge / 2n);
    const ledger = await ledgerFor(user.id);
    expect(ledger.filter((entry) => entry.sourceKind === 'order')).toHaveLength(7);
    expect(ledger.every((entry) => entry.balanceAfterKobo >= 0n)).toBe(true);
    expect((await v2({ key, action: 'balance' })).body.balance).toBe(koboToNaira(charge / 2n));
  });
});

describe('status', () => {
  it("answers one order or up to 100, keyed by id, with another user's ids refused", async () => {
    const shop = await sharedShop();
    const { user, key } = await reseller();
    const serviceId = shop.serviceIds[FAKE.igFollowers];
    const mine = (await v2({ key, action: 'add', service: serviceId, link: newLink(), quantity: 1000 })).body.order as number;
    const charge = koboToNaira(chargeOf(await rateKoboOf(serviceId), 1000));
    const stranger = await reseller();
    const theirs = (await v2({ key: stranger.key, action: 'add', service: serviceId, link: newLink(), quantity: 1000 })).body.order as number;
    await untilSubmitted(mine);

    const pending = { charge, start_count: '0', status: 'Pending', remains: '1000', currency: 'NGN' };
    for (const encoding of ['form', 'multipart', 'json', 'query'] as const) {
      expect((await v2({ key, action: 'status', order: mine }, { encoding })).body).toEqual(pending);
    }
    expect((await v2({ key, action: 'status', order: theirs })).body).toEqual({ error: 'Incorrect order ID' });
    expect((await v2({ key, action: 'status', order: 'abc' })).body).toEqual({ error: 'Incorrect order ID' });
    expect((await v2({ key, action: 'status', order: '99999999999' })).body).toEqual({ error: 'Incorrect order ID' });
    expect((await v2({ key, action: 'status' })).body).toEqual({ error: 'Incorrect order ID' });

    const many = await v2({ key, action: 'status', orders: `${theirs}, ${mine},abc,${theirs}` });
    expect(many.body).toEqual({ [mine]: pending, [theirs]: { error: 'Incorrect order ID' }, abc: { error: 'Incorrect order ID' } });
    // In the order asked (a JavaScript object would have put the smaller id first), each id once.
    expect([...many.text.matchAll(/"([^"]+)":\{"(?:charge|error)"/g)].map((match) => match[1])).toEqual([String(theirs), String(mine), 'abc']);
    expect(theirs).toBeGreaterThan(mine);
    expect((await v2({ key, action: 'status', orders: Array.from({ length: 101 }, (_, i) => i + 1).join(',') })).body).toEqual({
      error: 'Maximum 100 IDs per request',
    });
    expect(
      Object.keys((await v2({ key, action: 'status', orders: [mine, ...Array.from({ length: 99 }, (_, i) => 2_000_000_000 + i)].join(',') })).body),
    ).toHaveLength(100);

    // Finished: the charge is what was kept, the words are the protocol's.
    const { providerOrderId } = await orderRow(mine);
    await shop.fake.post(`/__orders/${providerOrderId}`, { status: 'Partial', remains: 250, start_count: 4000 });
    await withDb((db) => syncOrders(db, env));
    const partial = (await v2({ key, action: 'status', order: mine })).body;
    const row = await orderRow(mine);
    expect(partial).toEqual({
      charge: koboToNaira(row.chargeKobo - row.refundedKobo),
      start_count: '4000',
      status: 'Partial',
      remains: '250',
      currency: 'NGN',
    });
    expect(row.refundedKobo).toBeGreaterThan(0n);
    expect(await balanceKobo(user.id)).toBe(100_000_000n - row.chargeKobo + row.refundedKobo);
  });

  it('shows an order not yet at the provider as Pending, the protocol word, and a canceled one as charging nothing', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    await shop.fake.post('/__control', { mode: 'no_balance' });
    const { key } = await reseller();
    const held = (await v2({ key, action: 'add', service: shop.serviceIds[FAKE.igLikes], link: newLink(), quantity: 1000 })).body.order;
    // Once the queue's attempt is over: a cancel while `add` is in flight is rightly refused.
    expect(await untilSubmitted(held)).toMatchObject({ status: 'Pending Submission', submission: 'queued' });
    expect((await v2({ key, action: 'status', order: held })).body).toMatchObject({ status: 'Pending', remains: '1000' });
    expect((await v2({ key, action: 'status', orders: String(held) })).body).toMatchObject({ [held]: { status: 'Pending' } });
    expect((await v2({ key, action: 'cancel', orders: String(held) })).body).toEqual([{ order: held, cancel: 1 }]);
    expect((await v2({ key, action: 'status', order: held })).body).toEqual({
      charge: '0.00',
      start_count: '0',
      status: 'Canceled',
      remains: '1000',
      currency: 'NGN',
    });
  });
});

describe('refill and refill_status', () => {
  it('requests refills of finished orders, one or many, and reports them', async () => {
    const shop = await sharedShop();
    const { key } = await reseller();
    const add = async (fake: string) =>
      (await v2({ key, action: 'add', service: shop.serviceIds[fake], link: newLink(), quantity: 1000 })).body.order as number;
    const [done, doneToo, open, noRefill] = [
      await add(FAKE.igFollowers),
      await add(FAKE.igFollowers),
      await add(FAKE.igFollowers),
      await add(FAKE.igFollowersNoRefill),
    ];
    await completeAtProvider(shop, done);
    await completeAtProvider(shop, doneToo);
    await completeAtProvider(shop, noRefill);
    const stranger = await reseller();

    expect((await v2({ key, action: 'refill', order: open })).body).toEqual({ error: 'Only completed or partial orders can be refilled' });
    expect((await v2({ key: stranger.key, action: 'refill', order: done })).body).toEqual({ error: 'Incorrect order ID' });
    expect((await v2({ key, action: 'refill' })).body).toEqual({ error: 'Incorrect order ID' });
    const single = await v2({ key, action: 'refill', order: done }, { encoding: 'json' });
    expect(single.body).toEqual({ refill: expect.stringMatching(/^\d+$/) });
    expect((await v2({ key, action: 'refill', order: done })).body).toEqual({ error: 'A refill is already in progress for this order' });

    const batch = await v2({ key, action: 'refill', orders: `${doneToo},${open},${noRefill},x` }, { encoding: 'multipart' });
    expect(batch.body).toEqual([
      { order: doneToo, refill: expect.any(Number) },
      { order: open, refill: { error: 'Only completed or partial orders can be refilled' } },
      { order: noRefill, refill: { error: 'Refill is not available for this service' } },
      { order: 'x', refill: { error: 'Incorrect order ID' } },
    ]);

    const refillId = single.body.refill;
    expect((await v2({ key, action: 'refill_status', refill: refillId })).body).toEqual({ status: 'Pending' });
    expect((await v2({ key: stranger.key, action: 'refill_status', refill: refillId })).body).toEqual({ error: 'Incorrect refill ID' });
    expect((await v2({ key, action: 'refill_status', refill: 'abc' })).body).toEqual({ error: 'Incorrect refill ID' });
    expect((await v2({ key, action: 'refill_status' })).body).toEqual({ error: 'Incorrect refill ID' });
    const statuses = await v2({ key, action: 'refill_status', refills: `${refillId},${batch.body[0].refill},999999999` }, { encoding: 'query' });
    expect(statuses.body).toEqual([
      { refill: Number(refillId), status: 'Pending' },
      { refill: batch.body[0].refill, status: 'Pending' },
      { refill: 999999999, status: { error: 'Refill not found' } },
    ]);
    // A refill still being sent to the provider is Pending to the reseller.
    await withDb((db) =>
      db
        .update(orderRefills)
        .set({ status: 'Requesting' })
        .where(eq(orderRefills.id, Number(refillId))),
    );
    expect((await v2({ key, action: 'refill_status', refill: refillId })).body).toEqual({ status: 'Pending' });
  });
});

describe('cancel', () => {
  it('asks to cancel many orders, each answered with 1 or its error', async () => {
    const shop = await sharedShop();
    const { user, key } = await reseller();
    const add = async (fake: string) =>
      (await v2({ key, action: 'add', service: shop.serviceIds[fake], link: newLink(), quantity: 1000 })).body.order as number;
    const cancelable = await add(FAKE.igFollowers);
    const notCancelable = await add(FAKE.igLikes);
    const stranger = await reseller();
    const theirs = (await v2({ key: stranger.key, action: 'add', service: shop.serviceIds[FAKE.igFollowers], link: newLink(), quantity: 1000 })).body.order;
    // At the provider, where whether the service allows a cancel decides; a queued order can always be canceled.
    await Promise.all([cancelable, notCancelable, theirs].map((id) => untilSubmitted(id)));

    const answer = await v2({ key, action: 'cancel', orders: `${cancelable},${notCancelable},${theirs},nope` }, { encoding: 'json' });
    expect(answer.body).toEqual([
      { order: cancelable, cancel: 1 },
      { order: notCancelable, cancel: { error: 'This order cannot be canceled' } },
      { order: theirs, cancel: { error: 'Incorrect order ID' } },
      { order: 'nope', cancel: { error: 'Incorrect order ID' } },
    ]);
    expect((await v2({ key, action: 'cancel', orders: String(cancelable) })).body).toEqual([
      { order: cancelable, cancel: { error: 'This order cannot be canceled' } },
    ]);
    expect((await v2({ key, action: 'cancel' })).body).toEqual({ error: 'Incorrect request' });
    expect((await v2({ key, action: 'cancel', orders: ',,' })).body).toEqual({ error: 'Incorrect request' });
    expect((await orderRow(theirs)).cancelRequestedAt).toBeNull();

    // The provider cancels; the sync refunds the whole charge, once.
    await withDb((db) => syncOrders(db, env));
    const row = await orderRow(cancelable);
    expect(row).toMatchObject({ status: 'Canceled', refundedKobo: row.chargeKobo });
    const refunds = (await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order_refund');
    expect(refunds.map((entry) => [entry.sourceRef, entry.amountKobo])).toEqual([[String(cancelable), row.chargeKobo]]);
    expect((await v2({ key, action: 'status', order: cancelable })).body).toMatchObject({ status: 'Canceled', charge: '0.00' });
  });
});

describe('the shop as a provider of another shop', () => {
  it("works with our own upstream client, pointed at this shop with a second account's key", async () => {
    const shop = await sharedShop();
    const funded = 50_000_000n;
    const { user, key } = await reseller(funded);
    const client = createSmmClient({ apiUrl: V2, apiKey: key, timeoutMs: 20_000, fetchImpl: (input, init) => SELF.fetch(input as string, init) });
    const micros = (kobo: bigint) => kobo * 10_000n;

    const catalogue = await client.services();
    expect(catalogue.unreadable).toEqual([]);
    const followersId = String(shop.serviceIds[FAKE.igFollowers]);
    const followersRate = await rateKoboOf(shop.serviceIds[FAKE.igFollowers]);
    expect(catalogue.services.find((service) => service.id === followersId)).toEqual({
      id: followersId,
      name: expect.any(String),
      type: 'Default',
      category: 'Instagram Followers',
      ratePer1000Micros: micros(followersRate),
      min: 100,
      max: 100_000,
      refill: true,
      cancel: true,
      dripfeed: false,
    });
    expect(await client.balance()).toEqual({ balanceMicros: micros(funded), currency: 'NGN' });

    // add, in the types the client knows (lists are sent one item per line).
    const { orderId } = await client.add({ service: followersId, link: newLink(), quantity: 1000 });
    const comments = await client.add({
      service: String(shop.serviceIds[FAKE.igComments]),
      link: newLink(),
      comments: ['one', 'two', 'three', 'four', 'five'],
    });
    const subscription = await client.add({ service: String(shop.serviceIds[FAKE.igAutoLikes]), username: 'brand', min: 100, max: 200, posts: 2, delay: 0 });
    const poll = await client.add({ service: String(shop.serviceIds[FAKE.xPoll]), link: newLink('x.com'), quantity: 100, answerNumber: 1 });
    const charge = chargeOf(followersRate, 1000);
    expect((await orderRow(Number(comments.orderId))).quantity).toBe(5);
    expect((await orderRow(Number(subscription.orderId))).deliverable).toBe(400);
    expect((await orderRow(Number(poll.orderId))).extras).toMatchObject({ answerNumber: 1 });
    const refusal = await client.add({ service: followersId, link: newLink(), quantity: 10 }).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(SmmProviderError);
    expect(refusal).toMatchObject({ kind: 'rejected', message: 'Quantity less than minimal 100' });

    expect(await client.status(orderId)).toEqual({ chargeMicros: micros(charge), startCount: 0, status: 'Pending', remains: 1000, currency: 'NGN' });
    // An id that is not this account's (on a fresh database, '1' could be its own first order).
    const notTheirs = '2000000000';
    const statuses = await client.statuses([orderId, comments.orderId, notTheirs]);
    expect(statuses.get(orderId)).toMatchObject({ ok: true, status: 'Pending' });
    expect(statuses.get(comments.orderId)).toMatchObject({ ok: true, status: 'Pending', remains: 5 });
    expect(statuses.get(notTheirs)).toEqual({ ok: false, error: 'Incorrect order ID' });
    const spent = (await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order').reduce((sum, entry) => sum + entry.amountKobo, 0n);
    expect(await client.balance()).toEqual({ balanceMicros: micros(funded - spent), currency: 'NGN' });

    // refill once delivered, and its status.
    await completeAtProvider(shop, Number(orderId));
    expect(await client.status(orderId)).toMatchObject({ status: 'Completed', remains: 0 });
    const { refillId } = await client.refill(orderId);
    expect(await client.refillStatus(refillId)).toBe('Pending');
    const refills = await client.refills([orderId]);
    expect(refills.get(orderId)).toEqual({ ok: false, error: 'A refill is already in progress for this order' });
    expect((await client.refillStatuses([refillId])).get(refillId)).toEqual({ ok: true, status: 'Pending' });

    // cancel: asked, then seen canceled with the whole charge back.
    const { orderId: toCancel } = await client.add({ service: followersId, link: newLink(), quantity: 500 });
    // At the provider first, so the cancel is asked of it (one still queued would be refunded at once, see queued-cancel.test.ts).
    await untilSubmitted(Number(toCancel));
    const canceled = await client.cancel([toCancel, orderId]);
    expect(canceled.get(toCancel)).toEqual({ ok: true });
    expect(canceled.get(orderId)).toEqual({ ok: false, error: 'This order cannot be canceled' });
    await withDb((db) => syncOrders(db, env));
    expect(await client.status(toCancel)).toMatchObject({ status: 'Canceled', chargeMicros: 0n });
    const refunded = await withDb((db) =>
      db
        .select()
        .from(orders)
        .where(and(eq(orders.userId, user.id), eq(orders.id, Number(toCancel)))),
    );
    expect(refunded[0].refundedKobo).toBe(refunded[0].chargeKobo);
  });
});
