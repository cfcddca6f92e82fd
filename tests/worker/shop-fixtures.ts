// Shared setup for the catalogue, order and sync tests: a provider of our own pointing at a
// private copy of the fake SMM panel (its /__scope), services imported from it, funded users
// (wallet-fixtures.ts) with orders (order-fixtures.ts). Every test builds what it needs, so test
// files running in parallel never share a provider.
import { eq } from 'drizzle-orm';
import { expect, inject } from 'vitest';
import { catalogueVersion, services } from '../../drizzle/schema';
import { call, countingDatabaseWork, createAdmin, type TestAccount, unique, withDb } from '../support/api';
import { newLink, placeSubmittedOrder } from './order-fixtures';
import { type FakeScope, fakeScope } from './providers/fake-scope';
import { fundedUser } from './wallet-fixtures';

export const SMM_API_KEY = inject('smmApiKey');

/** Fake catalogue services the tests use (see local/fakes/smm-catalogue.ts). */
export const FAKE = {
  igFollowers: '1021', // Default, $1.45, 100..100000, refill + cancel
  igFollowersNoRefill: '1022', // Default, $0.85, 50..20000, cancel
  igLikes: '1031', // Default, $0.32, 50..50000, drip-feed
  igComments: '1051', // Custom Comments, $6.50, 5..500, cancel
  igMentionsFollowers: '1062', // Mentions User Followers, $3.20, 1000..100000
  igAutoLikes: '1071', // Subscriptions, $0.40, 50..20000
  tiktokViews: '2031', // Default, $0.012, 100..100000000, drip-feed
  xPoll: '4041', // Poll, $2.40, 100..20000
  ytWatchTime: '3041', // Package, $45.00, 1..1
} as const;

/** The fake rates service's NGN per USD: 1550.25. */
export const NGN_PER_USD_CENTS = 155_025n;

/** Cost in kobo per 1000 for a USD rate given in micro-dollars, rounded up (as the shop converts). */
export function costKobo(rateMicros: bigint): bigint {
  // kobo = micros / 1e6 × 1550.25 × 100 = micros × 155025 / 1e6
  const product = rateMicros * NGN_PER_USD_CENTS;
  return (product + 999_999n) / 1_000_000n;
}

export interface Shop {
  admin: TestAccount;
  fake: FakeScope;
  providerId: number;
  /** Our service id per fake service id. */
  serviceIds: Record<string, number>;
}

/** A provider on a fresh fake scope with the given fake services imported at `markupPercent`. */
export async function newShop(options: { markupPercent?: string; timeoutMs?: number; serviceIds?: string[]; admin?: TestAccount } = {}): Promise<Shop> {
  const admin = options.admin ?? (await createAdmin());
  const fake = fakeScope(inject('smmProviderUrl'));
  const created = await call('admin/providers', {
    token: admin.accessToken,
    body: { name: unique('panel'), apiUrl: `${fake.url}/api/v2`, apiKey: SMM_API_KEY, timeoutMs: options.timeoutMs ?? 2000 },
  });
  expect(created.status, JSON.stringify(created.body)).toBe(201);
  const providerId = created.body.data.id as number;
  const wanted = options.serviceIds ?? Object.values(FAKE);
  const imported = await call(`admin/providers/${providerId}/import`, {
    token: admin.accessToken,
    body: { serviceIds: wanted, markupPercent: options.markupPercent ?? '50' },
  });
  expect(imported.status, JSON.stringify(imported.body)).toBe(200);
  const serviceIds: Record<string, number> = {};
  for (const result of imported.body.results) serviceIds[result.service] = result.serviceId;
  return { admin, fake, providerId, serviceIds };
}

export async function rateKoboOf(serviceId: number): Promise<bigint> {
  const [row] = await withDb((db) => db.select({ rateKobo: services.rateKobo }).from(services).where(eq(services.id, serviceId)));
  return row.rateKobo;
}

/** A shop selling one fake service, our id for that service, and a user with `walletKobo` (`funded`) in their wallet. */
export async function shopSelling(fakeService: string, options: { walletKobo?: bigint; timeoutMs?: number } = {}) {
  const shop = await newShop({ serviceIds: [fakeService], timeoutMs: options.timeoutMs });
  const funded = options.walletKobo ?? 10_000_000n;
  return { shop, serviceId: shop.serviceIds[fakeService], user: await fundedUser(funded), funded };
}

/** shopSelling's shop and user (its fake first switched by `control`, when given), and their order once the queue has submitted it. */
export async function newShopWithOrder(
  fakeService: string,
  options: { walletKobo?: bigint; quantity?: number; control?: Record<string, unknown>; timeoutMs?: number } = {},
) {
  const { shop, serviceId, user } = await shopSelling(fakeService, options);
  if (options.control) await shop.fake.post('/__control', options.control);
  const order = (await placeSubmittedOrder(user, { serviceId, link: newLink(), quantity: options.quantity ?? 1000 })).body.data;
  return { shop, user, order };
}

export const catalogueVersionNow = () => withDb((db) => db.select({ version: catalogueVersion.version }).from(catalogueVersion)).then(([row]) => row.version);

/**
 * The database work of a public list call made while the catalogue stood still since the call before
 * it: the isolate's copy of the list is loaded again (a second round trip) only after a change, which
 * other test files make at any time, so a try the catalogue moved during is taken again.
 */
export async function listCallWork(path: string) {
  for (let attempt = 0; attempt < 5; attempt++) {
    const before = await catalogueVersionNow();
    await call(path);
    const counted = await countingDatabaseWork(() => call(path));
    if ((await catalogueVersionNow()) === before) return counted;
  }
  throw new Error('the catalogue never stood still for one count');
}
