// GET admin/services/rates: the exchange rates (units per USD, 6 decimals) and the ones held for review.
import { queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';

export type ExchangeRateReview = InferResponseType<typeof client.admin.services.rates.$get, 200>['data']['rates'][number];

export const getExchangeRates = async (signal?: AbortSignal) => (await read(client.admin.services.rates.$get(undefined, { init: { signal } }))).data;

export const exchangeRatesQueryOptions = () =>
  queryOptions({
    // Under 'admin', so useRefreshAdmin re-reads it after any change.
    queryKey: ['admin', 'catalogue', 'rates'],
    queryFn: ({ signal }) => getExchangeRates(signal),
  });

export const useExchangeRates = () => useQuery(exchangeRatesQueryOptions());
