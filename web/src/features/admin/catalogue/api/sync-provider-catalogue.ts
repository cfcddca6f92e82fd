// POST admin/providers/:id/sync: the provider's scheduled catalogue sync, run now.
import { client, read } from '@/lib/api';

export const syncProviderCatalogue = (providerId: number) => read(client.admin.providers[':id'].sync.$post({ param: { id: String(providerId) } }));
