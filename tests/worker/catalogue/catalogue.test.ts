import { env, SELF } from 'cloudflare:test';
import { and, eq, sql } from 'drizzle-orm';
import { describe, expect, it } from 'vitest';
import { catalogueWarnings, providers, serviceCategories, services } from '../../../drizzle/schema';
import { decryptSecret } from '../../../worker/lib/crypto';
import { formatNaira } from '../../../worker/lib/decimal';
import { syncProviderCatalogue } from '../../../worker/services/catalogue';
import { auditEntries, BASE, call, createAdmin, unique, withDb } from '../../support/api';
import { IG_FOLLOWERS_AT_60 } from '../../support/fake-services';
import { costKobo, FAKE, newShop, rateKoboOf } from '../fixtures/shop-fixtures';

const priceWithMarkup = (cost: bigint, percent: bigint) => (cost * (100n + percent) + 99n) / 100n;

describe('providers (admin)', () => {
  it('stores the key encrypted, never returns it, and validates input', async () => {
    const admin = await createAdmin();
    const name = unique('Panel ');
    const created = await call('admin/providers', {
      token: admin.accessToken,
      body: { name, apiUrl: 'https://panel.example/api/v2', apiKey: 'secret-key-123', lowBalanceAlert: '25.50' },
    });
    expect(created.status).toBe(201);
    expect(created.body.data).toMatchObject({ name, apiKeySet: true, currency: 'USD', enabled: true, lowBalanceAlert: '25.50', timeoutMs: 15000 });
    expect(JSON.stringify(created.body)).not.toContain('secret-key-123');
    const [row] = await withDb((db) => db.select().from(providers).where(eq(providers.id, created.body.data.id)));
    expect(row.apiKeyEncrypted).not.toContain('secret-key-123');
    expect(await decryptSecret(env.ENCRYPTION_KEY, row.apiKeyEncrypted)).toBe('secret-key-123');

    const list = await call('admin/providers', { token: admin.accessToken });
    expect(JSON.stringify(list.body)).not.toContain('secret-key-123');
    expect(list.body.data.some((provider: { id: number }) => provider.id === row.id)).toBe(true);

    const duplicate = await call('admin/providers', { token: admin.accessToken, body: { name, apiUrl: 'https://other.example/api/v2', apiKey: 'k' } });
    expect(duplicate).toMatchObject({ status: 409, body: { message: 'A provider with this name already exists' } });
    for (const [body, message] of [
      [{ apiUrl: 'https://x.example', apiKey: 'k' }, 'Name is required'],
      [{ name: 'n', apiUrl: 'ftp://x.example', apiKey: 'k' }, 'API URL must be an http(s) URL'],
      [{ name: 'n', apiUrl: 'https://x.example' }, 'API key is required'],
      [{ name: 'n', apiUrl: 'https://x.example', apiKey: 'k', timeoutMs: 10 }, 'timeoutMs must be at least 1000'],
    ] as const) {
      expect(await call('admin/providers', { token: admin.accessToken, body })).toMatchObject({ status: 400, body: { message } });
    }

    const renamed = await call(`admin/providers/${row.id}`, { method: 'PUT', token: admin.accessToken, body: { apiKey: 'rotated-key', enabled: false } });
    expect(renamed.status).toBe(200);
    const [updated] = await withDb((db) => db.select().from(providers).where(eq(providers.id, row.id)));
    expect(await decryptSecret(env.ENCRYPTION_KEY, updated.apiKeyEncrypted)).toBe('rotated-key');
    const audits = await auditEntries({ targetType: 'provider', targetId: row.id });
    expect(audits.map((audit) => audit.action).sort()).toEqual(['provider.create', 'provider.update']);
    expect(JSON.stringify(audits)).not.toContain('rotated-key');

    expect((await call(`admin/providers/${row.id}`, { method: 'DELETE', token: admin.accessToken })).status).toBe(200);
    expect((await call(`admin/providers/${row.id}`, { token: admin.accessToken })).status).toBe(404);
  });

  it('checks the provider balance and raises one low-balance warning', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    await call(`admin/providers/${shop.providerId}`, { method: 'PUT', token: shop.admin.accessToken, body: { lowBalanceAlert: '6000' } });
    const balance = await call(`admin/providers/${shop.providerId}/balance`, { token: shop.admin.accessToken });
    expect(balance.body.data).toMatchObject({ balance: '5000.00', currency: 'USD', lowBalance: true });
    await call(`admin/providers/${shop.providerId}/balance`, { token: shop.admin.accessToken });
    const warnings = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.providerId, shop.providerId), eq(catalogueWarnings.kind, 'provider_low_balance'))),
    );
    expect(warnings).toHaveLength(1);
    const provider = await call(`admin/providers/${shop.providerId}`, { token: shop.admin.accessToken });
    expect(provider.body.data).toMatchObject({ balance: '5000.00', lowBalance: true, serviceCount: 1 });
    // A provider with services is kept for the order history.
    expect(await call(`admin/providers/${shop.providerId}`, { method: 'DELETE', token: shop.admin.accessToken })).toMatchObject({ status: 409 });
  });

  it('lists each provider with the number of its own services', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes] });
    const listed = (await call('admin/providers', { token: shop.admin.accessToken })).body.data;
    expect(listed.find((p: { id: number }) => p.id === shop.providerId)).toMatchObject({ serviceCount: 2 });
  });
});

describe('importing and pricing', () => {
  it('lists the provider catalogue in naira and imports the picked services with the markup, exactly', async () => {
    const admin = await createAdmin();
    const shop = await newShop({ admin, serviceIds: [FAKE.igFollowers, FAKE.tiktokViews, FAKE.ytWatchTime], markupPercent: '60' });
    const catalogue = await call(`admin/providers/${shop.providerId}/services`, { token: admin.accessToken });
    expect(catalogue.status).toBe(200);
    const followers = catalogue.body.data.find((service: { service: string }) => service.service === FAKE.igFollowers);
    // $1.45 × 1550.25 = ₦2247.8625 per 1000, rounded up to the kobo.
    expect(followers).toMatchObject({ rate: '1.45', cost: '2247.87', importedServiceId: shop.serviceIds[FAKE.igFollowers] });
    expect(catalogue.body.data.filter((service: { importedServiceId: number | null }) => service.importedServiceId !== null)).toHaveLength(3);

    const cost = costKobo(1_450_000n);
    expect(cost).toBe(224_787n);
    expect(await rateKoboOf(shop.serviceIds[FAKE.igFollowers])).toBe(priceWithMarkup(cost, 60n));
    // $0.012 per 1000 TikTok views: ₦18.603 -> 1861 kobo cost.
    expect(await rateKoboOf(shop.serviceIds[FAKE.tiktokViews])).toBe(priceWithMarkup(costKobo(12_000n), 60n));

    const publicList = await call(`services?search=${encodeURIComponent('Instagram Followers [Real Mixed]')}&limit=100`);
    const listed = publicList.body.data.find((service: { id: number }) => service.id === shop.serviceIds[FAKE.igFollowers]);
    expect(listed).toEqual({
      id: shop.serviceIds[FAKE.igFollowers],
      name: 'Instagram Followers [Real Mixed] [Refill 30D] [Max 100K] [Start 0-1H]',
      description: '',
      categoryId: expect.any(Number),
      ...IG_FOLLOWERS_AT_60,
    });

    const again = await call(`admin/providers/${shop.providerId}/import`, { token: admin.accessToken, body: { serviceIds: [FAKE.igFollowers, '999999'] } });
    expect(again.body.created).toBe(0);
    expect(again.body.results).toEqual([
      { service: FAKE.igFollowers, ok: true, serviceId: shop.serviceIds[FAKE.igFollowers], created: false },
      { service: '999999', ok: false, error: 'The provider does not list this service' },
    ]);
    const belowMargin = await call(`admin/providers/${shop.providerId}/import`, {
      token: admin.accessToken,
      body: { serviceIds: [FAKE.igLikes], markupPercent: '1' },
    });
    expect(belowMargin).toMatchObject({ status: 400, body: { message: expect.stringMatching(/^Markup must be at least the minimum margin/) } });
  });

  it('lists categories with platforms and counts of enabled services', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igFollowersNoRefill] });
    const categories = await call('services/categories');
    const instagram = categories.body.data.find((category: { name: string }) => category.name === 'Instagram Followers');
    expect(instagram).toMatchObject({ platform: 'Instagram', serviceCount: expect.any(Number) });
    expect(instagram.serviceCount).toBeGreaterThanOrEqual(2);
    const byCategory = await call(`services?category=${instagram.id}&limit=100`);
    expect(byCategory.body.data.every((service: { categoryId: number }) => service.categoryId === instagram.id)).toBe(true);
    expect(byCategory.body.data.map((service: { id: number }) => service.id)).toEqual(expect.arrayContaining([shop.serviceIds[FAKE.igFollowers]]));
  });
});

describe('administrators edit the catalogue', () => {
  it("sets fixed prices and markups within the margin, ranges within the provider's, and enables or disables", async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes] });
    const token = shop.admin.accessToken;
    const id = shop.serviceIds[FAKE.igFollowers];
    const cost = costKobo(1_450_000n);
    const floor = priceWithMarkup(cost, 10n);

    const tooCheap = await call(`admin/services/${id}`, { method: 'PUT', token, body: { rate: '2000' } });
    expect(tooCheap).toMatchObject({
      status: 400,
      body: { message: `Price must be at least ${formatNaira(floor)} (cost NGN\u00a02,247.87 plus the minimum margin)` },
    });
    const fixed = await call(`admin/services/${id}`, {
      method: 'PUT',
      token,
      body: { rate: '3000.50', name: 'IG Followers', description: 'Real mixed', category: unique('My Category ') },
    });
    expect(fixed.status).toBe(200);
    expect(fixed.body.data).toMatchObject({
      name: 'IG Followers',
      description: 'Real mixed',
      rate: '3000.50',
      rateKobo: '300050',
      priceMode: 'fixed',
      cost: '2247.87',
    });
    expect(await rateKoboOf(id)).toBe(300_050n);

    const markup = await call(`admin/services/${id}`, { method: 'PUT', token, body: { markupPercent: 25 } });
    expect(markup.body.data).toMatchObject({
      priceMode: 'markup',
      markupPercent: '25.00',
      effectiveMarkupPercent: '25.00',
      rateKobo: String(priceWithMarkup(cost, 25n)),
    });

    for (const [body, message] of [
      [{ min: 10 }, "min must be at least the provider's minimum (100)"],
      [{ max: 200_000 }, "max must be at most the provider's maximum (100000)"],
      [{ min: 5000, max: 1000 }, 'min cannot be more than max'],
      [{ rate: '1.005' }, 'rate must be an amount in naira with at most 2 decimals'],
      [{ markupPercent: 'lots' }, 'markupPercent must be a percentage between 0 and 1000 with at most 2 decimals'],
      [{ rate: '3000', markupPercent: 20 }, 'Set either rate or markupPercent, not both'],
    ] as const) {
      expect(await call(`admin/services/${id}`, { method: 'PUT', token, body })).toMatchObject({ status: 400, body: { message } });
    }
    expect((await call(`admin/services/${id}`, { method: 'PUT', token, body: { min: 500, max: 5000 } })).body.data).toMatchObject({ min: 500, max: 5000 });

    const disabled = await call('admin/services/bulk', { token, body: { ids: [id, shop.serviceIds[FAKE.igLikes]], action: 'disable' } });
    expect(disabled.body).toMatchObject({ updated: 2, skipped: [] });
    expect((await call(`services?search=${id}`)).body.data.some((service: { id: number }) => service.id === id)).toBe(false);
    const adminList = await call(`admin/services?providerId=${shop.providerId}&enabled=false`, { token });
    expect(adminList.body.total).toBe(2);
    expect(adminList.body.data[0]).toMatchObject({ enabled: false, disabledReason: 'admin', providerId: shop.providerId });
    expect((await call('admin/services/bulk', { token, body: { ids: [id], action: 'enable' } })).body.updated).toBe(1);

    const bulkMarkup = await call('admin/services/bulk', { token, body: { ids: [id], action: 'markup', markupPercent: '40' } });
    expect(bulkMarkup.status).toBe(200);
    expect(await rateKoboOf(id)).toBe(priceWithMarkup(cost, 40n));
    const audits = await auditEntries({ targetType: 'service', actorId: shop.admin.id });
    expect(audits.map((audit) => audit.action)).toEqual(
      expect.arrayContaining(['service.update', 'service.bulk_disable', 'service.bulk_enable', 'service.bulk_markup']),
    );
  });

  it('applies a category markup to the services that inherit it', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igComments] });
    const id = shop.serviceIds[FAKE.igComments];
    const token = shop.admin.accessToken;
    // A category of its own, so no other test's services are repriced.
    const moved = await call(`admin/services/${id}`, { method: 'PUT', token, body: { category: unique('Comments '), markupPercent: null } });
    expect(moved.status, JSON.stringify(moved.body)).toBe(200);
    const [{ categoryId }] = await withDb((db) => db.select({ categoryId: services.categoryId }).from(services).where(eq(services.id, id)));
    const response = await call(`admin/services/categories/${categoryId}`, { method: 'PUT', token, body: { markupPercent: '80', platform: 'Instagram' } });
    expect(response.body.data).toMatchObject({ id: categoryId, markupPercent: '80.00', platform: 'Instagram', serviceCount: 1 });
    expect(await rateKoboOf(id)).toBe(priceWithMarkup(costKobo(6_500_000n), 80n));
    expect(await call(`admin/services/categories/${categoryId}`, { method: 'PUT', token, body: { markupPercent: '5' } })).toMatchObject({
      status: 400,
      body: { message: 'Markup must be at least the minimum margin (10.00%)' },
    });
  });

  it('imports services from a CSV upload (field user_file) with a result per row', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const category = unique('CSV Category ');
    const csv = [
      'service,name,category,rate,markup,min,max,enabled,description',
      `${FAKE.igLikes},"Likes, fast",${category},,,100,1000,1,"Said ""fast"""`,
      `${FAKE.igFollowers},Followers fixed,${category},3000,,,,yes,`,
      `${FAKE.xPoll},,,,70,,,0,`,
      '999999,Nope,,,,,,,',
      `${FAKE.tiktokViews},Cheap,,0.01,,,,,`,
      `${FAKE.igComments},,,,,1,,,`,
      `${FAKE.igLikes},Again,,,,,,,`,
    ].join('\r\n');
    const form = new FormData();
    form.set('providerId', String(shop.providerId));
    form.set('user_file', new File([csv], 'services.csv', { type: 'text/csv' }));
    const response = await SELF.fetch(`${BASE}/admin/services/import`, {
      method: 'POST',
      body: form,
      headers: { authorization: `Bearer ${shop.admin.accessToken}` },
    });
    const body = await response.json<{ imported: number; failed: number; results: Array<{ row: number; ok: boolean; error?: string }> }>();
    expect(response.status, JSON.stringify(body)).toBe(200);
    expect(body).toMatchObject({ imported: 3, failed: 4 });
    expect(body.results.map((result) => [result.row, result.ok, result.error])).toEqual([
      [2, true, undefined],
      [3, true, undefined],
      [4, true, undefined],
      [5, false, 'The provider does not list this service'],
      [6, false, 'rate must be at least 20.48 (cost 18.61 plus the minimum margin)'],
      [7, false, "min must be at least the provider's minimum (5)"],
      [8, false, 'This service is already in an earlier row'],
    ]);
    const rows = await withDb((db) => db.select().from(services).where(eq(services.providerId, shop.providerId)));
    const likes = rows.find((row) => row.providerServiceId === FAKE.igLikes)!;
    expect(likes).toMatchObject({ name: 'Likes, fast', description: 'Said "fast"', min: 100, max: 1000, priceMode: 'markup', enabled: true });
    // The existing service was rewritten by its row: a fixed price, the new name and category.
    expect(rows.find((row) => row.id === shop.serviceIds[FAKE.igFollowers])).toMatchObject({ name: 'Followers fixed', rateKobo: 300_000n, priceMode: 'fixed' });
    expect(rows.find((row) => row.providerServiceId === FAKE.xPoll)).toMatchObject({
      markupBps: 7000,
      enabled: false,
      rateKobo: priceWithMarkup(costKobo(2_400_000n), 70n),
    });

    const notMultipart = await call('admin/services/import', { token: shop.admin.accessToken, body: { providerId: shop.providerId } });
    expect(notMultipart.status).toBe(415);
    const noFile = new FormData();
    noFile.set('providerId', String(shop.providerId));
    const missing = await SELF.fetch(`${BASE}/admin/services/import`, {
      method: 'POST',
      body: noFile,
      headers: { authorization: `Bearer ${shop.admin.accessToken}` },
    });
    expect(await missing.json()).toMatchObject({ message: 'Attach the CSV file in the field user_file' });
    const badHeader = new FormData();
    badHeader.set('providerId', String(shop.providerId));
    badHeader.set('user_file', new File(['id,price\n1,2'], 'x.csv'));
    const unknownColumn = await SELF.fetch(`${BASE}/admin/services/import`, {
      method: 'POST',
      body: badHeader,
      headers: { authorization: `Bearer ${shop.admin.accessToken}` },
    });
    expect(await unknownColumn.json()).toMatchObject({ message: expect.stringMatching(/^Unknown column id/) });
  });
});

describe('the margin guard', () => {
  it('moves markup prices with the cost and raises a fixed price the cost has caught up with', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers, FAKE.igLikes], markupPercent: '50' });
    const token = shop.admin.accessToken;
    const followers = shop.serviceIds[FAKE.igFollowers];
    const likes = shop.serviceIds[FAKE.igLikes];
    await call(`admin/services/${likes}`, { method: 'PUT', token, body: { rate: '600' } });

    await shop.fake.post('/__control', { setRate: { service: FAKE.igFollowers, rate: '2.00' } });
    await shop.fake.post('/__control', { setRate: { service: FAKE.igLikes, rate: '0.50' } });
    const sync = await call(`admin/providers/${shop.providerId}/sync`, { method: 'POST', token });
    expect(sync.status, JSON.stringify(sync.body)).toBe(200);

    expect(await rateKoboOf(followers)).toBe(priceWithMarkup(costKobo(2_000_000n), 50n));
    const newLikesCost = costKobo(500_000n); // ₦775.13
    expect(await rateKoboOf(likes)).toBe(priceWithMarkup(newLikesCost, 10n));
    const warnings = await call('admin/services/warnings?kind=margin_repriced&acknowledged=false&limit=100', { token });
    const warning = warnings.body.data.find((entry: { serviceId: number }) => entry.serviceId === likes);
    expect(warning.message).toMatch(/price raised from NGN\u00a0600\.00 to NGN\u00a0852\.65/);
    expect(warnings.body.data.some((entry: { serviceId: number }) => entry.serviceId === followers)).toBe(false);
    expect((await call(`admin/services/warnings/${warning.id}/acknowledge`, { method: 'POST', token })).status).toBe(200);

    // A second sync with nothing new changes nothing and warns of nothing.
    const again = await call(`admin/providers/${shop.providerId}/sync`, { method: 'POST', token });
    expect(again.body.data).toMatchObject({ updated: 0, repriced: 0, disabled: 0 });
  });

  it('switches a fixed-price service off when the guard is set to disable', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const likes = shop.serviceIds[FAKE.igLikes];
    const token = shop.admin.accessToken;
    await call(`admin/services/${likes}`, { method: 'PUT', token, body: { rate: '600' } });
    await shop.fake.post('/__control', { setRate: { service: FAKE.igLikes, rate: '0.90' } });
    // The setting is global, so it is switched through the API and restored at once.
    const settings = await call('admin/services/settings', { method: 'PUT', token, body: { marginGuardAction: 'disable' } });
    expect(settings.body.data).toMatchObject({ marginGuardAction: 'disable', minMarginPercent: '10.00' });
    try {
      await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
      const [row] = await withDb((db) => db.select().from(services).where(eq(services.id, likes)));
      expect(row).toMatchObject({ enabled: false, disabledReason: 'margin', rateKobo: 60_000n });
      // Enabling it again is refused while the price is under the floor.
      expect((await call('admin/services/bulk', { token, body: { ids: [likes], action: 'enable' } })).body).toMatchObject({ updated: 0, skipped: [likes] });
    } finally {
      await call('admin/services/settings', { method: 'PUT', token, body: { marginGuardAction: 'reprice' } });
    }
    const warnings = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.serviceId, likes), eq(catalogueWarnings.kind, 'margin_disabled'))),
    );
    expect(warnings).toHaveLength(1);
    // Back on 'reprice', the settings change raised the stale fixed price to the floor.
    expect(await rateKoboOf(likes)).toBe(priceWithMarkup(costKobo(900_000n), 10n));
  });

  it('switches off services the provider no longer lists, and back on when they return', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const id = shop.serviceIds[FAKE.igFollowers];
    // The provider's catalogue answer drops the service: point our row at an id the fake does not have.
    await withDb((db) => db.update(services).set({ providerServiceId: '777777' }).where(eq(services.id, id)));
    const gone = await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(gone).toMatchObject({ missing: 1 });
    expect((await withDb((db) => db.select().from(services).where(eq(services.id, id))))[0]).toMatchObject({
      enabled: false,
      disabledReason: 'provider_missing',
    });
    await withDb((db) => db.update(services).set({ providerServiceId: FAKE.igFollowers }).where(eq(services.id, id)));
    const back = await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(back).toMatchObject({ restored: 1 });
    expect((await withDb((db) => db.select().from(services).where(eq(services.id, id))))[0]).toMatchObject({ enabled: true, disabledReason: null });
  });
});

describe('the public service list with 5,000 services', () => {
  it('pages, filters by category and searches by name quickly', async () => {
    const token = unique('zebra');
    const categoryName = unique('Bulk Category ');
    const { categoryId } = await withDb(async (db) => {
      const [provider] = await db
        .insert(providers)
        .values({ name: unique('bulk-panel'), apiUrl: 'http://127.0.0.1:9/api/v2', apiKeyEncrypted: 'v1.x.y' })
        .returning();
      const [category] = await db.insert(serviceCategories).values({ name: categoryName, platform: 'TikTok' }).returning();
      const rows = Array.from({ length: 5000 }, (_, i) => ({
        providerId: provider.id,
        providerServiceId: String(i + 1),
        name: `TikTok Views ${i % 10 === 0 ? token : 'plain'} #${i}`,
        categoryId: category.id,
        providerRateMicros: 12_000n,
        costKobo: 1861n,
        rateKobo: 2792n + BigInt(i),
        priceMode: 'fixed' as const,
        min: 100,
        max: 1_000_000,
        providerMin: 100,
        providerMax: 1_000_000,
      }));
      for (let start = 0; start < rows.length; start += 1000) await db.insert(services).values(rows.slice(start, start + 1000));
      await db.execute(sql`analyze services`);
      return { categoryId: category.id };
    });

    const timed = async (path: string) => {
      const started = performance.now();
      const response = await call(path);
      return { ...response, ms: performance.now() - started };
    };
    const firstPage = await timed(`services?category=${categoryId}&limit=100`);
    expect(firstPage.status).toBe(200);
    expect(firstPage.body).toMatchObject({ page: 1, limit: 100, total: 5000 });
    expect(firstPage.body.data).toHaveLength(100);
    expect(firstPage.body.data[0]).toMatchObject({ category: categoryName, platform: 'TikTok', rate: '27.92', rateKobo: '2792' });

    const lastPage = await timed(`services?category=${categoryId}&limit=100&page=50`);
    expect(lastPage.body.data).toHaveLength(100);
    expect(lastPage.body.total).toBe(5000);
    const pastTheEnd = await timed(`services?category=${categoryId}&limit=100&page=51`);
    expect(pastTheEnd.body).toMatchObject({ data: [], total: 5000 });

    const search = await timed(`services?search=${token}&limit=100`);
    expect(search.body.total).toBe(500);
    expect(search.body.data.every((service: { name: string }) => service.name.includes(token))).toBe(true);
    const searchInCategory = await timed(`services?search=${token}&category=${encodeURIComponent(categoryName)}&platform=TikTok&limit=20&page=25`);
    expect(searchInCategory.body).toMatchObject({ total: 500, page: 25 });
    expect(searchInCategory.body.data).toHaveLength(20);

    const categories = await call('services/categories');
    expect(categories.body.data.find((category: { id: number }) => category.id === categoryId)).toMatchObject({ serviceCount: 5000, platform: 'TikTok' });

    const slowest = Math.max(firstPage.ms, lastPage.ms, search.ms, searchInCategory.ms);
    console.log(
      `services list with 5,000 services: first page ${firstPage.ms.toFixed(0)} ms, page 50 ${lastPage.ms.toFixed(0)} ms, search ${search.ms.toFixed(0)} ms, search in category ${searchInCategory.ms.toFixed(0)} ms`,
    );
    expect(slowest).toBeLessThan(1500);

    const plan = await withDb((db) => db.execute<{ 'QUERY PLAN': string }>(sql`explain select id from services where name ilike ${`%${token}%`}`));
    expect(plan.rows.map((row) => row['QUERY PLAN']).join('\n')).toMatch(/services_name_trgm_idx|Seq Scan/);
    await withDb((db) => db.update(services).set({ enabled: false }).where(eq(services.categoryId, categoryId)));
    expect((await call(`services?category=${categoryId}`)).body.total).toBe(0);
  });

  it('validates the query', async () => {
    expect(await call('services?limit=1000')).toMatchObject({ status: 400, body: { message: 'limit must be at most 100' } });
    expect(await call('services?page=0')).toMatchObject({ status: 400, body: { message: 'page must be at least 1' } });
    expect(await call(`services?search=${'x'.repeat(101)}`)).toMatchObject({ status: 400, body: { message: 'search must be at most 100 characters' } });
  });
});
