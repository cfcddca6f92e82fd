// POST admin/orders/:id/status, with the status the screen showed (409 when it moved on).

import type { OrderStatus } from '@vocabulary';

import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type OrderStatusChange = Omit<InferRequestType<(typeof client.admin.orders)[':id']['status']['$post']>['json'], 'expectedStatus'>;

export const setOrderStatus = (orderId: number, expectedStatus: OrderStatus, change: OrderStatusChange) =>
  read(client.admin.orders[':id'].status.$post({ param: { id: String(orderId) }, json: { ...change, expectedStatus } }));
