// POST user/orders/{id}/cancel: a queued order is refunded at once, a sent one when the provider confirms.
import { client, read } from '@/lib/api';

export const cancelOrder = (id: number) => read(client.user.orders[':id'].cancel.$post({ param: { id: String(id) } }));
