// What the bench needs in the shop before it measures: funded users, a 5,000-service catalogue
// and a settled card payment.

import { randomBytes } from 'node:crypto';
import { eq, sql } from 'drizzle-orm';
import { services } from '../../drizzle/schema';
import { app } from '../../worker/app';
import { openDatabase } from '../stack/node-db';
import type { RunningStack } from '../stack/stack';
import { callApi, payDeposit, type SignedInUser, signUp } from './shop-client';

/** Registrations and sign-ins are rate limited to 10 a minute per address; the admin signs in too. */
const USERS = 8;
export const CATALOGUE_SIZE = 5000;

let sequence = 0;
export const nextId = () => `${process.pid}-${++sequence}`;

export function routeExists(method: string, routePath: string): boolean {
  return app.routes.some((route) => route.method === method && route.path === routePath);
}

export interface BenchUser extends SignedInUser {
  email: string;
  password: string;
}

export async function prepareUsers(stack: RunningStack, adminToken: string): Promise<BenchUser[]> {
  const users: BenchUser[] = [];
  for (let i = 0; i < USERS; i++) {
    const credentials = { email: `bench-${process.pid}-${i}@example.com`, password: randomBytes(12).toString('base64url') };
    const user = await signUp(stack.url, { fullName: `Bench User ${i}`, ...credentials });
    await callApi(stack.url, 'POST', 'user/admin-credit-user-wallet', {
      token: adminToken,
      body: { amount: 1_000_000, reference: `bench-fund-${nextId()}`, userId: user.id },
    });
    users.push({ ...user, ...credentials });
  }
  return users;
}

/**
 * Tops the catalogue up to CATALOGUE_SIZE services with copies of a sandbox service, straight in
 * Postgres. Returns the sandbox service orders can be placed on, or why the catalogue was skipped.
 */
export async function seedCatalogue(stack: RunningStack): Promise<{ orderable: typeof services.$inferSelect } | { skipped: string }> {
  if (!routeExists('GET', '/api/v1/services')) return { skipped: 'the app has no GET services route' };
  const { db, close } = openDatabase({ DATABASE_URL: stack.databaseUrl, DB_WS_PROXY: stack.dbWsProxy, DB_HTTP_ENDPOINT: stack.dbHttpEndpoint });
  try {
    const { rows } = await db.execute<{ exists: boolean }>(sql`select to_regclass('public.services') is not null as exists`);
    if (!rows[0].exists) return { skipped: 'the database has no services table' };
    // The sandbox panel's Instagram Likes: a Default service, ordered by link and quantity.
    const [template] = await db.select().from(services).where(eq(services.providerServiceId, '1031'));
    if (!template) return { skipped: 'the demo catalogue has no sandbox service 1031 to copy' };
    const [{ count }] = (await db.execute<{ count: number }>(sql`select count(*)::int as count from ${services}`)).rows;
    const copies = Array.from({ length: Math.max(0, CATALOGUE_SIZE - count) }, (_, i) => ({
      ...template,
      id: undefined,
      createdAt: undefined,
      updatedAt: undefined,
      providerServiceId: `bench-${i}`,
      name: `${template.name} (bench copy ${i}${i % 10 === 0 ? ', zebra' : ''})`,
    }));
    for (let start = 0; start < copies.length; start += 1000) await db.insert(services).values(copies.slice(start, start + 1000));
    // Statistics for the new rows, as autovacuum gathers them minutes after a real import: without them the
    // planner takes the catalogue for a few rows and sorts it with nested loops, several times slower.
    await db.execute(sql`analyze ${services}`);
    return { orderable: template };
  } finally {
    await close();
  }
}

/** A settled card payment: verifying its payload again is the idempotent path the return page retries. */
export async function settledPayment(stack: RunningStack, token: string) {
  const deposit = await payDeposit(stack.url, stack.fakes.paystackUrl, token, 1000, 'success');
  const { checkoutUrl, signature, amount } = deposit;
  const verified = await callApi<{ data: { orderStatus: number } }>(stack.url, 'POST', 'user/verify-payment', {
    token,
    body: { checkoutUrl, signature, amount },
  });
  if (verified.data.orderStatus !== 2) throw new Error(`the sandbox payment was not credited (orderStatus ${verified.data.orderStatus})`);
  return { checkoutUrl, signature, amount };
}
