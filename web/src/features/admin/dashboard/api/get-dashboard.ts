// GET admin/dashboard: money, orders, providers and what needs a person (the Money list among it),
// per day, week or month; read again every minute while the dashboard is open.

import type { DashboardPeriod } from '@schemas/admin';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { adminKeys } from '@/features/admin/adminApi';
import { client, read } from '@/lib/api';

const REFRESH_MS = 60_000;

export const getDashboard = async (period: DashboardPeriod, signal?: AbortSignal) =>
  (await read(client.admin.dashboard.$get({ query: { period } }, { init: { signal } }))).data;

export type Dashboard = Awaited<ReturnType<typeof getDashboard>>;
export type PaymentRefusalAlert = NonNullable<Dashboard['paymentRefusals']>;
export type MoneyAlert = Dashboard['money']['items'][number];

export const dashboardQueryOptions = (period: DashboardPeriod) =>
  queryOptions({
    queryKey: adminKeys.dashboard(period),
    queryFn: ({ signal }) => getDashboard(period, signal),
    placeholderData: keepPreviousData,
    refetchInterval: REFRESH_MS,
  });

export const useDashboard = (period: DashboardPeriod) => useQuery(dashboardQueryOptions(period));
