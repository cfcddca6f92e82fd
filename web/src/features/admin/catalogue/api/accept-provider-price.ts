// POST admin/services/:id/provider-price/accept: names the held price as shown, so one that changed meanwhile is refused.
import { client, read } from '@/lib/api';

export const acceptProviderPrice = (serviceId: number, providerRate: string) =>
  read(client.admin.services[':id']['provider-price'].accept.$post({ param: { id: String(serviceId) }, json: { providerRate } }));
