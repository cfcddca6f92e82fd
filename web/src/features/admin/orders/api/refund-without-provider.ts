// POST admin/orders/:id/refund-without-provider, with the status the screen showed (409 when it moved on).
import type { OrderStatus } from '@vocabulary';

import { client, read } from '@/lib/api';

export const refundWithoutProvider = (orderId: number, expectedStatus: OrderStatus, reason: string) =>
  read(client.admin.orders[':id']['refund-without-provider'].$post({ param: { id: String(orderId) }, json: { reason, expectedStatus } }));
