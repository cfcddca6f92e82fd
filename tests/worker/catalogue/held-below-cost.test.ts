// While an exchange rate is held for review, a service whose price would be under its cost at the
// held rate stops selling until the review (disabled reason 'held_below_cost'), and one whose price
// still covers that cost keeps selling; accepting reprices and reopens, rejecting reopens at the old
// price. The catalogue sync and an accepted provider price are judged against the held rate too.
// Exchange rates are one table for every test file running at once, so each test prices its
// provider in a currency of its own ("XHA", "XHB", ...) that only its private copy of the rates
// fake quotes, and moves it further than any band another file may set for a while (60%).
import { env } from 'cloudflare:test';
import { and, eq } from 'drizzle-orm';
import { describe, expect, inject, it } from 'vitest';
import { catalogueWarnings, services } from '../../../drizzle/schema';
import { formatNaira, koboToNaira } from '../../../worker/lib/decimal';
import { SERVICE_UNAVAILABLE } from '../../../worker/schemas/order-constants';
import { syncProviderCatalogue } from '../../../worker/services/catalogue/catalogue-sync';
import { refreshRates } from '../../../worker/services/catalogue/rates';
import { auditEntries, call, createAdmin, type TestAccount, unique, withDb } from '../../support/api';
import { newLink, placeOrder } from '../fixtures/order-fixtures';
import { FAKE, SMM_API_KEY } from '../fixtures/shop-fixtures';
import { fundedUser } from '../fixtures/wallet-fixtures';
import { fakeScope } from '../providers/fake-scope';

const ceilDiv = (a: bigint, b: bigint) => (a + b - 1n) / b;
const priceWithMarkup = (cost: bigint, percent: bigint) => ceilDiv(cost * (100n + percent), 100n);
/** The fake feed's naira: 1550.25 per USD, at scale 6. */
const NGN_MICROS = 1_550_250_000n;
/** The provider's currency as first quoted (2 per USD) and as the held proposal (0.5: -75%, costs ×4). */
const ACCEPTED = 2_000_000n;
const HELD = 500_000n;
/** Kobo per 1000 for a provider price in micro-units of a currency quoted at `perUsdMicros`, rounded up as the shop converts. */
const costAt = (providerMicros: bigint, perUsdMicros: bigint) => ceilDiv(providerMicros * NGN_MICROS * 100n, perUsdMicros * 1_000_000n);

let currencies = 0;
/** A currency code no other test quotes. */
function ownCurrency(): string {
  currencies += 1;
  return `XH${String.fromCharCode(64 + currencies)}`;
}

async function serviceRow(id: number) {
  const [row] = await withDb((db) => db.select().from(services).where(eq(services.id, id)));
  return row;
}

/** Whether the public catalogue lists the service (searched by its own unique name). */
async function listed(service: { id: number; name: string }): Promise<boolean> {
  const answer = await call(`services?search=${encodeURIComponent(service.name)}&limit=100`);
  expect(answer.status).toBe(200);
  return answer.body.data.some((row: { id: number }) => row.id === service.id);
}

const warningsAbout = (serviceId: number) =>
  withDb((db) =>
    db
      .select()
      .from(catalogueWarnings)
      .where(and(eq(catalogueWarnings.serviceId, serviceId), eq(catalogueWarnings.kind, 'rate_proposed'))),
  );

/**
 * A provider pricing in a currency of its own, quoted 2 per USD by a private copy of the rates fake
 * (its first rate, taken without review), with the fake services asked for imported at 12% and
 * renamed to names of their own (for the public search); `edit` changes one as an administrator.
 */
async function shopInOwnCurrency(fakeServices: string[]) {
  const currency = ownCurrency();
  const rates = fakeScope(inject('ratesUrl'));
  const quote = (rate: string) => rates.post('/__control', { currency, rate });
  const refresh = () => withDb((db) => refreshRates(db, { RATES_API_URL: rates.url }));
  await quote('2');
  expect((await refresh()).held).toEqual([]);
  const admin = await createAdmin();
  const token = admin.accessToken;
  const fake = fakeScope(inject('smmProviderUrl'));
  const created = await call('admin/providers', {
    token,
    body: { name: unique('panel'), apiUrl: `${fake.url}/api/v2`, apiKey: SMM_API_KEY, currency, timeoutMs: 2000 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const providerId = created.body.data.id as number;
  const imported = await call(`admin/providers/${providerId}/import`, { token, body: { serviceIds: fakeServices, markupPercent: '12' } });
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  const edit = async (id: number, body: Record<string, unknown>) => {
    const edited = await call(`admin/services/${id}`, { method: 'PUT', token, body });
    expect(edited.status, JSON.stringify(edited.body)).toBe(200);
  };
  const byFake: Record<string, { id: number; name: string }> = {};
  for (const result of imported.body.results as Array<{ service: string; serviceId: number }>) {
    const name = unique('Held price service ');
    await edit(result.serviceId, { name });
    byFake[result.service] = { id: result.serviceId, name };
  }
  const decide = (decision: 'accept' | 'reject', rate: string) => call(`admin/services/rates/${currency}/${decision}`, { token, body: { rate } });
  const sync = () => withDb((db) => syncProviderCatalogue(db, env, providerId));
  return { currency, admin, token, fake, providerId, services: byFake, quote, refresh, decide, edit, sync };
}

const order = (user: TestAccount, serviceId: number, expectedCharge?: bigint) =>
  placeOrder(user, { serviceId, link: newLink(), quantity: 1000, ...(expectedCharge !== undefined && { expectedCharge: koboToNaira(expectedCharge) }) });

describe('a service that would sell under cost at a held exchange rate', () => {
  it('stops selling while the rate is held, the others keep selling, and accepting reprices and reopens it', async () => {
    const shop = await shopInOwnCurrency([FAKE.igFollowers, FAKE.igLikes, FAKE.xPoll]);
    const thin = shop.services[FAKE.igFollowers]; // 12%: under cost at 4× the cost
    const fat = shop.services[FAKE.igLikes];
    const off = shop.services[FAKE.xPoll];
    await shop.edit(fat.id, { markupPercent: '400' }); // 5× the cost: still over it at 4×
    await shop.edit(off.id, { enabled: false });
    const thinBefore = await serviceRow(thin.id);
    expect(thinBefore).toMatchObject({ costKobo: costAt(1_450_000n, ACCEPTED), rateKobo: priceWithMarkup(costAt(1_450_000n, ACCEPTED), 12n), enabled: true });
    const user = await fundedUser(10_000_000n);

    await shop.quote('0.5');
    expect((await shop.refresh()).held).toEqual([expect.objectContaining({ currency: shop.currency, proposedRate: '0.500000' })]);

    // Off with its price and cost as they were, in the same transaction as the hold.
    expect(await serviceRow(thin.id)).toMatchObject({
      enabled: false,
      disabledReason: 'held_below_cost',
      rateKobo: thinBefore.rateKobo,
      costKobo: thinBefore.costKobo,
    });
    expect(await serviceRow(fat.id)).toMatchObject({ enabled: true, disabledReason: null });
    expect(await serviceRow(off.id)).toMatchObject({ enabled: false, disabledReason: 'admin' });
    const heldCost = costAt(1_450_000n, HELD);
    expect(await warningsAbout(thin.id)).toEqual([
      expect.objectContaining({
        message: expect.stringContaining(`${thin.name} (#${thin.id}: ${formatNaira(thinBefore.rateKobo)}, cost ${formatNaira(heldCost)})`),
        details: { stopped: [{ serviceId: thin.id, name: thin.name, rate: koboToNaira(thinBefore.rateKobo), heldCost: koboToNaira(heldCost) }] },
      }),
    ]);
    expect(await warningsAbout(fat.id)).toEqual([]);
    const stop = (await auditEntries({ action: 'catalogue.reprice', targetType: 'exchange_rate', targetId: shop.currency })).at(-1);
    expect((stop!.details as { changes: unknown[] }).changes).toEqual([
      expect.objectContaining({ serviceId: thin.id, before: expect.objectContaining({ enabled: true }), after: expect.objectContaining({ enabled: false }) }),
    ]);

    expect(await listed(thin)).toBe(false);
    expect(await listed(fat)).toBe(true);
    expect(await order(user, thin.id)).toMatchObject({ status: 400, body: { message: SERVICE_UNAVAILABLE } });
    expect((await order(user, fat.id)).status).toBe(201);

    // An administrator cannot switch it back on by hand while the rate is held, alone or in bulk.
    const byHand = await call(`admin/services/${thin.id}`, { method: 'PUT', token: shop.token, body: { enabled: true } });
    expect(byHand).toMatchObject({ status: 400, body: { message: expect.stringContaining('would sell below cost') } });
    const inBulk = await call('admin/services/bulk', { token: shop.token, body: { ids: [thin.id], action: 'enable' } });
    expect(inBulk.body.data ?? inBulk.body).toMatchObject({ skipped: [thin.id] });
    expect(await serviceRow(thin.id)).toMatchObject({ enabled: false, disabledReason: 'held_below_cost' });

    // The feed repeating the proposal decides nothing again and tells no one again.
    await shop.refresh();
    expect(await serviceRow(thin.id)).toMatchObject({ enabled: false, disabledReason: 'held_below_cost' });
    expect(await warningsAbout(thin.id)).toHaveLength(1);

    const accepted = await shop.decide('accept', '0.5');
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await serviceRow(thin.id)).toMatchObject({
      enabled: true,
      disabledReason: null,
      costKobo: heldCost,
      rateKobo: priceWithMarkup(heldCost, 12n),
    });
    expect(await serviceRow(off.id)).toMatchObject({ enabled: false, disabledReason: 'admin' });
    expect(await listed(thin)).toBe(true);
    const placed = await order(user, thin.id, priceWithMarkup(heldCost, 12n));
    expect(placed.status, JSON.stringify(placed.body)).toBe(201);
    expect(placed.body.data.charge).toBe(koboToNaira(priceWithMarkup(heldCost, 12n)));
  });

  it('sells again at its old price when the held rate is rejected, or when the feed drops the proposal', async () => {
    const shop = await shopInOwnCurrency([FAKE.igFollowers]);
    const thin = shop.services[FAKE.igFollowers];
    const before = await serviceRow(thin.id);
    const user = await fundedUser(10_000_000n);

    await shop.quote('0.5');
    await shop.refresh();
    expect(await serviceRow(thin.id)).toMatchObject({ enabled: false, disabledReason: 'held_below_cost' });

    const rejected = await shop.decide('reject', '0.5');
    expect(rejected.status, JSON.stringify(rejected.body)).toBe(200);
    expect(await serviceRow(thin.id)).toMatchObject({ enabled: true, disabledReason: null, rateKobo: before.rateKobo, costKobo: before.costKobo });
    expect(await listed(thin)).toBe(true);
    expect((await order(user, thin.id, before.rateKobo)).status).toBe(201);
    const reopen = (await auditEntries({ action: 'catalogue.reprice', targetType: 'exchange_rate', targetId: shop.currency })).at(-1);
    expect(reopen).toMatchObject({ actorId: shop.admin.id, details: { cause: 'rate', changes: [expect.objectContaining({ serviceId: thin.id })] } });

    // The rejected rate again is no proposal; another one is, and the feed going back within the band ends it.
    await shop.refresh();
    expect(await serviceRow(thin.id)).toMatchObject({ enabled: true });
    await shop.quote('0.45');
    expect((await shop.refresh()).held).toHaveLength(1);
    expect(await serviceRow(thin.id)).toMatchObject({ enabled: false, disabledReason: 'held_below_cost' });
    await shop.quote('2.1');
    expect((await shop.refresh()).held).toEqual([]);
    expect(await serviceRow(thin.id)).toMatchObject({ enabled: true, disabledReason: null, rateKobo: before.rateKobo });
  });

  it('decides to the kobo: a price equal to the cost at the held rate keeps selling, one kobo under stops', async () => {
    const shop = await shopInOwnCurrency([FAKE.igFollowersNoRefill, FAKE.igComments]);
    const even = shop.services[FAKE.igFollowersNoRefill];
    const under = shop.services[FAKE.igComments];
    const evenPrice = costAt(850_000n, HELD);
    const underPrice = costAt(6_500_000n, HELD) - 1n;
    await shop.edit(even.id, { rate: koboToNaira(evenPrice) });
    await shop.edit(under.id, { rate: koboToNaira(underPrice) });

    await shop.quote('0.5');
    await shop.refresh();
    expect(await serviceRow(even.id)).toMatchObject({ enabled: true, rateKobo: evenPrice });
    expect(await serviceRow(under.id)).toMatchObject({ enabled: false, disabledReason: 'held_below_cost', rateKobo: underPrice });
  });
});

describe('provider prices while an exchange rate is held', () => {
  it('stops a service the sync would price under the held cost, reopens it when the provider price falls back, and judges an accepted provider price the same way', async () => {
    const shop = await shopInOwnCurrency([FAKE.igLikes]);
    const likes = shop.services[FAKE.igLikes];
    const token = shop.token;
    // A fixed ₦1,500.00: over the held cost of the provider's $0.32 (4 × ₦248.04), under that of $0.64.
    await shop.edit(likes.id, { rate: '1500.00' });
    await shop.quote('0.5');
    await shop.refresh();
    expect(await serviceRow(likes.id)).toMatchObject({ enabled: true });

    await shop.fake.post('/__control', { setRate: { service: FAKE.igLikes, rate: '0.64' } }); // 2×: believable
    expect(await shop.sync()).toMatchObject({ stopped: 1 });
    expect(await serviceRow(likes.id)).toMatchObject({
      enabled: false,
      disabledReason: 'held_below_cost',
      providerRateMicros: 640_000n,
      costKobo: costAt(640_000n, ACCEPTED),
      rateKobo: 150_000n,
    });
    expect(await warningsAbout(likes.id)).toEqual([
      expect.objectContaining({ message: expect.stringContaining(`cost ${formatNaira(costAt(640_000n, HELD))}`) }),
    ]);
    // A second sync at the same price changes nothing and tells no one again.
    expect(await shop.sync()).toMatchObject({ stopped: 0, updated: 0 });

    await shop.fake.post('/__control', { setRate: { service: FAKE.igLikes, rate: '0.32' } });
    expect(await shop.sync()).toMatchObject({ restored: 1, stopped: 0 });
    expect(await serviceRow(likes.id)).toMatchObject({ enabled: true, disabledReason: null, costKobo: costAt(320_000n, ACCEPTED) });

    // A provider price the sync does not believe is held (and the service off for it) as ever ...
    await shop.fake.post('/__control', { setRate: { service: FAKE.igLikes, rate: '1.20' } }); // 3.75×
    expect(await shop.sync()).toMatchObject({ held: 1 });
    expect(await serviceRow(likes.id)).toMatchObject({ enabled: false, disabledReason: 'provider_price', proposedProviderRateMicros: 1_200_000n });
    // ... and once accepted, it sells only if its price covers the cost at the rate still held.
    const accepted = await call(`admin/services/${likes.id}/provider-price/accept`, { token, body: { providerRate: '1.20' } });
    expect(accepted.status, JSON.stringify(accepted.body)).toBe(200);
    expect(await serviceRow(likes.id)).toMatchObject({
      enabled: false,
      disabledReason: 'held_below_cost',
      providerRateMicros: 1_200_000n,
      proposedProviderRateMicros: null,
      costKobo: costAt(1_200_000n, ACCEPTED),
      rateKobo: 150_000n,
    });
    expect(await listed(likes)).toBe(false);

    expect((await shop.decide('reject', '0.5')).status).toBe(200);
    expect(await serviceRow(likes.id)).toMatchObject({ enabled: true, disabledReason: null, rateKobo: 150_000n });
    expect(await listed(likes)).toBe(true);
  });
});
