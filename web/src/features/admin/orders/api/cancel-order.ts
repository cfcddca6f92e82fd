// POST admin/orders/:id/cancel. Like every manual action that changes the status, it names the status
// the screen showed, so an order that moved on meanwhile answers 409 instead of being overwritten.
import type { OrderStatus } from '@vocabulary';

import { client, read } from '@/lib/api';

export const cancelOrder = (orderId: number, expectedStatus: OrderStatus, reason?: string) =>
  read(client.admin.orders[':id'].cancel.$post({ param: { id: String(orderId) }, json: { reason: reason || undefined, expectedStatus } }));
