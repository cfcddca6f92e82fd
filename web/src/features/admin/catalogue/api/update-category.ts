// PUT admin/services/categories/:id: a new markup (null: the global one) reprices the category's services at once.
import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type CategoryChanges = NonNullable<InferRequestType<(typeof client.admin.services.categories)[':id']['$put']>['json']>;

export const updateCategory = (categoryId: number, changes: CategoryChanges) =>
  read(client.admin.services.categories[':id'].$put({ param: { id: String(categoryId) }, json: changes }));
