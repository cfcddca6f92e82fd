// The public list from the isolate's copy (worker/services/catalogue/catalogue-snapshot.ts): byte for byte what
// the SQL list answers, and every change to the catalogue on the very next call in the same isolate
// (SELF.fetch runs the Worker in this one).
import { SELF } from 'cloudflare:test';
import { eq } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { serviceCategories, services } from '../../../drizzle/schema';
import { serviceListQuerySchema } from '../../../worker/schemas/catalogue';
import { listPage } from '../../../worker/schemas/common';
import { listCategories, listServices } from '../../../worker/services/catalogue/catalogue';
import { BASE, call, unique, uniqueIp, withDb } from '../../support/api';
import { catalogueVersionNow, FAKE, newShop } from '../fixtures/shop-fixtures';

async function answerText(path: string) {
  const response = await SELF.fetch(`${BASE}/${path}`, { headers: { 'cf-connecting-ip': uniqueIp() } });
  expect(response.status, path).toBe(200);
  return response.text();
}

/**
 * The list's answer and the SQL's, read while the catalogue stood still: other test files change it
 * at the same time, so a try it moved during is taken again.
 */
async function bothAnswers(path: string, sqlAnswer: () => Promise<unknown>) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await catalogueVersionNow();
    const listed = await answerText(path);
    const expected = JSON.stringify(await sqlAnswer());
    if ((await catalogueVersionNow()) === before) return { listed, expected };
  }
  throw new Error('the catalogue never stood still for one comparison');
}

describe("the public list from the isolate's copy", () => {
  it('answers byte for byte what the SQL list answers, for pages, searches, categories and platforms', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes, FAKE.tiktokViews, FAKE.xPoll] });
    const token = unique('Snapshot').toLowerCase();
    const categoryName = unique('Snapshot Category ');
    const [template] = await withDb((db) => db.select().from(services).where(eq(services.id, shop.serviceIds[FAKE.igLikes])));
    const [category] = await withDb((db) => db.insert(serviceCategories).values({ name: categoryName, platform: 'Telegram' }).returning());
    // Names ILIKE treats specially: wildcards and the escape as text, letters beyond ASCII (which Postgres lowers as its collation says).
    const names = [`${token} 100% real_likes`, `${token} back\\slash`, `ÉCOLE ${token} Straße`, `école ${token} ΣΊΣΥΦΟΣ`, `${token.toUpperCase()} plain`];
    await withDb((db) =>
      db.insert(services).values(
        names.map((name, i) => ({
          ...template,
          id: undefined,
          createdAt: undefined,
          updatedAt: undefined,
          providerServiceId: `${token}-${i}`,
          name,
          categoryId: category.id,
          rateKobo: template.rateKobo + BigInt(i),
        })),
      ),
    );
    const someId = shop.serviceIds[FAKE.xPoll];
    const queries = [
      '',
      'limit=100',
      'limit=3&page=2',
      'limit=100&page=100000',
      `search=${token}`,
      `search=${token.toUpperCase()}&limit=2&page=2`,
      `search=${encodeURIComponent('100%')}`,
      'search=real_',
      `search=${encodeURIComponent('\\slash')}`,
      `search=${encodeURIComponent('école')}`,
      `search=${encodeURIComponent('ÉCOLE')}`,
      `search=${encodeURIComponent('σίσυφος')}`,
      `search=${encodeURIComponent('strasse')}`,
      `search=${someId}`,
      `search=${someId}&category=${category.id}`,
      `category=${category.id}`,
      `category=${encodeURIComponent(categoryName)}&limit=2`,
      `category=${encodeURIComponent(categoryName.toUpperCase())}`,
      'platform=Telegram',
      `platform=Telegram&search=${token}&category=${category.id}&limit=1&page=3`,
      'category=999999999',
      'search=%20%20',
    ];
    for (const path of queries) {
      const query = serviceListQuerySchema.parse(Object.fromEntries(new URLSearchParams(path)));
      const { listed, expected } = await bothAnswers(`services?${path}`, () =>
        withDb(async (db) => listPage('Services fetched successfully', query, await listServices(db, query))),
      );
      expect(listed, path).toBe(expected);
    }
    const { listed, expected } = await bothAnswers('services/categories', () =>
      withDb(async (db) => ({ message: 'Categories fetched successfully', data: await listCategories(db) })),
    );
    expect(listed).toBe(expected);
  });

  it('shows an edit, a disable, a provider disable, a category rename and a delete on the very next call', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes] });
    const token = shop.admin.accessToken;
    const [followers, likes] = [shop.serviceIds[FAKE.igFollowers], shop.serviceIds[FAKE.igLikes]];
    const categoryName = unique('Snapshot Moves ');
    for (const id of [followers, likes]) {
      expect((await call(`admin/services/${id}`, { method: 'PUT', token, body: { category: categoryName } })).status).toBe(200);
    }
    const [{ categoryId }] = await withDb((db) => db.select({ categoryId: services.categoryId }).from(services).where(eq(services.id, likes)));
    const listed = async () => (await call(`services?category=${categoryId}`)).body as { total: number; data: Array<Record<string, unknown>> };
    const categoryCount = async () =>
      ((await call('services/categories')).body.data as Array<{ id: number; name: string; serviceCount: number }>).find((c) => c.id === categoryId);

    expect((await listed()).data.map((service) => service.id)).toEqual([followers, likes]);
    expect(await categoryCount()).toMatchObject({ name: categoryName, serviceCount: 2 });

    const renamed = unique('IG Likes renamed ');
    expect((await call(`admin/services/${likes}`, { method: 'PUT', token, body: { name: renamed, rate: '900.50' } })).status).toBe(200);
    expect((await listed()).data[1]).toMatchObject({ id: likes, name: renamed, rate: '900.50', rateKobo: '90050' });

    await call('admin/services/bulk', { token, body: { ids: [followers], action: 'disable' } });
    expect((await listed()).data.map((service) => service.id)).toEqual([likes]);
    expect(await categoryCount()).toMatchObject({ serviceCount: 1 });
    await call('admin/services/bulk', { token, body: { ids: [followers], action: 'enable' } });
    expect((await listed()).total).toBe(2);

    expect((await call(`admin/providers/${shop.providerId}`, { method: 'PUT', token, body: { enabled: false } })).status).toBe(200);
    expect(await listed()).toMatchObject({ total: 0, data: [] });
    expect(await categoryCount()).toBeUndefined();
    await call(`admin/providers/${shop.providerId}`, { method: 'PUT', token, body: { enabled: true } });
    expect((await listed()).total).toBe(2);

    const newCategoryName = unique('Snapshot Renamed ');
    expect((await call(`admin/services/categories/${categoryId}`, { method: 'PUT', token, body: { name: newCategoryName, platform: 'Threads' } })).status).toBe(
      200,
    );
    expect((await listed()).data[0]).toMatchObject({ category: newCategoryName, platform: 'Threads' });
    expect((await call(`services?category=${encodeURIComponent(categoryName)}`)).body.total).toBe(0);

    // What the order sync writes straight in SQL, outside any administrator's call.
    await withDb((db) => db.update(services).set({ averageTimeSeconds: 4321 }).where(eq(services.id, followers)));
    expect((await listed()).data[0]).toMatchObject({ id: followers, averageTimeSeconds: 4321 });

    await withDb((db) => db.delete(services).where(eq(services.id, likes)));
    expect((await listed()).data.map((service) => service.id)).toEqual([followers]);
    expect(await categoryCount()).toMatchObject({ serviceCount: 1 });
  });
});
