// POST admin/orders/:id/refill: asks the provider to top up what dropped.
import { client, read } from '@/lib/api';

export const refillOrder = (orderId: number) => read(client.admin.orders[':id'].refill.$post({ param: { id: String(orderId) } }));
