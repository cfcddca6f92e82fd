// Shared setup for the catalogue, order and sync tests: a provider of our own pointing at a
// private copy of the fake SMM panel (its /__scope), services imported from it, funded users.
// Every test builds what it needs, so test files running in parallel never share a provider.
import { eq } from 'drizzle-orm';
import { expect, inject } from 'vitest';
import { orders, services, wallets, walletTransactions } from '../../drizzle/schema';
import { applyLedgerEntry } from '../../worker/services/ledger';
import { call, createAdmin, registerAndLogin, type TestAccount, unique, withDb } from '../support/api';
import { type FakeScope, fakeScope } from './providers/fake-scope';

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

export async function fund(userId: number, kobo: bigint): Promise<void> {
  await withDb((db) =>
    applyLedgerEntry(db, {
      userId,
      direction: 'credit',
      amountKobo: kobo,
      source: 'admin_credit',
      sourceRef: unique('test-fund'),
      description: 'test funding',
    }),
  );
}

export async function fundedUser(kobo: bigint): Promise<TestAccount> {
  const user = await registerAndLogin();
  await fund(user.id, kobo);
  return user;
}

export async function balanceKobo(userId: number): Promise<bigint> {
  const [row] = await withDb((db) => db.select({ balanceKobo: wallets.balanceKobo }).from(wallets).where(eq(wallets.userId, userId)));
  return row.balanceKobo;
}

export async function rateKoboOf(serviceId: number): Promise<bigint> {
  const [row] = await withDb((db) => db.select({ rateKobo: services.rateKobo }).from(services).where(eq(services.id, serviceId)));
  return row.rateKobo;
}

export async function orderRow(orderId: number) {
  const [row] = await withDb((db) => db.select().from(orders).where(eq(orders.id, orderId)));
  return row;
}

/**
 * The order once the submissions queue has sent it: accepted, refused, held (back to queued after
 * an attempt) or left unknown, after `attempts` tries. Waits for that, however long the queue takes;
 * the test's timeout bounds it.
 */
export async function untilSubmitted(orderId: number, attempts = 1) {
  for (;;) {
    const row = await orderRow(orderId);
    if (row.submitAttempts >= attempts && row.submission !== 'sending') return row;
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** POST user/orders, answered with the order as its owner sees it once the queue has submitted it. */
export async function placeSubmittedOrder(user: TestAccount, body: Record<string, unknown>, idempotencyKey?: string) {
  const placed = await placeOrder(user, body, idempotencyKey);
  if (placed.status !== 201) return placed;
  await untilSubmitted(placed.body.data.id);
  const seen = await call(`user/orders/${placed.body.data.id}`, { token: user.accessToken });
  return { ...placed, body: { ...placed.body, data: seen.body.data } };
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

export async function ledgerFor(userId: number) {
  return withDb((db) => db.select().from(walletTransactions).where(eq(walletTransactions.userId, userId)));
}

let linkCounter = 0;
/** A link no other test uses (the fake counts `add` calls per link). */
export function newLink(host = 'instagram.com'): string {
  linkCounter += 1;
  return `https://${host}/p/${unique('post')}${linkCounter}`;
}

export function placeOrder(user: TestAccount, body: Record<string, unknown>, idempotencyKey?: string) {
  return call('user/orders', { token: user.accessToken, body, headers: idempotencyKey ? { 'idempotency-key': idempotencyKey } : {} });
}

/** The fake panel's view of its orders and how often `add` was called per link. */
export async function fakeOrders(
  fake: FakeScope,
): Promise<{ orders: Array<{ id: number; link: string; status: string; quantity: number }>; addCallsByLink: Record<string, number> }> {
  return fake.get('/__orders');
}
