// GET admin/services/rates: the exchange rates (units per USD, 6 decimals) and the ones held for review.
import { useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { adminQuery } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

export type ExchangeRateReview = InferResponseType<typeof client.admin.services.rates.$get, 200>['data']['rates'][number];

export const getExchangeRates = async (signal?: AbortSignal) => (await read(client.admin.services.rates.$get(undefined, { init: { signal } }))).data;

export const exchangeRatesQueryOptions = () => adminQuery(['catalogue', 'rates'], getExchangeRates);

export const useExchangeRates = () => useQuery(exchangeRatesQueryOptions());
