// GET admin/services/settings: the global pricing rules. Percentages and factors travel as decimal text.
import { useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type PricingSettings = InferResponseType<typeof client.admin.services.settings.$get, 200>['data'];

export const getPricingSettings = async (signal?: AbortSignal) => (await read(client.admin.services.settings.$get(undefined, { init: { signal } }))).data;

export const pricingSettingsQueryOptions = () => adminQuery(['catalogue', 'pricing'], getPricingSettings);

export const usePricingSettings = () => useQuery(pricingSettingsQueryOptions());
