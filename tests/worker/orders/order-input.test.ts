// Orders as reseller tools and people send them, through the SPA API (/api/v1) and the reseller
// API (/api/v2): usernames for services sold by username, whole quantities written as decimals,
// an Idempotency-Key reused for a different order, and package orders asking the provider for
// exactly what was charged.
import { SELF } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { orders } from '../../../drizzle/schema';
import { ceilDiv } from '../../../worker/lib/decimal';
import { call, type TestAccount, unique, withDb } from '../../support/api';
import { fakeOrders, newLink, orderRow, placeOrder, untilSubmitted } from '../fixtures/order-fixtures';
import { FAKE, newShop, rateKoboOf, type Shop } from '../fixtures/shop-fixtures';
import { balanceKobo, fundedUser, ledgerFor } from '../fixtures/wallet-fixtures';

const TIKTOK_FOLLOWERS = '2011';
const TELEGRAM_MEMBERS = '6011';
const FACEBOOK_PAGE_LIKES = '5011';
const SPOTIFY_ARTIST_FOLLOWERS = '7021';
const SPOTIFY_PLAYS = '7011';
const USERNAME_INVALID = 'Please enter a username, e.g. @name, or a link to the profile';
const LINK_INVALID = 'Please enter a valid link, e.g. https://instagram.com/p/abc';
const KEY_REUSED = 'This Idempotency-Key was already used for an order with different details. Use a new key for a new order.';

/** One /api/v2 call, form-encoded or with a raw JSON body (to send numbers like 100.0 as written). */
async function v2(fields: Record<string, string | number> | string, headers: Record<string, string> = {}) {
  const body = typeof fields === 'string' ? fields : new URLSearchParams(Object.entries(fields).map(([name, value]) => [name, String(value)]));
  const response = await SELF.fetch('http://shop.test/api/v2', {
    method: 'POST',
    body,
    headers: { ...(typeof fields === 'string' && { 'content-type': 'application/json' }), ...headers },
  });
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
}

async function resellerKey(user: TestAccount): Promise<string> {
  const created = await call('user/api-keys', { token: user.accessToken, body: { name: 'tool' } });
  expect(created.status).toBe(201);
  return created.body.data.key;
}

/** A name no other test uses, as a reseller would type it. */
const handle = () =>
  unique('acct')
    .replace(/[^a-z0-9_]/gi, '_')
    .slice(0, 30);

let shared: Shop | undefined;
const sharedShop = async () =>
  (shared ??= await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes, FAKE.ytWatchTime, TIKTOK_FOLLOWERS, TELEGRAM_MEMBERS] }));

/** A reseller with a full wallet and an API key, buying from the shop these tests share. */
async function resellerOnSharedShop() {
  const shop = await sharedShop();
  const user = await fundedUser(100_000_000n);
  return { shop, user, key: await resellerKey(user) };
}

describe('links for services sold by username', () => {
  it('takes @name, name and the profile link for follower and member services, from the SPA API and the reseller API', async () => {
    const { shop, user, key } = await resellerOnSharedShop();
    const followers = shop.serviceIds[FAKE.igFollowers];

    const name = handle();
    const withAt = await placeOrder(user, { serviceId: followers, link: `@${name}`, quantity: 100 });
    expect(withAt.status, JSON.stringify(withAt.body)).toBe(201);
    // Stored and sent as the profile link, which every provider takes for a follower service.
    expect(withAt.body.data.link).toBe(`https://www.instagram.com/${name}`);
    const other = handle();
    const bare = await placeOrder(user, { serviceId: followers, link: ` ${other} `, quantity: 100 });
    expect(bare.body.data.link).toBe(`https://www.instagram.com/${other}`);
    const profile = await placeOrder(user, { serviceId: followers, link: `instagram.com/${handle()}`, quantity: 100 });
    expect(profile.status).toBe(201);

    const fromTool = handle();
    const added = await v2({ key, action: 'add', service: followers, link: `@${fromTool}`, quantity: 100 });
    expect(added.body).toEqual({ order: expect.any(Number) });
    expect(await orderRow(added.body.order as number)).toMatchObject({
      link: `https://www.instagram.com/${fromTool}`,
      extras: { link: `https://www.instagram.com/${fromTool}`, quantity: 100 },
    });
    const bareFromTool = handle();
    const addedBare = await v2({ key, action: 'add', service: followers, link: bareFromTool, quantity: 100 });
    expect((await orderRow(addedBare.body.order as number)).link).toBe(`https://www.instagram.com/${bareFromTool}`);

    // Each platform's own profile address.
    const tiktok = handle();
    expect((await placeOrder(user, { serviceId: shop.serviceIds[TIKTOK_FOLLOWERS], link: `@${tiktok}`, quantity: 100 })).body.data.link).toBe(
      `https://www.tiktok.com/@${tiktok}`,
    );
    const channel = handle();
    const telegram = await v2({ key, action: 'add', service: shop.serviceIds[TELEGRAM_MEMBERS], link: `@${channel}`, quantity: 100 });
    expect((await orderRow(telegram.body.order as number)).link).toBe(`https://t.me/${channel}`);

    // The provider was asked once for each, with the profile link.
    await untilSubmitted(withAt.body.data.id);
    await untilSubmitted(added.body.order as number);
    const fake = await fakeOrders(shop.fake);
    expect(fake.addCallsByLink[`https://www.instagram.com/${name}`]).toBe(1);
    expect(fake.addCallsByLink[`https://www.instagram.com/${fromTool}`]).toBe(1);

    // What is no username nor link is refused with words that say what is wanted.
    expect(await placeOrder(user, { serviceId: followers, link: 'two words', quantity: 100 })).toMatchObject({
      status: 400,
      body: { message: USERNAME_INVALID },
    });
    expect(await placeOrder(user, { serviceId: followers, link: '@', quantity: 100 })).toMatchObject({ status: 400, body: { message: USERNAME_INVALID } });
    expect((await v2({ key, action: 'add', service: followers, link: 'two words', quantity: 100 })).body).toEqual({ error: 'Incorrect link' });
    expect((await placeOrder(user, { serviceId: followers, link: 'https://tiktok.com/@someone', quantity: 100 })).body.message).toBe(
      'This service needs an Instagram username or profile link',
    );
  });

  it("takes handles on every account's service and apps' own addresses, as resellers send them", async () => {
    const shop = await newShop({ serviceIds: [FACEBOOK_PAGE_LIKES, SPOTIFY_ARTIST_FOLLOWERS, SPOTIFY_PLAYS] });
    const user = await fundedUser(100_000_000n);
    const key = await resellerKey(user);
    // A page's likes grow the page: its handle becomes the page's address.
    const page = handle();
    const pageLikes = await v2({ key, action: 'add', service: shop.serviceIds[FACEBOOK_PAGE_LIKES], link: `@${page}`, quantity: 100 });
    expect((await orderRow(pageLikes.body.order as number)).link).toBe(`https://www.facebook.com/${page}`);
    // A Spotify artist has no address made from a handle: it is sent as the reseller typed it.
    const artist = handle();
    const followers = await placeOrder(user, { serviceId: shop.serviceIds[SPOTIFY_ARTIST_FOLLOWERS], link: `@${artist}`, quantity: 100 });
    expect(followers.body.data.link).toBe(`@${artist}`);
    // Spotify's own addresses, for an artist or a track, become the web links the provider opens.
    const uri = await v2({
      key,
      action: 'add',
      service: shop.serviceIds[SPOTIFY_ARTIST_FOLLOWERS],
      link: 'spotify:artist:4Z8W4fKeB5YxbusRsdQVPb',
      quantity: 100,
    });
    expect((await orderRow(uri.body.order as number)).link).toBe('https://open.spotify.com/artist/4Z8W4fKeB5YxbusRsdQVPb');
    const track = await placeOrder(user, { serviceId: shop.serviceIds[SPOTIFY_PLAYS], link: 'spotify:track:11dFghVXANMlKmJXsNCbNl', quantity: 1000 });
    expect(track.body.data.link).toBe('https://open.spotify.com/track/11dFghVXANMlKmJXsNCbNl');
    // Plays are a track's: a handle is still no link there.
    expect(await placeOrder(user, { serviceId: shop.serviceIds[SPOTIFY_PLAYS], link: '@someone', quantity: 1000 })).toMatchObject({
      status: 400,
      body: { message: LINK_INVALID },
    });
    await untilSubmitted(pageLikes.body.order as number);
    expect((await fakeOrders(shop.fake)).addCallsByLink[`https://www.facebook.com/${page}`]).toBe(1);
  });

  it('still wants a link for services on a post, and lets administrators decide per service', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes] });
    const user = await fundedUser(100_000_000n);
    const key = await resellerKey(user);
    const likes = shop.serviceIds[FAKE.igLikes];
    const followers = shop.serviceIds[FAKE.igFollowers];

    expect(await placeOrder(user, { serviceId: likes, link: 'someone', quantity: 100 })).toMatchObject({ status: 400, body: { message: LINK_INVALID } });
    expect(await placeOrder(user, { serviceId: likes, link: '@someone', quantity: 100 })).toMatchObject({ status: 400, body: { message: LINK_INVALID } });
    expect((await v2({ key, action: 'add', service: likes, link: 'someone', quantity: 100 })).body).toEqual({ error: 'Incorrect link' });

    // The catalogue tells the order form which to ask for.
    const listed = async (id: number) => {
      const page = await call(`services?search=${id}`);
      return (page.body.data as Array<{ id: number; linkKind: string }>).find((service) => service.id === id)!;
    };
    expect(await listed(followers)).toMatchObject({ linkKind: 'username' });
    expect(await listed(likes)).toMatchObject({ linkKind: 'url' });

    const token = shop.admin.accessToken;
    const asUrl = await call(`admin/services/${followers}`, { method: 'PUT', token, body: { linkKind: 'url' } });
    expect(asUrl.body.data).toMatchObject({ linkKind: 'url', linkKindOverride: 'url' });
    expect((await placeOrder(user, { serviceId: followers, link: '@someone', quantity: 100 })).body.message).toBe(LINK_INVALID);
    await call(`admin/services/${likes}`, { method: 'PUT', token, body: { linkKind: 'username' } });
    const name = handle();
    expect((await placeOrder(user, { serviceId: likes, link: name, quantity: 100 })).body.data.link).toBe(`https://www.instagram.com/${name}`);
    const automatic = await call(`admin/services/${followers}`, { method: 'PUT', token, body: { linkKind: null } });
    expect(automatic.body.data).toMatchObject({ linkKind: 'username', linkKindOverride: null });
    expect((await call(`admin/services/${followers}`, { method: 'PUT', token, body: { linkKind: 'handle' } })).body.message).toBe(
      'linkKind must be url or username',
    );
  });
});

describe('quantities written as decimals', () => {
  it('places an order for 100 from 100.0, "100.00" and "100.0" in both APIs and in a mass order, and refuses 100.5', async () => {
    const { shop, user, key } = await resellerOnSharedShop();
    const likes = shop.serviceIds[FAKE.igLikes];
    const charge = ceilDiv((await rateKoboOf(likes)) * 100n, 1000n);

    const rawJson = await call('user/orders', { token: user.accessToken, body: `{"serviceId": ${likes}, "link": "${newLink()}", "quantity": 100.0}` });
    expect(rawJson.status, JSON.stringify(rawJson.body)).toBe(201);
    expect(rawJson.body.data.quantity).toBe(100);
    expect((await placeOrder(user, { serviceId: likes, link: newLink(), quantity: '100.00' })).body.data).toMatchObject({ quantity: 100 });
    expect(await placeOrder(user, { serviceId: likes, link: newLink(), quantity: 100.5 })).toMatchObject({
      status: 400,
      body: { message: 'Please enter a valid quantity' },
    });
    expect(await placeOrder(user, { serviceId: likes, link: newLink(), quantity: '100.5' })).toMatchObject({
      status: 400,
      body: { message: 'Please enter a valid quantity' },
    });

    const form = await v2({ key, action: 'add', service: likes, link: newLink(), quantity: '100.0' });
    expect(form.body).toEqual({ order: expect.any(Number) });
    expect(await orderRow(form.body.order as number)).toMatchObject({ quantity: 100, chargeKobo: charge, extras: { quantity: 100 } });
    const json = await v2(`{"key": "${key}", "action": "add", "service": ${likes}, "link": "${newLink()}", "quantity": 100.0}`);
    expect((await orderRow(json.body.order as number)).quantity).toBe(100);
    expect((await v2({ key, action: 'add', service: likes, link: newLink(), quantity: '100.5' })).body).toEqual({ error: 'Incorrect quantity' });
    expect((await v2(`{"key": "${key}", "action": "add", "service": ${likes}, "link": "${newLink()}", "quantity": 100.5}`)).body).toEqual({
      error: 'Incorrect quantity',
    });

    const mass = await call('user/mass-order', { token: user.accessToken, body: { orders: `${likes}|${newLink()}|100.0\n${likes}|${newLink()}|100.5` } });
    expect(mass.body.results).toEqual([
      { line: 1, ok: true, orderId: expect.any(Number) },
      { line: 2, ok: false, error: 'Please enter a valid quantity' },
    ]);
    expect((await orderRow(mass.body.results[0].orderId)).quantity).toBe(100);
    const placed = await withDb((db) => db.select().from(orders).where(eq(orders.userId, user.id)));
    expect(placed).toHaveLength(5);
    expect(await balanceKobo(user.id)).toBe(100_000_000n - charge * 5n);
  });
});

describe('an Idempotency-Key used again', () => {
  it('returns the earlier order for the same request, however it is written, and refuses a different one with 422', async () => {
    const shop = await sharedShop();
    const user = await fundedUser(100_000_000n);
    const likes = shop.serviceIds[FAKE.igLikes];
    const link = newLink();
    const key = unique('key');
    const first = await placeOrder(user, { serviceId: likes, link, quantity: 500 }, key);
    expect(first.status).toBe(201);
    expect(await placeOrder(user, { serviceId: likes, link, quantity: 500 }, key)).toMatchObject({ status: 200, body: { data: { id: first.body.data.id } } });
    expect(await placeOrder(user, { serviceId: String(likes), link: link.replace('https://', ''), quantity: '500.0' }, key)).toMatchObject({
      status: 200,
      body: { data: { id: first.body.data.id } },
    });

    for (const different of [{ quantity: 501 }, { link: newLink() }, { serviceId: shop.serviceIds[FAKE.igFollowers] }, { runs: 2, interval: 10 }]) {
      const answer = await placeOrder(user, { serviceId: likes, link, quantity: 500, ...different }, key);
      expect(answer, JSON.stringify(different)).toMatchObject({ status: 422, body: { message: KEY_REUSED, error: 'Unprocessable Entity' } });
    }
    // A request the service would refuse now is compared by what it says: still a different order.
    expect(await placeOrder(user, { serviceId: likes, link, quantity: 10 }, key)).toMatchObject({ status: 422, body: { message: KEY_REUSED } });

    // A username and its profile link are the same order.
    const followers = shop.serviceIds[FAKE.igFollowers];
    const name = handle();
    const followKey = unique('key');
    const follow = await placeOrder(user, { serviceId: followers, link: `@${name}`, quantity: 100 }, followKey);
    expect((await placeOrder(user, { serviceId: followers, link: `https://www.instagram.com/${name}`, quantity: 100 }, followKey)).body.data.id).toBe(
      follow.body.data.id,
    );

    // The reseller API answers the same, in the protocol's shape.
    const apiKey = await resellerKey(user);
    const toolKey = unique('tool');
    const fields = { key: apiKey, action: 'add', service: likes, link: newLink(), quantity: 500 };
    const added = await v2(fields, { 'idempotency-key': toolKey });
    expect((await v2({ ...fields, quantity: '500.0' }, { 'idempotency-key': toolKey })).body).toEqual(added.body);
    expect(await v2({ ...fields, quantity: 600 }, { 'idempotency-key': toolKey })).toEqual({ status: 200, body: { error: KEY_REUSED } });
    expect((await ledgerFor(user.id)).filter((entry) => entry.sourceKind === 'order')).toHaveLength(3);
  });
});

describe('package orders', () => {
  it('are one package each: charged for one, and the provider asked for one', async () => {
    const { shop, user, key } = await resellerOnSharedShop();
    const pack = shop.serviceIds[FAKE.ytWatchTime];
    const rate = await rateKoboOf(pack);
    const refusal = 'This service is sold by the package: each order is one package, so leave the quantity out or send 1';

    expect(await placeOrder(user, { serviceId: pack, link: newLink('youtube.com'), quantity: 3 })).toMatchObject({ status: 400, body: { message: refusal } });
    expect((await v2({ key, action: 'add', service: pack, link: newLink('youtube.com'), quantity: 3 })).body).toEqual({ error: refusal });
    expect(await balanceKobo(user.id)).toBe(100_000_000n);

    const link = newLink('youtube.com');
    const one = await placeOrder(user, { serviceId: pack, link, quantity: 1 });
    expect(one.status, JSON.stringify(one.body)).toBe(201);
    const row = await orderRow(one.body.data.id);
    // `add` for a package sends the service and the link only, so the provider delivers one.
    expect(row).toMatchObject({ quantity: 1, deliverable: 1, chargeKobo: rate, extras: { link } });
    expect(row.extras).not.toHaveProperty('quantity');
    expect(await untilSubmitted(row.id)).toMatchObject({ submission: 'accepted' });
    const fake = await fakeOrders(shop.fake);
    expect(fake.orders.filter((order) => order.link === link)).toEqual([expect.objectContaining({ quantity: 1 })]);

    const viaTool = await v2({ key, action: 'add', service: pack, link: newLink('youtube.com'), quantity: '1.0' });
    expect(await orderRow(viaTool.body.order as number)).toMatchObject({ quantity: 1, chargeKobo: rate });
    expect(await balanceKobo(user.id)).toBe(100_000_000n - rate * 2n);
  });
});
