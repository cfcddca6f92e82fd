// PUT admin/services/:id: a rate switches the service to a fixed price, a markup (null: inherited) back to markup pricing.
import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type ServiceChanges = NonNullable<InferRequestType<(typeof client.admin.services)[':id']['$put']>['json']>;

export const updateService = (serviceId: number, changes: ServiceChanges) =>
  read(client.admin.services[':id'].$put({ param: { id: String(serviceId) }, json: changes }));
