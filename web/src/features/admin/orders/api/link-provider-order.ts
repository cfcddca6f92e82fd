// POST admin/orders/:id/link: ties an order whose submission is unknown to the order found at the provider.
import { client, read } from '@/lib/api';

export const linkProviderOrder = (orderId: number, providerOrderId: string) =>
  read(client.admin.orders[':id'].link.$post({ param: { id: String(orderId) }, json: { providerOrderId } }));
