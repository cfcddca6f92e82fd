// GET admin/referrals: every referral with what it paid, newest first.
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import type { InferResponseType } from 'hono/client';
import { client, read } from '@/lib/api';
import { referralAdminKeys } from './keys';

export type AdminReferral = InferResponseType<typeof client.admin.referrals.$get, 200>['data'][number];

export const getReferrals = (page: number, limit: number, signal?: AbortSignal) =>
  read(client.admin.referrals.$get({ query: { page: String(page), limit: String(limit) } }, { init: { signal } }));

export const referralsQueryOptions = (page: number, limit: number) =>
  queryOptions({ queryKey: referralAdminKeys.list(page), queryFn: ({ signal }) => getReferrals(page, limit, signal), placeholderData: keepPreviousData });

export const useAdminReferrals = (page: number, limit: number) => useQuery(referralsQueryOptions(page, limit));
