// POST admin/providers/:id/import: sells the chosen services of the provider's catalogue (ones
// imported before keep their settings).
import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type ProviderImport = InferRequestType<(typeof client.admin.providers)[':id']['import']['$post']>['json'];

export const importFromProvider = (providerId: number, selection: ProviderImport) =>
  read(client.admin.providers[':id'].import.$post({ param: { id: String(providerId) }, json: selection }));
