// PUT admin/services/settings: saving reprices every service; the answer says how many moved.
import type { InferRequestType } from 'hono/client';
import { client, read } from '@/lib/api';

export type PricingChanges = NonNullable<InferRequestType<typeof client.admin.services.settings.$put>['json']>;

export const updatePricingSettings = (changes: PricingChanges) => read(client.admin.services.settings.$put({ json: changes }));
