// A customer's orders for the Worker tests: placing them through the API, waiting for the
// submissions queue to send them, and reading them back from our database and the fake panel.
import { eq } from 'drizzle-orm';
import { orders } from '../../drizzle/schema';
import { call, type TestAccount, unique, withDb } from '../support/api';
import type { FakeScope } from './providers/fake-scope';

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
