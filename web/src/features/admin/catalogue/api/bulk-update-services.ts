// POST admin/services/bulk: switches the chosen services on or off, or sets their markup. `skipped`
// names those left off because their fixed price is under the margin floor.
import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type BulkServiceChange = InferRequestType<typeof client.admin.services.bulk.$post>['json'];

export const bulkUpdateServices = (change: BulkServiceChange) => read(client.admin.services.bulk.$post({ json: change }));
