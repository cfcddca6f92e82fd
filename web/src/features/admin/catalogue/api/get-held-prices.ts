// GET admin/services/held-prices: services whose new provider price the catalogue sync held back,
// with what accepting it would make of their cost and price.
import { useQuery } from '@tanstack/react-query';
import type { InferRequestType, InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';
import { pagedList } from '@/lib/queries';

type HeldPricesRoute = (typeof client.admin.services)['held-prices']['$get'];
export type HeldPricesQuery = NonNullable<InferRequestType<HeldPricesRoute>['query']>;
export type HeldProviderPrice = InferResponseType<HeldPricesRoute, 200>['data'][number];

export const getHeldProviderPrices = (query: HeldPricesQuery, signal?: AbortSignal) =>
  read(client.admin.services['held-prices'].$get({ query }, { init: { signal } }));

export const heldProviderPricesQueryOptions = (query: HeldPricesQuery) =>
  pagedList(adminQuery(['catalogue', 'held-prices', query], (signal) => getHeldProviderPrices(query, signal)));

export const useHeldProviderPrices = (query: HeldPricesQuery) => useQuery(heldProviderPricesQueryOptions(query));
