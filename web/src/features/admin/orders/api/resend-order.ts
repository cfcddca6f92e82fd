// POST admin/orders/:id/resend. An order whose submission is unknown is sent again only on the
// administrator's word that the provider has no such order.
import { client, read } from '@/lib/api';

export const resendOrder = (orderId: number, confirmNotAtProvider: boolean) =>
  read(client.admin.orders[':id'].resend.$post({ param: { id: String(orderId) }, json: { confirmNotAtProvider } }));
