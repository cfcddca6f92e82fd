// POST user/orders/{id}/refill: asks the provider to top up what dropped, within the refill window.
import { client, read } from '@/lib/api';

export const refillOrder = (id: number) => read(client.user.orders[':id'].refill.$post({ param: { id: String(id) } }));
