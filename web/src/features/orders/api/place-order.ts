// POST user/orders with an Idempotency-Key and the charge agreed: a 409 names the charge now.
import type { CreateOrderInput } from '@schemas/orders';
import { client, isApiError, read } from '@/lib/api';

/** Places an order; with `expectedCharge`, only at that charge (a 409 carries the charge now: newPrice). */
export const placeOrder = (body: CreateOrderInput, idempotencyKey: string) =>
  read(client.user.orders.$post({ json: body }, { headers: { 'Idempotency-Key': idempotencyKey } }));

/**
 * The price a 409 says an order (`charge`) or a mass order (`total`) costs now, when it was sent
 * with one the server no longer charges: nothing was placed, and the customer confirms the new one.
 */
export function newPrice(error: unknown, field: 'charge' | 'total'): string | null {
  if (!isApiError(error) || error.status !== 409) return null;
  const value = (error.data as { data?: Record<string, unknown> } | null)?.data?.[field];
  return typeof value === 'string' && /^\d+\.\d{2}$/.test(value) ? value : null;
}
