// Favourite services through the real Worker and Postgres: starring is idempotent and private,
// only services on sale can be starred, the list carries the caller's own last order of each
// service for "Order again", and the number kept is capped.
import { eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { favorites, services } from '../../../drizzle/schema';
import { MAX_FAVORITES, SERVICE_NOT_FOUND, TOO_MANY_FAVORITES } from '../../../worker/services/catalogue/favorites';
import { call, registerAndLogin, type TestAccount, withDb } from '../../support/api';
import { newLink, placeOrder } from '../fixtures/order-fixtures';
import { FAKE, newShop } from '../fixtures/shop-fixtures';
import { fundedUser } from '../fixtures/wallet-fixtures';

const star = (user: TestAccount, serviceId: number) => call(`user/favorites/${serviceId}`, { token: user.accessToken, method: 'PUT' });
const unstar = (user: TestAccount, serviceId: number) => call(`user/favorites/${serviceId}`, { token: user.accessToken, method: 'DELETE' });
const listOf = async (user: TestAccount) => {
  const response = await call('user/favorites', { token: user.accessToken });
  expect(response.status, JSON.stringify(response.body)).toBe(200);
  return response.body.data as Array<{
    service: { id: number; name: string; rate: string };
    available: boolean;
    lastOrder: { link: string; quantity: number } | null;
  }>;
};

describe('favourite services', () => {
  it('are starred once however often, unstarred however often, and seen by their owner only', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes] });
    const [owner, other] = await Promise.all([registerAndLogin(), registerAndLogin()]);
    const followers = shop.serviceIds[FAKE.igFollowers];
    const likes = shop.serviceIds[FAKE.igLikes];

    for (const response of await Promise.all([star(owner, followers), star(owner, followers), star(owner, likes)])) {
      expect(response.status, JSON.stringify(response.body)).toBe(200);
    }
    expect((await listOf(owner)).map((f) => f.service.id).sort()).toEqual([followers, likes].sort());
    expect((await call('user/favorites/ids', { token: owner.accessToken })).body.data.sort()).toEqual([followers, likes].sort());
    expect(await listOf(other)).toEqual([]);

    expect((await unstar(owner, likes)).status).toBe(200);
    expect((await unstar(owner, likes)).status).toBe(200);
    expect((await listOf(owner)).map((f) => f.service.id)).toEqual([followers]);
  });

  it('refuse a service that is not on sale or does not exist, and keep a starred one listed as unavailable once it is off', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const user = await registerAndLogin();
    const serviceId = shop.serviceIds[FAKE.igFollowers];
    expect((await star(user, serviceId)).status).toBe(200);

    await withDb((db) => db.update(services).set({ enabled: false }).where(eq(services.id, serviceId)));
    expect(await listOf(user)).toMatchObject([{ service: { id: serviceId }, available: false }]);
    await withDb((db) => db.delete(favorites).where(eq(favorites.userId, user.id)));
    expect((await star(user, serviceId)).body).toMatchObject({ message: SERVICE_NOT_FOUND, error: 'Not Found' });
    expect((await star(user, 2_000_000_000)).status).toBe(404);
    expect((await star(user, 0)).status).toBe(400);
    expect((await call('user/favorites/abc', { token: user.accessToken, method: 'PUT' })).body.message).toBe('service id must be a number');
  });

  it('carry the caller’s own latest order of each service, for Order again', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const serviceId = shop.serviceIds[FAKE.igFollowers];
    const [user, other] = await Promise.all([fundedUser(5_000_000n), fundedUser(5_000_000n)]);
    expect((await star(user, serviceId)).status).toBe(200);
    expect(await listOf(user)).toMatchObject([{ lastOrder: null, available: true }]);

    const first = await placeOrder(user, { serviceId, link: newLink(), quantity: 100 });
    expect(first.status, JSON.stringify(first.body)).toBe(201);
    const latestLink = newLink();
    expect((await placeOrder(user, { serviceId, link: latestLink, quantity: 250 })).status).toBe(201);
    expect((await placeOrder(other, { serviceId, link: newLink(), quantity: 400 })).status).toBe(201);

    expect(await listOf(user)).toMatchObject([{ service: { id: serviceId }, lastOrder: { link: latestLink, quantity: 250 } }]);
  });

  it(`keep at most ${MAX_FAVORITES} per user`, async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes] });
    const user = await registerAndLogin();
    // Filled up to the cap directly with copies of a service: the cap, not the starring, is what is tested here.
    const source = shop.serviceIds[FAKE.igFollowers];
    await withDb((db) =>
      db.execute(sql`
      with copies as (
        insert into services (provider_id, provider_service_id, name, category_id, provider_rate_micros, cost_kobo, rate_kobo, min, max, provider_min, provider_max)
        select provider_id, provider_service_id || '-copy-' || g, name, category_id, provider_rate_micros, cost_kobo, rate_kobo, min, max, provider_min, provider_max
        from services, generate_series(1, ${MAX_FAVORITES}) g where id = ${source}
        returning id
      )
      insert into favorites (user_id, service_id) select ${user.id}, id from copies`),
    );
    const refused = await star(user, shop.serviceIds[FAKE.igLikes]);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(TOO_MANY_FAVORITES);
  });
});
