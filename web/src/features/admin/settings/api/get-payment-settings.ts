// GET admin/settings/payment. Keys are write-only: the answer says only where each one comes from,
// and whether the provider accepts it.
import { queryOptions, useQuery } from '@tanstack/react-query';
import { client, read } from '@/lib/api';
import { settingsKeys } from './keys';

export const getPaymentSettings = async (signal?: AbortSignal) => (await read(client.admin.settings.payment.$get(undefined, { init: { signal } }))).data;

export type PaymentSettingsView = Awaited<ReturnType<typeof getPaymentSettings>>;

export const paymentSettingsQueryOptions = () => queryOptions({ queryKey: settingsKeys.payment, queryFn: ({ signal }) => getPaymentSettings(signal) });

export const usePaymentSettings = () => useQuery(paymentSettingsQueryOptions());
