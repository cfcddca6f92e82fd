// Price sanity: an exchange rate that jumps out of its band, or a provider price that is 0, missing
// or too far from the last one, moves no price until an administrator accepts it; every price the
// system moves by itself is in the audit log with its before and after.
// Exchange rates are one table for every test file running at once, so each test here prices its
// provider in a currency of its own that only its private copy of the rates fake quotes.
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, inject, it, vi } from 'vitest';
import { type auditLog, catalogueWarnings, exchangeRates, providers, serviceCategories, services } from '../../../drizzle/schema';
import { syncProviderCatalogue } from '../../../worker/services/catalogue/catalogue-sync';
import { refreshRates } from '../../../worker/services/catalogue/rates';
import { auditEntries, call, createAdmin, unique, withDb } from '../../support/api';
import { costKobo, FAKE, newShop, SMM_API_KEY } from '../fixtures/shop-fixtures';
import { fakeScope } from '../providers/fake-scope';

const priceWithMarkup = (cost: bigint, percent: bigint) => (cost * (100n + percent) + 99n) / 100n;
const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
/** The fake feed's naira: 1550.25 per USD, at scale 6. */
const NGN_MICROS = 1_550_250_000n;

let currencies = 0;
/** A currency code no other test quotes ("XQA", "XQB", ...). */
function ownCurrency(): string {
  currencies += 1;
  return `XQ${String.fromCharCode(64 + currencies)}`;
}

/** Kobo per 1000 for a provider price in micro-units of a currency quoted at `perUsdMicros`, rounded up as the shop converts. */
const costAt = (providerMicros: bigint, perUsdMicros: bigint) => ceilDiv(providerMicros * NGN_MICROS * 100n, perUsdMicros * 1_000_000n);

async function serviceRow(id: number) {
  const [row] = await withDb((db) => db.select().from(services).where(eq(services.id, id)));
  return row;
}

async function rateRow(currency: string) {
  const [row] = await withDb((db) => db.select().from(exchangeRates).where(eq(exchangeRates.currency, currency)));
  return row;
}

async function latestReprice(targetType: string, targetId: string) {
  const row = (await auditEntries({ action: 'catalogue.reprice', targetType, targetId })).at(-1);
  return row as
    | (typeof auditLog.$inferSelect & { details: { cause: string; changes: Array<{ serviceId: number; before: object; after: object; note?: string }> } })
    | undefined;
}

/**
 * A provider pricing in a currency of its own, quoted 2 per USD by a private copy of the rates
 * fake (its first rate, taken without review), with Instagram Followers ($1.45 at the fake) imported at 50%.
 */
async function shopInOwnCurrency() {
  const currency = ownCurrency();
  const rates = fakeScope(inject('ratesUrl'));
  const quote = (rate: string) => rates.post('/__control', { currency, rate });
  const refresh = () => withDb((db) => refreshRates(db, { RATES_API_URL: rates.url }));
  await quote('2');
  const first = await refresh();
  expect(first.held).toEqual([]);
  const admin = await createAdmin();
  const fake = fakeScope(inject('smmProviderUrl'));
  const created = await call('admin/providers', {
    token: admin.accessToken,
    body: { name: unique('panel'), apiUrl: `${fake.url}/api/v2`, apiKey: SMM_API_KEY, currency, timeoutMs: 2000 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const providerId = created.body.data.id as number;
  const imported = await call(`admin/providers/${providerId}/import`, {
    token: admin.accessToken,
    body: { serviceIds: [FAKE.igFollowers], markupPercent: '50' },
  });
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  const serviceId = imported.body.results[0].serviceId as number;
  const sync = () => withDb((db) => syncProviderCatalogue(db, env, providerId));
  return { currency, admin, token: admin.accessToken, providerId, serviceId, quote, refresh, sync };
}

describe('exchange rates outside the band', () => {
  it('takes a rate within the band without review, and the next sync reprices at it, audited', async () => {
    const shop = await shopInOwnCurrency();
    expect(await serviceRow(shop.serviceId)).toMatchObject({
      costKobo: costAt(1_450_000n, 2_000_000n),
      rateKobo: priceWithMarkup(costAt(1_450_000n, 2_000_000n), 50n),
    });

    await shop.quote('2.1'); // +5%
    expect((await shop.refresh()).held).toEqual([]);
    expect(await rateRow(shop.currency)).toMatchObject({ perUsdMicros: 2_100_000n, proposedPerUsdMicros: null });
    await shop.sync();
    const cost = costAt(1_450_000n, 2_100_000n);
    expect(await serviceRow(shop.serviceId)).toMatchObject({ costKobo: cost, rateKobo: priceWithMarkup(cost, 50n), enabled: true });

    const audit = await latestReprice('provider', String(shop.providerId));
    expect(audit?.details.cause).toBe('sync');
    expect(audit?.details.changes).toEqual([
      {
        serviceId: shop.serviceId,
        name: expect.any(String),
        before: { cost: '1123.94', rate: '1685.91', enabled: true },
        after: { cost: (Number(cost) / 100).toFixed(2), rate: (Number(priceWithMarkup(cost, 50n)) / 100).toFixed(2), enabled: true },
      },
    ]);
  });

  it('holds a 50% jump: no price moves until an administrator accepts it, and accepting reprices at once', async () => {
    const shop = await shopInOwnCurrency();
    const before = await serviceRow(shop.serviceId);

    await shop.quote('3'); // +50%
    const refreshed = await shop.refresh();
    expect(refreshed.held).toEqual([{ currency: shop.currency, rate: '2.000000', proposedRate: '3.000000', changePercent: '+50.00' }]);
    expect(await rateRow(shop.currency)).toMatchObject({ perUsdMicros: 2_000_000n, proposedPerUsdMicros: 3_000_000n });
    const warnings = await call('admin/services/warnings?kind=rate_proposed&acknowledged=false&limit=100', { token: shop.token });
    expect(warnings.body.data.some((w: { message: string }) => w.message.includes(`${shop.currency} 2.000000 → 3.000000 (+50.00%)`))).toBe(true);
    // The feed repeating the proposal tells no one again.
    await shop.refresh();
    const again = await call('admin/services/warnings?kind=rate_proposed&acknowledged=false&limit=100', { token: shop.token });
    expect(again.body.data.filter((w: { message: string }) => w.message.includes(`${shop.currency} `))).toHaveLength(1);

    await shop.sync();
    expect(await serviceRow(shop.serviceId)).toMatchObject({ costKobo: before.costKobo, rateKobo: before.rateKobo, enabled: true });

    const listed = await call('admin/services/rates', { token: shop.token });
    expect(listed.body.data.bandPercent).toBe('10.00');
    expect(listed.body.data.rates.find((r: { currency: string }) => r.currency === shop.currency)).toMatchObject({
      rate: '2.000000',
      proposedRate: '3.000000',
      changePercent: '+50.00',
      proposedAt: expect.any(String),
    });

    const stale = await call(`admin/services/rates/${shop.currency}/accept`, { token: shop.token, body: { rate: '2.9' } });
    expect(stale).toMatchObject({ status: 409, body: { message: `The proposed ${shop.currency} rate is now 3.000000; look at it again`, error: 'Conflict' } });
    expect(await serviceRow(shop.serviceId)).toMatchObject({ rateKobo: before.rateKobo });

    const accepted = await call(`admin/services/rates/${shop.currency.toLowerCase()}/accept`, { token: shop.token, body: { rate: '3.000000' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ currency: shop.currency, rate: '3.000000', proposedRate: null, repriced: 1 });
    const cost = costAt(1_450_000n, 3_000_000n);
    expect(await serviceRow(shop.serviceId)).toMatchObject({ costKobo: cost, rateKobo: priceWithMarkup(cost, 50n) });
    expect(await rateRow(shop.currency)).toMatchObject({ perUsdMicros: 3_000_000n, proposedPerUsdMicros: null });

    const audit = await latestReprice('exchange_rate', shop.currency);
    expect(audit).toMatchObject({ actorId: shop.admin.id, details: { cause: 'rate', rate: { before: '2.000000', after: '3.000000' } } });
    expect(audit!.details.changes).toEqual([
      expect.objectContaining({
        serviceId: shop.serviceId,
        before: { cost: '1123.94', rate: '1685.91', enabled: true },
        after: { cost: (Number(cost) / 100).toFixed(2), rate: (Number(priceWithMarkup(cost, 50n)) / 100).toFixed(2), enabled: true },
      }),
    ]);
    expect(await call(`admin/services/rates/${shop.currency}/accept`, { token: shop.token, body: { rate: '3' } })).toMatchObject({
      status: 409,
      body: { message: `No new ${shop.currency} rate is waiting for review` },
    });
  });

  it('keeps the old rate and prices when a held rate is rejected, and asks again only when the feed says something else', async () => {
    const shop = await shopInOwnCurrency();
    const before = await serviceRow(shop.serviceId);

    await shop.quote('1'); // -50%: costs would halve, prices with them
    expect((await shop.refresh()).held).toHaveLength(1);
    // The guard prices at the last good rate, never under the cost there.
    await shop.sync();
    expect(await serviceRow(shop.serviceId)).toMatchObject({ costKobo: before.costKobo, rateKobo: before.rateKobo });

    const rejected = await call(`admin/services/rates/${shop.currency}/reject`, { token: shop.token, body: { rate: '1' } });
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(rejected.body.data).toMatchObject({ rate: '2.000000', proposedRate: null });
    expect(await rateRow(shop.currency)).toMatchObject({ perUsdMicros: 2_000_000n, proposedPerUsdMicros: null });
    const [audit] = await auditEntries({ action: 'rate.reject', targetId: shop.currency });
    expect(audit).toMatchObject({ actorId: shop.admin.id, details: { rate: '2.000000', rejectedRate: '1.000000' } });

    expect((await shop.refresh()).held).toEqual([]);
    expect(await rateRow(shop.currency)).toMatchObject({ perUsdMicros: 2_000_000n, proposedPerUsdMicros: null });
    await shop.sync();
    expect(await serviceRow(shop.serviceId)).toMatchObject({ costKobo: before.costKobo, rateKobo: before.rateKobo });

    await shop.quote('0.9');
    expect((await shop.refresh()).held).toEqual([expect.objectContaining({ proposedRate: '0.900000', changePercent: '-55.00' })]);
    // A rate back within the band ends the proposal.
    await shop.quote('2.05');
    expect((await shop.refresh()).held).toEqual([]);
    expect(await rateRow(shop.currency)).toMatchObject({ perUsdMicros: 2_050_000n, proposedPerUsdMicros: null });
  });

  it('lets an administrator widen the band', async () => {
    const shop = await shopInOwnCurrency();
    expect(await call('admin/services/settings', { method: 'PUT', token: shop.token, body: { rateBandPercent: '0' } })).toMatchObject({
      status: 400,
      body: { message: 'rateBandPercent must be more than 0' },
    });
    expect(await call('admin/services/settings', { method: 'PUT', token: shop.token, body: { providerPriceFactor: '1' } })).toMatchObject({
      status: 400,
      body: { message: 'providerPriceFactor must be a factor above 1 and at most 100, with at most 2 decimals' },
    });
    // The setting is global, so it is widened through the API and restored at once.
    const widened = await call('admin/services/settings', { method: 'PUT', token: shop.token, body: { rateBandPercent: '60' } });
    try {
      expect(widened.body.data).toMatchObject({ rateBandPercent: '60.00', providerPriceFactor: '3.00' });
      await shop.quote('3');
      expect((await shop.refresh()).held).toEqual([]);
    } finally {
      await call('admin/services/settings', { method: 'PUT', token: shop.token, body: { rateBandPercent: '10' } });
    }
    expect(await rateRow(shop.currency)).toMatchObject({ perUsdMicros: 3_000_000n });
  });
});

describe('provider prices the sync does not believe', () => {
  it('switches a service whose provider price became 0 off, its price kept, until an administrator accepts the new price', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes, FAKE.igFollowers] });
    const token = shop.admin.accessToken;
    const likes = shop.serviceIds[FAKE.igLikes];
    const before = await serviceRow(likes);

    await shop.fake.post('/__control', { setRate: { service: FAKE.igLikes, rate: '0' } });
    await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(await serviceRow(likes)).toMatchObject({
      enabled: false,
      disabledReason: 'provider_price',
      proposedProviderRateMicros: 0n,
      providerRateMicros: 320_000n,
      costKobo: before.costKobo,
      rateKobo: before.rateKobo,
    });
    expect(await serviceRow(shop.serviceIds[FAKE.igFollowers])).toMatchObject({ enabled: true, proposedProviderRateMicros: null });
    expect((await call(`services?search=${likes}`)).body.data.some((s: { id: number }) => s.id === likes)).toBe(false);
    const warnings = await withDb((db) =>
      db
        .select()
        .from(catalogueWarnings)
        .where(and(eq(catalogueWarnings.serviceId, likes), eq(catalogueWarnings.kind, 'provider_price_suspect'))),
    );
    expect(warnings).toEqual([
      expect.objectContaining({ message: expect.stringMatching(/the provider now asks 0, was 0\.320000 USD per 1000; the price NGN\s[\d,]+\.\d\d was kept/) }),
    ]);
    const audit = await latestReprice('provider', String(shop.providerId));
    expect(audit!.details.changes).toEqual([
      expect.objectContaining({ serviceId: likes, after: expect.objectContaining({ enabled: false }), note: 'provider price held for review' }),
    ]);

    // Switching it on is refused while the price is held; a second sync repeats nothing.
    expect((await call('admin/services/bulk', { token, body: { ids: [likes], action: 'enable' } })).body).toMatchObject({ updated: 0, skipped: [likes] });
    expect(await call(`admin/services/${likes}`, { method: 'PUT', token, body: { enabled: true } })).toMatchObject({
      status: 400,
      body: { message: "The provider's new price for this service is held for review; accept it before switching the service on" },
    });
    await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(
      await withDb((db) =>
        db
          .select()
          .from(catalogueWarnings)
          .where(and(eq(catalogueWarnings.serviceId, likes), eq(catalogueWarnings.kind, 'provider_price_suspect'))),
      ),
    ).toHaveLength(1);

    const held = await call('admin/services/held-prices?limit=100', { token });
    expect(held.body.data.find((entry: { serviceId: number }) => entry.serviceId === likes)).toMatchObject({
      providerRate: '0.320000',
      proposedProviderRate: '0.000000',
      changePercent: '-100.00',
      newCost: '0.00',
      newRate: '0.01',
      enabled: false,
      disabledReason: 'provider_price',
    });
    // Accepted but left off: the administrator sets a price before selling it.
    const accepted = await call(`admin/services/${likes}/provider-price/accept`, { token, body: { providerRate: '0', enable: false } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(accepted.body.data).toMatchObject({ providerRate: '0.000000', proposedProviderRate: null, cost: '0.00', enabled: false, disabledReason: 'admin' });
    expect(
      await withDb((db) =>
        db
          .select()
          .from(catalogueWarnings)
          .where(and(eq(catalogueWarnings.serviceId, likes), eq(catalogueWarnings.kind, 'provider_price_suspect'))),
      ),
    ).toEqual([expect.objectContaining({ acknowledgedBy: shop.admin.id })]);
    // Accepted, 0 is the price the sync compares with: it stays as the administrator left it.
    await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(await serviceRow(likes)).toMatchObject({ enabled: false, disabledReason: 'admin', proposedProviderRateMicros: null });
  });

  it('holds a price more than 3× away; accepting it reprices and switches the service back on, audited', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igFollowers] });
    const token = shop.admin.accessToken;
    const id = shop.serviceIds[FAKE.igFollowers];
    const before = await serviceRow(id);

    await shop.fake.post('/__control', { setRate: { service: FAKE.igFollowers, rate: '5.00' } }); // 3.45×
    const result = await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(result).toMatchObject({ held: 1, updated: 1 });
    expect(await serviceRow(id)).toMatchObject({
      enabled: false,
      disabledReason: 'provider_price',
      proposedProviderRateMicros: 5_000_000n,
      rateKobo: before.rateKobo,
      costKobo: before.costKobo,
    });

    expect(await call(`admin/services/${id}/provider-price/accept`, { token, body: { providerRate: '4.99' } })).toMatchObject({
      status: 409,
      body: { message: 'The held provider price is now 5.000000 USD; look at it again' },
    });
    const accepted = await call(`admin/services/${id}/provider-price/accept`, { token, body: { providerRate: '5.00' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    const cost = costKobo(5_000_000n);
    expect(await serviceRow(id)).toMatchObject({
      enabled: true,
      disabledReason: null,
      providerRateMicros: 5_000_000n,
      proposedProviderRateMicros: null,
      costKobo: cost,
      rateKobo: priceWithMarkup(cost, 50n),
    });
    const [audit] = await auditEntries({ action: 'service.provider_price_accept', targetId: id });
    expect(audit).toMatchObject({
      actorId: shop.admin.id,
      details: {
        providerRate: { before: '1.450000', after: '5.000000' },
        change: {
          before: { rate: (Number(before.rateKobo) / 100).toFixed(2), enabled: false },
          after: { rate: (Number(priceWithMarkup(cost, 50n)) / 100).toFixed(2), enabled: true },
        },
      },
    });
    // The accepted price is now the one the sync compares with.
    expect(await withDb((db) => syncProviderCatalogue(db, env, shop.providerId))).toMatchObject({ held: 0, updated: 0 });
  });

  it('releases a held service when its provider price comes back to a believable one', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const likes = shop.serviceIds[FAKE.igLikes];
    const before = await serviceRow(likes);
    await shop.fake.post('/__control', { setRate: { service: FAKE.igLikes, rate: '0.05' } }); // 6.4× down
    await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(await serviceRow(likes)).toMatchObject({ enabled: false, proposedProviderRateMicros: 50_000n, rateKobo: before.rateKobo });

    await shop.fake.post('/__control', { setRate: { service: FAKE.igLikes, rate: '0.35' } });
    const back = await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
    expect(back).toMatchObject({ restored: 1, held: 0 });
    const cost = costKobo(350_000n);
    expect(await serviceRow(likes)).toMatchObject({
      enabled: true,
      disabledReason: null,
      proposedProviderRateMicros: null,
      costKobo: cost,
      rateKobo: priceWithMarkup(cost, 50n),
    });
  });

  it('holds a service the provider lists without a readable price, and keeps selling the others', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes, FAKE.igFollowers] });
    const likes = shop.serviceIds[FAKE.igLikes];
    const before = await serviceRow(likes);
    const realFetch = globalThis.fetch;
    // The panel's answer, with the price of one entry replaced by text no one can read.
    const spy = vi.spyOn(globalThis, 'fetch').mockImplementation(async (input, init) => {
      const response = await realFetch(input, init);
      if (!String(input).startsWith(shop.fake.url) || !(init?.body instanceof URLSearchParams) || init.body.get('action') !== 'services') return response;
      const list = (await response.json()) as Array<Record<string, unknown>>;
      return Response.json(list.map((entry) => (String(entry.service) === FAKE.igLikes ? { ...entry, rate: 'N/A' } : entry)));
    });
    try {
      const result = await withDb((db) => syncProviderCatalogue(db, env, shop.providerId));
      expect(result).toMatchObject({ held: 1, missing: 0 });
    } finally {
      spy.mockRestore();
    }
    expect(await serviceRow(likes)).toMatchObject({
      enabled: false,
      disabledReason: 'provider_price',
      proposedProviderRateMicros: null,
      rateKobo: before.rateKobo,
      costKobo: before.costKobo,
    });
    expect(await serviceRow(shop.serviceIds[FAKE.igFollowers])).toMatchObject({ enabled: true });
    const held = await call('admin/services/held-prices?limit=100', { token: shop.admin.accessToken });
    expect(held.body.data.find((entry: { serviceId: number }) => entry.serviceId === likes)).toMatchObject({ proposedProviderRate: null, newRate: null });
    // Nothing to accept until the provider gives a price; when it gives the old one, the service is back.
    expect(await call(`admin/services/${likes}/provider-price/accept`, { token: shop.admin.accessToken, body: { providerRate: '0.32' } })).toMatchObject({
      status: 409,
      body: { message: 'No new provider price is held for this service' },
    });
    expect(await withDb((db) => syncProviderCatalogue(db, env, shop.providerId))).toMatchObject({ restored: 1 });
  });
});

describe('the audit of automatic price moves', () => {
  it("keeps one row per repricing with every service's before and after, listed 50 at a time and read in full", async () => {
    const admin = await createAdmin();
    const { categoryId, ids } = await withDb(async (db) => {
      const [provider] = await db
        .insert(providers)
        .values({ name: unique('audit-panel'), apiUrl: 'http://127.0.0.1:9/api/v2', apiKeyEncrypted: 'v1.x.y' })
        .returning();
      const [category] = await db
        .insert(serviceCategories)
        .values({ name: unique('Audit Category ') })
        .returning();
      const rows = await db
        .insert(services)
        .values(
          Array.from({ length: 60 }, (_, i) => ({
            providerId: provider.id,
            providerServiceId: String(i + 1),
            name: `Audited #${i}`,
            categoryId: category.id,
            providerRateMicros: 1_000_000n,
            costKobo: 155_025n,
            rateKobo: 232_538n,
            min: 10,
            max: 1000,
            providerMin: 10,
            providerMax: 1000,
          })),
        )
        .returning({ id: services.id });
      return { categoryId: category.id, ids: rows.map((row) => row.id) };
    });
    const updated = await call(`admin/services/categories/${categoryId}`, { method: 'PUT', token: admin.accessToken, body: { markupPercent: '60' } });
    expect(updated.status, JSON.stringify(updated.body)).toBe(200);

    const audit = await latestReprice('category', String(categoryId));
    expect(audit).toMatchObject({ actorId: admin.id, details: { cause: 'rules', services: 60 } });
    expect(audit!.details.changes).toHaveLength(60);
    expect(audit!.details.changes[0]).toEqual({
      serviceId: ids[0],
      name: 'Audited #0',
      before: { cost: '1550.25', rate: '2325.38', enabled: true },
      after: { cost: '1550.25', rate: '2480.40', enabled: true },
    });
    const listed = await call(`admin/audit?action=catalogue&actorId=${admin.id}&limit=100`, { token: admin.accessToken });
    const entry = listed.body.data.find((row: { id: number }) => row.id === audit!.id);
    expect(entry.details).toMatchObject({ services: 60, cause: 'rules' });
    expect(entry.details.changes).toHaveLength(50);
    const full = await call(`admin/audit/${audit!.id}`, { token: admin.accessToken });
    expect(full.body.data.details.changes).toHaveLength(60);
    expect(await call('admin/audit/999999999', { token: admin.accessToken })).toMatchObject({ status: 404, body: { message: 'Audit entry not found' } });
  });
});

// Who may call these is admin-access.test.ts's, as for every administrators' call.
describe('price review input', () => {
  it('validates input', async () => {
    const shop = await newShop({ serviceIds: [FAKE.igLikes] });
    const token = shop.admin.accessToken;
    expect(await call('admin/services/rates/NAIRA/accept', { token, body: { rate: '1' } })).toMatchObject({
      status: 400,
      body: { message: 'currency must be a 3-letter code' },
    });
    expect(await call('admin/services/rates/NGN/accept', { token, body: { rate: '1.5e3' } })).toMatchObject({
      status: 400,
      body: { message: 'rate must be a number with at most 6 decimals' },
    });
    expect(await call('admin/services/rates/NGN/reject', { token, body: { rate: '1550.25' } })).toMatchObject({
      status: 409,
      body: { message: 'No new NGN rate is waiting for review' },
    });
    expect(await call(`admin/services/${shop.serviceIds[FAKE.igLikes]}/provider-price/accept`, { token, body: { providerRate: '-1' } })).toMatchObject({
      status: 400,
      body: { message: 'providerRate must be a number with at most 6 decimals' },
    });
  });
});
