// PUT admin/providers/:id: the fields sent change; an API key is sent only to replace the stored one.
import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type ProviderChanges = NonNullable<InferRequestType<(typeof client.admin.providers)[':id']['$put']>['json']>;

export const updateProvider = (providerId: number, changes: ProviderChanges) =>
  read(client.admin.providers[':id'].$put({ param: { id: String(providerId) }, json: changes }));
