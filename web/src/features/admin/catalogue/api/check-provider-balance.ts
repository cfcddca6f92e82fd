// GET admin/providers/:id/balance: asks the provider now, and stores what it said.
import { client, read } from '@/lib/api';

export const checkProviderBalance = (providerId: number) => read(client.admin.providers[':id'].balance.$get({ param: { id: String(providerId) } }));
