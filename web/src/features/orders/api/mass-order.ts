// POST user/mass-order: many "serviceId|link|quantity" lines at the total the customer saw.
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type MassOrderResult = InferResponseType<(typeof client.user)['mass-order']['$post'], 200>['results'][number];

/** Places the lines at the total the customer saw (naira text); a 409 carries the total now (newPrice). */
export const massOrder = (orders: string, expectedTotal: string, idempotencyKey: string) =>
  read(client.user['mass-order'].$post({ json: { orders, expectedTotal } }, { headers: { 'Idempotency-Key': idempotencyKey } }));
